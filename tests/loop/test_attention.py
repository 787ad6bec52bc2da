"""What waits for the user, derived from the store alone: open questions, waiting panes,
stalled panes (their current silence on the board), rejections and feedback stops since the
user last looked; `a2a attention` lists them and `--seen` marks the rejections and stops."""

from __future__ import annotations

from a2a_tui.panes.records import pane_of, save_pane, session_row
from a2a_tui.payloads.sessions import PaneStalled
from a2a_tui.payloads.verify import FeedbackStopped, GateFeedback, Rejected
from tests.support import a2a, a2a_as, register_session, set_session, store


def test_everything_that_waits_and_what_seeing_clears(repo):
    register_session(repo, "w1", state="waiting")
    register_session(repo, "w2", state="busy")
    register_session(repo, "w3", state="busy")
    a2a_as(repo, "exec1", "executive", "board", "ask", "--title", "Ship it?", "--option",
           "y=Yes", "--option", "n=No", "--recommend", "y", "--why", "green")
    with store(repo) as s, s.write() as tx:
        for sid, signal_ns in (("w2", 1_000), ("w3", 2_000)):  # their last signal
            p = pane_of(session_row(tx, sid))
            save_pane(tx, sid, p, p, last_signal_ns=signal_ns)
        tx.append("pane_stalled", actor="orchestrator", session="w2",
                  payload=PaneStalled(since_ns=1_000, item="F-1"))
        tx.append("pane_stalled", actor="orchestrator", session="w3",  # an older silence
                  payload=PaneStalled(since_ns=1_500, item="F-2"))
        tx.append("rejected", actor="gate", attempt="T-1-a1",
                  payload=Rejected(first_failure="tests"))
        tx.append("gate_feedback", actor="gate", attempt="T-1-a1", payload=GateFeedback(
            run=4, sha="a" * 40, consecutive_rejections=4, sent=False,
            why="4 consecutive rejections (limit 3): automatic feedback stops"))
        tx.append("gate_feedback", actor="gate", attempt="T-2-a1", payload=GateFeedback(
            run=1, sha="a" * 40, consecutive_rejections=1, sent=False,
            why="the writer is not a managed session"))
        tx.append("feedback_stopped", actor="gate", attempt="T-3-a1",
                  payload=FeedbackStopped())
    r = a2a("attention", "--json", cwd=repo)
    assert r.code == 0, r.err
    assert [(t["kind"], t["ref"]) for t in r.json["waiting"]] == [
        ("question", "Q-1"), ("waiting", "w1"), ("stalled", "w2"), ("rejection", "T-1-a1"),
        ("stop", "T-1-a1"), ("stop", "T-3-a1")]
    assert r.json["count"] == 6

    r = a2a("attention", "--seen", "--json", cwd=repo)
    assert [t["kind"] for t in r.json["waiting"]] == ["question", "waiting", "stalled"]
    set_session(repo, "w1", state="idle")
    assert a2a("board", "answer", "Q-1", "--adopt", cwd=repo).code == 0
    assert [t["kind"] for t in a2a("attention", "--json", cwd=repo).json["waiting"]] == [
        "stalled"]
    r = a2a_as(repo, "exec2", "executive", "attention", "--seen", "--json")
    assert r.code == 1 and r.json["error"]["code"] == "user_only"
