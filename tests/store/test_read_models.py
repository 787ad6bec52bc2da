"""The read models: the workbench and the CLI read one sessions view (`panes.views`) and one
attempts view (`gate.views`), and inject through one core call (`panes.control.inject`)."""

from __future__ import annotations

import subprocess

import pytest

from a2a_tui.errors import A2AError
from a2a_tui.gate import views as gate_views
from a2a_tui.panes import control, recovery
from a2a_tui.panes import views as pane_views
from a2a_tui.repo import Repo
from a2a_tui.store import Store
from a2a_tui.tui import queries
from a2a_tui.tui.services import Workbench
from tests.support import a2a, register_session, write_card


def gone_pid() -> int:
    """A pid no process has: no caller descends from it, so the CLI runs as the user."""
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


def open_store(repo) -> Store:
    return Store(repo / ".a2a" / "a2a.db")


def test_the_workbench_and_a2a_sessions_read_one_sessions_view(repo):
    for sid in ("w1", "w2", "w3"):
        register_session(repo, sid, "worker", gone_pid(), start=0)
    s = open_store(repo)
    n = {text: control.inject(s, sid, text, source="user", actor="user").dispatch
         for sid, text in (("w1", "a"), ("w2", "b"), ("w1", "c"), ("w1", "d"), ("w2", "e"))}
    # A crash between paste and Enter: the orchestrator's recovery marks them unknown.
    s.conn.execute("UPDATE dispatches SET state = 'sending' WHERE n IN (?, ?)", (n["a"], n["e"]))
    recovery.unknown_deliveries(s)
    control.set_paused(s, ["w3"], True, actor="user")

    views = pane_views.sessions(s)
    assert [(v.id, v.queue, v.unknown_dispatches, v.paused, v.state) for v in views] == [
        ("w1", 2, (n["a"],), False, "unknown"), ("w2", 1, (n["e"],), False, "unknown"),
        ("w3", 0, (), True, "idle")]
    assert queries.load(s).sessions == views

    res = a2a("sessions", "--json", cwd=repo)
    assert res.code == 0, res.err
    printed = res.json
    for item in printed:
        item.pop("last_signal_age_s")
    assert printed == [{k: v for k, v in x.to_json(0).items() if k != "last_signal_age_s"}
                       for x in views]
    assert [(x["session"], x["queue"], x["unknown_dispatches"]) for x in printed] == [
        ("w1", 2, [n["a"]]), ("w2", 1, [n["e"]]), ("w3", 0, [])]
    res = a2a("status", "--json", cwd=repo)
    assert [x["id"] for x in res.json["sessions"]] == ["w1", "w2", "w3"]
    assert [x["paused"] for x in res.json["sessions"]] == [0, 0, 1]


def test_the_gate_panel_and_a2a_status_read_one_attempts_view(repo):
    for args in (("card", "add", str(write_card(repo, "T-1"))), ("card", "ready", "T-1"),
                 ("card", "add", str(write_card(repo, "T-2"))), ("claim", "T-1"),
                 ("claim", "T-1", "--supersede")):
        res = a2a(*args, cwd=repo)
        assert res.code == 0, res.err
    s = open_store(repo)
    attempts = gate_views.attempts(s)
    assert [(a.id, a.state, a.fence) for a in attempts] == [
        ("T-1-a1", "superseded", 1), ("T-1-a2", "claimed", 2)]
    assert gate_views.latest_attempt(s, "T-1") == attempts[1]
    assert gate_views.latest_attempt(s, "T-2") is None

    status = a2a("status", "--json", cwd=repo).json
    assert status["attempts"] == [a.to_json() for a in attempts]
    assert status["cards"] == [c.to_json() for c in gate_views.cards(s)]
    assert [c["id"] for c in status["cards"]] == ["T-1", "T-2"]
    t1, t2 = queries.load(s).gate
    assert (t1.attempt, t1.attempt_state, t1.writer, t1.sha) == ("T-1-a2", "claimed", "user", None)
    assert (t2.card, t2.attempt, t2.card_state) == ("T-2", None, "draft")


def test_the_workbench_injects_through_the_cli_s_call_and_records_the_user_s_message(repo):
    register_session(repo, "w1", "worker", gone_pid(), start=0)
    register_session(repo, "gone", "worker", gone_pid(), start=0, state="exited")
    cli = a2a("inject", "w1", "from the shell", "--json", cwd=repo)
    assert cli.code == 0, cli.err
    assert cli.json["dispatch"] == 1 and cli.json["ahead"] == 0 and "user_input" not in cli.json

    done = Workbench(Repo(repo)).sessions.inject("w1", "from the workbench")
    assert done.data == {"session": "w1", "dispatch": 2, "ahead": 1, "user_input": "U-1",
                         "paused": False}
    assert done.summary == "queued #2 for w1 (1 ahead) · U-1"
    s = open_store(repo)
    assert [tuple(r) for r in s.all("SELECT n, text, source, state FROM dispatches")] == [
        (1, "⟦主控 #1 · 用户⟧ from the shell", "user", "queued"),
        (2, "⟦主控 #2 · 用户⟧ from the workbench", "user", "queued")]
    assert [tuple(r) for r in s.all("SELECT record, dispatch FROM deliveries")] == [("U-1", 2)]

    refused = a2a("inject", "gone", "hello", "--json", cwd=repo)
    with pytest.raises(A2AError) as err:
        Workbench(Repo(repo)).sessions.inject("gone", "hello")
    assert refused.json["error"] == {"code": err.value.code, "message": err.value.message}
    assert err.value.code == "session_exited"
    assert s.one("SELECT COUNT(*) FROM user_inputs")[0] == 1  # the refused one left nothing
