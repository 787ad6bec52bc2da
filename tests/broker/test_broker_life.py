"""The broker lives and dies with the orchestrator: a socket per session that has not exited,
made as the session is spawned and removed when it exits; restarted if it dies; gone when the
orchestrator goes, however it goes."""

from __future__ import annotations

import os
import signal
import stat

from a2a_tui.broker.client import connect
from tests.gate.verify_support import alive
from tests.support import (
    AgentProcess,
    broker_as,
    events,
    holds_for,
    register_session,
    spawn,
    wait_state,
    wait_until,
)
from tests.support.broker import broker_pid, socket_of


def listening(path) -> bool:
    try:
        connect(str(path), wait_s=0).close()
    except OSError:
        return False
    return True


def test_a_spawned_session_gets_a_socket_of_its_own_that_goes_when_it_exits(
        repo, tmux_socket, serve, world):
    serve()
    s = spawn(repo, tmux_socket)
    sid = s["session"]
    path = socket_of(repo, sid)
    wait_until(path.is_socket, timeout=20, what="the session's socket")
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    wait_state(repo, sid, "idle")
    world.kill_pane(s["pane"])
    wait_state(repo, sid, "exited")
    wait_until(lambda: not path.exists(), timeout=20, what="the socket to be removed")


def test_the_broker_is_started_again_when_it_dies(repo, serve):
    serve()
    assert broker_as(repo, "w1", "worker", "whoami").code == 0
    first = broker_pid(repo)
    os.kill(first, signal.SIGKILL)
    wait_until(lambda: events(repo, "broker_exited"), timeout=20, what="broker_exited")
    second = broker_pid(repo)
    assert second != first
    wait_until(lambda: listening(socket_of(repo, "w1")), timeout=20,
               what="the new broker to listen on w1's socket")
    r = broker_as(repo, "w1", "worker", "whoami")
    assert r.code == 0 and "session w1" in r.out, r.err


def test_the_broker_ends_with_the_orchestrator_even_when_it_is_killed(repo, serve):
    served = serve()
    assert broker_as(repo, "w1", "worker", "whoami").code == 0
    pid = broker_pid(repo)
    served.proc.kill()           # no chance to stop it: the kernel and the pipe must
    served.proc.wait(timeout=10)
    wait_until(lambda: not alive(pid), timeout=10, what="the broker to end")
    # Its socket stays behind, so a client is refused at once instead of waiting.
    assert socket_of(repo, "w1").is_socket()


def test_a_stopped_orchestrator_stops_its_broker(repo, serve):
    served = serve()
    assert broker_as(repo, "w1", "worker", "whoami").code == 0
    pid = broker_pid(repo)
    assert served.stop() == 0
    assert not alive(pid)


def children(pid: int) -> set[int]:
    """The live children of `pid` (a child that has ended and is not reaped yet is not one)."""
    out = set()
    for p in os.listdir("/proc"):
        try:
            state, ppid = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()[:2]
        except (OSError, ValueError, IndexError):
            continue
        if int(ppid) == pid and state != "Z":
            out.add(int(p))
    return out


def test_a_request_is_served_by_the_spare_forked_before_it_came(repo, serve):
    """Between requests the broker keeps one child forked and warmed up (its store opened once,
    its parser built): the next connection is handed to it; a new spare follows the request."""
    serve()
    register_session(repo, "w2", "worker", state="idle")
    assert broker_as(repo, "w1", "worker", "whoami").code == 0
    broker = broker_pid(repo)
    (spare,) = wait_until(lambda: (c := children(broker)) and len(c) == 1 and c,
                          timeout=20, what="one spare child")
    # A command that reads its stdin until the end: it runs until the client's stdin closes.
    p = AgentProcess(repo, "exec1", "executive", "inject", "w2", "-", "--json")
    assert p.proc.stdin is not None
    p.proc.stdin.write("go\n")
    p.proc.stdin.flush()
    pipe = os.fstat(p.proc.stdin.fileno()).st_ino

    def reading_it() -> bool:
        try:
            return os.stat(f"/proc/{spare}/fd/0").st_ino == pipe
        except OSError:
            return False

    wait_until(reading_it, timeout=20, what="the spare to be reading the client's stdin")
    p.proc.stdin.write("typed")
    p.proc.stdin.close()
    r = p.finish()
    assert r.code == 0, r.err
    wait_until(lambda: not alive(spare), timeout=10, what="the spare to end with its request")
    wait_until(lambda: (c := children(broker)) and len(c) == 1 and spare not in c, timeout=20,
               what="a new spare")


def test_a_spare_that_died_leaves_the_next_request_served(repo, serve):
    serve()
    assert broker_as(repo, "w1", "worker", "whoami").code == 0
    broker = broker_pid(repo)
    (spare,) = wait_until(lambda: (c := children(broker)) and len(c) == 1 and c,
                          timeout=20, what="one spare child")
    os.kill(spare, signal.SIGKILL)
    wait_until(lambda: spare not in children(broker), timeout=10, what="the spare reaped")
    # Not forked again at once (a spare that cannot start would be a fork loop): only after
    # the next request.
    holds_for(lambda: not children(broker), 1.5, "no new spare before a request")
    r = broker_as(repo, "w1", "worker", "whoami")
    assert r.code == 0 and "session w1" in r.out, r.err
    wait_until(lambda: len(children(broker)) == 1, timeout=20, what="a spare again")
