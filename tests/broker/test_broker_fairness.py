"""The broker is shared by every session, so no session can take it from the others: a cap of
requests served at once per session (the rest wait in that session's own backlog), a time
limit on reading a request's stdin, and a client that ends on SIGINT or SIGTERM while it waits
(`timeout a2a ...` ends it, whatever the broker is doing)."""

from __future__ import annotations

import fcntl
import os
import shlex
import signal
import socket
import struct
import subprocess
import termios
import time

from a2a_tui.broker.client import VERSION, Reader, send
from a2a_tui.resources import BROKER_ENV
from tests.support import AgentProcess, register_session, rows, wait_until
from tests.support.broker import CLIENT, broker_pid, children_of, serving, socket_of

CLIENT_WORDS = shlex.join(CLIENT)


def unread(conn: socket.socket) -> int:
    """Bytes sent on `conn` that the other end has not read yet."""
    return struct.unpack("i", fcntl.ioctl(conn, termios.TIOCOUTQ, b"\0" * 4))[0]


def _state(pid: int) -> str:
    """The process's scheduling state (`R` running, `S` asleep), from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


class Silent:
    """A socket in the broker's place that takes a client's request and never answers it (a
    broker whose every child is busy, seen from the client), or answers `started` first."""

    def __init__(self, tmp_path, started: bool = False):
        self.path = str(tmp_path / "s.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(self.path)
        self.sock.listen(4)
        self.client = subprocess.Popen([*CLIENT, "whoami"], env={**os.environ,
                                       BROKER_ENV: self.path}, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)
        self.conn, _ = self.sock.accept()
        self.reader = Reader(self.conn)
        msg = self.reader.recv()
        assert msg is not None and msg["v"] == VERSION   # the client now waits for an answer
        for fd in self.reader.take_fds():
            os.close(fd)
        if started:
            send(self.conn, {"started": True})
            wait_until(lambda: unread(self.conn) == 0, what="the client to read `started`")
            # Read is not yet acted on: once asleep again it waits for the answer, `started`
            # noted (a client preempted between the two would take a signal as unstarted).
            wait_until(lambda: _state(self.client.pid) == "S", what="the client to wait again")

    def ended_within(self, seconds: float) -> int | None:
        try:
            return self.client.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return None

    def close(self) -> None:
        if self.client.poll() is None:
            self.client.kill()
            self.client.wait()
        self.conn.close()
        self.sock.close()


def test_a_client_whose_request_no_child_has_taken_ends_on_sigterm(tmp_path):
    s = Silent(tmp_path)
    try:
        s.client.send_signal(signal.SIGTERM)    # `timeout 5 a2a inject ...` after 5 s
        assert s.ended_within(3) == -signal.SIGTERM
    finally:
        s.close()


def test_a_client_whose_command_runs_passes_one_signal_on_and_ends_at_the_second(tmp_path):
    s = Silent(tmp_path, started=True)
    try:
        s.client.send_signal(signal.SIGINT)     # passed on: the command is interrupted there
        assert s.reader.recv() == {"signal": signal.SIGINT}
        assert s.ended_within(0.3) is None      # ...and its end awaited
        s.client.send_signal(signal.SIGINT)     # a second Ctrl-C does not wait
        assert s.ended_within(3) == -signal.SIGINT
    finally:
        s.close()


def test_a_client_whose_command_ignores_the_signal_ends_after_a_grace(tmp_path):
    from a2a_tui.broker.client import SIGNAL_GRACE_S

    s = Silent(tmp_path, started=True)
    try:
        t0 = time.monotonic()
        s.client.send_signal(signal.SIGTERM)
        assert s.ended_within(SIGNAL_GRACE_S + 3) == -signal.SIGTERM
        assert time.monotonic() - t0 >= SIGNAL_GRACE_S - 0.2
    finally:
        s.close()


def test_a_request_whose_stdin_never_ends_is_refused_after_the_time_limit(repo, serve,
                                                                           tmp_path):
    serve(env={"A2A_BROKER_STDIN_S": "1"})
    register_session(repo, "w2", "worker", state="idle")
    fifo = tmp_path / "never-ends"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)   # a writer that never writes
    p = AgentProcess(repo, "exec1", "executive",
                     argv=["sh", "-c", f"exec {CLIENT_WORDS} inject w2 - --json < {fifo}"])
    t0 = time.monotonic()
    try:
        r = p.go(timeout=15)
    finally:
        os.close(writer)
    assert r.code == 1 and r.json["error"]["code"] == "broker_stdin_timeout", r.out + r.err
    assert time.monotonic() - t0 < 10
    assert rows(repo, "SELECT n FROM dispatches") == []


def test_one_session_serves_at_most_its_cap_at_once_and_another_is_answered(repo, serve):
    serve(env={"A2A_BROKER_PER_SESSION": "2", "A2A_BROKER_STDIN_S": "20"})
    register_session(repo, "w2", "worker", state="idle")
    flood = subprocess.Popen(
        ["sh", "-c", 'read go; exec "$@"', "sh", "sh", "-c",
         f"for i in 1 2 3 4 5 6; do sleep 20 | {CLIENT_WORDS} inject w2 - & done; wait"],
        env={**os.environ, BROKER_ENV: str(socket_of(repo, "exec1"))}, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    try:
        register_session(repo, "exec1", "executive", pid=flood.pid)
        serving(repo, "exec1")
        flood.stdin.write("go\n")
        flood.stdin.close()
        broker = broker_pid(repo)
        wait_until(lambda: len(children_of(broker)) >= 2, timeout=20,
                   what="the flood's requests to be taken")
        other = AgentProcess(repo, "w9", "worker", "whoami", "--json")
        t0 = time.monotonic()
        r = other.go(timeout=20)
        assert r.code == 0 and r.json["session"] == "w9", r.err
        assert time.monotonic() - t0 < 10
        # The flood's six requests: two served, the rest waiting in exec1's own backlog.
        assert len(children_of(broker)) <= 2 + 1    # + the spare, if one was made meanwhile
    finally:
        os.killpg(flood.pid, signal.SIGKILL)
        flood.wait()
