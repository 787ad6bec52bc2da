"""Recovery (seed 003 三.10), the orchestrator's half: a crash between sending and sent, signals
written while it was down, an agent that died, a restart in the middle of a queue."""

from __future__ import annotations

import os
import signal

from tests.panes.test_panes_spool import hook
from tests.scenarios.switches import scenario
from tests.support import (
    a2a,
    barrier,
    dispatch,
    events,
    inject,
    prompts,
    register_session,
    sessions_json,
    signals,
    spawn,
    wait_state,
    wait_until,
)


@scenario("sending_becomes_unknown")
def test_a_dispatch_cut_between_sending_and_sent_stays_unknown_and_is_not_resent(
        repo, tmux_socket, serve):
    orch = serve(env={"A2A_CRASH_AT": "panes_after_paste"})
    sid = spawn(repo, tmux_socket, "--delay", "0.1")["session"]
    wait_state(repo, sid, "idle")
    n = inject(repo, sid, "pasted, never entered")
    wait_until(lambda: orch.proc.poll() is not None, what="the orchestrator to crash")
    later = inject(repo, sid, "after the crash")
    serve()
    barrier(repo)  # its start, and a whole cycle after it, are done
    assert dispatch(repo, n)["state"] == "unknown"
    assert sessions_json(repo)[sid]["state"] == "unknown"
    assert dispatch(repo, later)["state"] == "queued"
    assert [e.payload["n"] for e in events(repo, "dispatch_sending", session=sid)] == [n]


@scenario("spool_catch_up")
def test_signals_written_while_the_orchestrator_was_down_are_ingested_on_start(
        repo, tmux_socket, serve):
    register_session(repo, "w9", state="unknown")
    (repo / ".a2a/spool/w9").mkdir()   # as spawn makes it
    for ev in ("SessionStart", "UserPromptSubmit", "Stop"):
        hook(repo / ".a2a/spool/w9", "w9", {"hook_event_name": ev, "session_id": "x",
                                         "source": "startup", "prompt": "typed"})
    serve()
    barrier(repo)
    assert len(signals(repo, "w9")) == 3
    assert [s["event"] for s in signals(repo, "w9")] == ["SessionStart", "UserPromptSubmit",
                                                          "Stop"]


@scenario("queue_survives_exit")
def test_a_dead_agent_keeps_its_queue(repo, tmux_socket, serve):
    serve()
    s = spawn(repo, tmux_socket)
    sid = s["session"]
    wait_state(repo, sid, "idle")
    assert a2a("pause", sid, cwd=repo).code == 0
    n = inject(repo, sid, "kept for later")
    os.kill(s["pid"], signal.SIGKILL)
    wait_state(repo, sid, "exited")
    assert dispatch(repo, n)["state"] == "queued"
    assert sessions_json(repo)[sid]["queue"] == 1


@scenario("no_resend_after_restart")
def test_a_restart_mid_queue_loses_nothing_and_sends_nothing_twice(repo, tmux_socket, serve):
    orch = serve()
    sid = spawn(repo, tmux_socket, "--delay", "0.1")["session"]
    wait_state(repo, sid, "idle")
    # #1's turn outlasts the two injects after it (each a process of its own, a second or two
    # on a loaded machine), so the kill lands inside #1's turn with #2 and #3 still queued.
    jobs = ["job 0 #delay=8", "job 1", "job 2"]
    ns = [inject(repo, sid, job) for job in jobs]
    wait_until(lambda: dispatch(repo, ns[0])["state"] == "delivered", timeout=30,
               what="#1 delivered")
    orch.kill()  # the machine goes down inside #1's turn
    serve()
    wait_until(lambda: dispatch(repo, ns[2])["state"] == "done", timeout=30, what="#3 done")
    assert prompts(repo, sid) == [f"⟦主控 #{n} · 用户⟧ {job}"
                                  for job, n in zip(jobs, ns, strict=True)]
    assert [e.payload["n"] for e in events(repo, "dispatch_sent", session=sid)] == ns
