"""Agents dying, orchestrators restarting and crashing, and the one-orchestrator lock."""

from __future__ import annotations

import os
import signal

from tests.support import (
    a2a,
    dispatch,
    events,
    inject,
    prompts,
    session,
    sessions_json,
    spawn,
    tmux,
    wait_state,
    wait_until,
)


def test_a_killed_agent_shows_exited_and_keeps_its_queue(repo, tmux_socket, serve):
    serve()
    s = spawn(repo, tmux_socket)
    sid = s["session"]
    wait_state(repo, sid, "idle")
    assert a2a("pause", sid, cwd=repo).code == 0
    n = inject(repo, sid, "kept for later")
    os.kill(s["pid"], signal.SIGKILL)
    wait_state(repo, sid, "exited")
    exits = [e for e in events(repo, "signal", session=sid) if e.payload["kind"] == "exited"]
    # The pidfd watcher and tmux's pane-died hook race; whichever lands first records it.
    assert exits and exits[0].payload["event"] in ("process-exited", "pane-died")
    assert len([e for e in events(repo, "signal", session=sid)
                if e.payload["to"] == "exited" and e.payload.get("ignored") is None]) == 1
    assert dispatch(repo, n)["state"] == "queued"
    assert sessions_json(repo)[sid]["queue"] == 1
    r = a2a("inject", sid, "more", "--json", cwd=repo)
    assert r.code == 1 and r.json["error"]["code"] == "session_exited"


def test_a_pane_gone_while_no_orchestrator_ran_is_exited_on_start(repo, tmux_socket, serve):
    first = serve()
    s = spawn(repo, tmux_socket)
    wait_state(repo, s["session"], "idle")
    first.stop()
    tmux(tmux_socket, "kill-pane", "-t", s["pane"])  # no hook fires for kill-pane
    serve()
    wait_state(repo, s["session"], "exited")
    assert events(repo, "pane_exited", session=s["session"])[0].payload["why"] == "pane is gone"


def test_restart_mid_queue_loses_nothing_and_sends_nothing_twice(repo, tmux_socket, serve):
    orch = serve()
    # #1's turn takes 15 s: the kill lands inside it, not while #2 is being pasted (that would
    # rightly leave #2 `unknown`, never re-sent: the next test covers it), however long the
    # four `a2a inject` take on a loaded machine.
    sid = spawn(repo, tmux_socket, "--delay", "1")["session"]
    wait_state(repo, sid, "idle")
    texts = ["job 0 #delay=15", "job 1", "job 2", "job 3"]
    ns = [inject(repo, sid, t) for t in texts]
    wait_until(lambda: dispatch(repo, ns[0])["state"] == "delivered", timeout=30,
               what="#1 delivered")
    orch.kill()
    assert dispatch(repo, ns[1])["state"] == "queued"
    orch = serve()
    wait_until(lambda: dispatch(repo, ns[1])["state"] in ("delivered", "done"), timeout=20,
               what="#2 after the restart")
    orch.stop()  # and a clean stop in the middle as well
    serve()
    wait_until(lambda: dispatch(repo, ns[3])["state"] == "done", timeout=40, what="#4 done")
    assert prompts(repo, sid) == [f"⟦主控 #{n} · 用户⟧ {t}" for t, n in zip(texts, ns, strict=True)]
    sent = [e.payload["n"] for e in events(repo, "dispatch_sent", session=sid)]
    assert sent == ns


def test_a_crash_between_sending_and_sent_leaves_unknown_never_resent(repo, tmux_socket, serve):
    orch = serve(env={"A2A_CRASH_AT": "panes_after_paste"})
    s = spawn(repo, tmux_socket, "--delay", "0.1")
    sid = s["session"]
    wait_state(repo, sid, "idle")
    n = inject(repo, sid, "pasted, never entered")
    wait_until(lambda: orch.proc.poll() is not None, what="the orchestrator to crash")
    assert dispatch(repo, n)["state"] == "sending"
    later = inject(repo, sid, "after the crash")

    serve()
    wait_until(lambda: dispatch(repo, n)["state"] == "unknown", what="#n unknown")
    view = sessions_json(repo)[sid]
    assert view["state"] == "unknown" and view["unknown_dispatches"] == [n]
    assert dispatch(repo, later)["state"] == "queued"  # nothing goes on top of an unknown paste

    # The user looks, and releases: the half-pasted text is cleared, the next one goes alone.
    assert a2a("release", sid, cwd=repo).code == 0
    wait_until(lambda: dispatch(repo, later)["state"] == "done", what="the later dispatch")
    assert prompts(repo, sid) == [f"⟦主控 #{later} · 用户⟧ after the crash"]
    assert dispatch(repo, n)["state"] == "unknown"
    assert [e.payload["n"] for e in events(repo, "dispatch_sending", session=sid)] == [n, later]


def test_a_second_orchestrator_exits_naming_the_first(repo, tmux_socket, serve):
    first = serve()
    r = a2a("serve", "--tmux-socket", tmux_socket, cwd=repo, timeout=30)
    assert r.code == 1
    assert f"pid {first.proc.pid}" in r.err and "orchestrator_running" in r.err
    assert first.proc.poll() is None
    assert session(repo, "none") == {}


def test_a_pane_that_never_signals_stays_unknown_with_a_hint(repo, tmux_socket, serve):
    """A CLI whose hooks are held back (first-run dialogs) sends nothing: the pane is `unknown`,
    never idle, and after a few seconds says what the user must answer in it."""
    serve()
    s = spawn(repo, tmux_socket, "--settings", '{"disableAllHooks": true}')
    sid = s["session"]
    n = inject(repo, sid, "must wait")
    view = wait_until(lambda: (v := sessions_json(repo)[sid])["hint"] and v, timeout=30,
                      what="the silent-start hint")
    assert view["state"] == "unknown"
    assert "look at the pane" in view["hint"]
    assert dispatch(repo, n)["state"] == "queued"  # nothing is pasted into an unknown pane
    hints = events(repo, "pane_hint", session=sid)
    assert len(hints) == 1 and hints[0].payload["why"] == "no signal since launch"


def test_a_prompt_the_cli_never_takes_is_unknown_and_never_pasted_again(
        repo, tmux_socket, serve):
    """Enter written, no prompt signal (here tmux drops the pane's input: paste and Enters
    alike): the harmless Enter is written again, a bounded number of times, never the paste;
    then the dispatch is `unknown`, the pane too, with a hint naming it. After a release the
    next prompt goes alone. A turn that was taken, however long, is left alone."""
    serve()
    s = spawn(repo, tmux_socket)
    sid = s["session"]
    wait_state(repo, sid, "idle")
    tmux(tmux_socket, "select-pane", "-d", "-t", s["pane"])  # tmux drops the pane's input
    n = inject(repo, sid, "lost prompt")
    wait_until(lambda: dispatch(repo, n)["state"] == "unknown", timeout=30, what="#n unknown")
    view = sessions_json(repo)[sid]
    assert view["state"] == "unknown" and view["in_flight"] == n
    assert f"#{n} not confirmed" in view["hint"]
    hints = events(repo, "pane_hint", session=sid)
    assert [(h.payload["why"], h.payload["n"]) for h in hints] == \
        [("no prompt signal after Enter", n)]
    assert len(events(repo, "dispatch_sending", session=sid)) == 1
    assert len(events(repo, "dispatch_enter_resent", session=sid)) == 2

    # The user looks, finds the box empty, releases; the next prompt goes, alone.
    tmux(tmux_socket, "select-pane", "-e", "-t", s["pane"])
    assert a2a("release", sid, cwd=repo).code == 0
    assert sessions_json(repo)[sid]["hint"] is None
    nxt = inject(repo, sid, "next prompt")
    wait_until(lambda: dispatch(repo, nxt)["state"] == "done", timeout=20, what="the next turn")
    assert prompts(repo, sid) == [f"⟦主控 #{nxt} · 用户⟧ next prompt"]
    assert dispatch(repo, n)["state"] == "unknown"

    slow = inject(repo, sid, "a long turn #delay=4")  # longer than the demo's prompt wait
    wait_until(lambda: dispatch(repo, slow)["state"] == "done", timeout=20, what="the long turn")
    assert len(events(repo, "pane_hint", session=sid)) == 1
    assert len(events(repo, "dispatch_enter_resent", session=sid)) == 2
