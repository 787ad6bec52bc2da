"""The broker's thin client: the `a2a` a managed session runs.

It asks the orchestrator's broker to run the command, on the session's own socket (named by
A2A_BROKER), and exits with the command's exit code. It decides nothing: who calls follows from
the socket (a2a_tui/broker/request.py). Standard library only, imported by nothing of a2a it
does not need: it runs as `python -I -S client.py ARGS` (the session's shim, or the `a2a`
console script handing over) and starts in about 15 ms.

The wire (one Unix stream connection per command). Every message is a frame, a 4-byte
big-endian length and a JSON object; file descriptors travel as SCM_RIGHTS with a frame's bytes:

    client -> broker  {"v": 1, "argv": [...], "cwd": "...", "env": {"TERM": ...}}  + fds 0, 1, 2
    broker -> client  {"started": true}         a child of the broker has taken the request
    broker -> client  {"need": ["PATH", ...]}   the command reads these files: the client opens
                                                each (inside its sandbox, with its own rights)
    client -> broker  {"files": [null | "why not", ...]}  + one fd per file it could open
    client -> broker  {"signal": N}             the client got SIGINT, SIGTERM or SIGHUP: the
                                                command is interrupted as if it had got it
    broker -> client  {"exit": N}               the command ended: the client exits with N
                      (with {"error": {"code", "message"}} when the broker refused the request
                      before the command had the client's stdout and stderr to say it on)

A signal ends a client that is still waiting for a child (the broker serves a few requests of a
session at once, the rest wait: `timeout a2a ...` must end it all the same). Once the command
runs, the first signal is passed on and the command's end awaited for `SIGNAL_GRACE_S` at most
(an interrupted `a2a verify` records why it ended); a second signal ends the client at once.
The broker's child sees the client go as a hang-up.

The command writes to the client's own stdout and stderr and reads its stdin (the descriptors
themselves, not copies), so pipes, redirections and a terminal work as with a local command.
Without a broker to answer, the client says so in one line (`broker_unavailable`) and exits 1.
"""

from __future__ import annotations

import array
import json
import os
import signal
import socket
import struct
import sys
import time

ENV = "A2A_BROKER"
VERSION = 1
MAX_FRAME = 4 * 1024 * 1024
MAX_FDS = 16
# What of the caller's environment the command sees: how to draw on its terminal, nothing more.
TERMINAL_VARS = ("TERM", "COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "COLORTERM")
FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# A new session's socket is made a moment after its folder (the orchestrator is woken by the
# spool folder spawn makes): a missing socket is waited for this long, a refused one is not.
CONNECT_WAIT_S = 2.0
SIGNAL_GRACE_S = 3.0  # a command told of a signal has this long to end before the client does
SUN_PATH_MAX = 100  # a longer path is reached through its folder (sun_path holds 104-108 bytes)
_HEADER = struct.Struct(">I")
_RECV_FLAGS = getattr(socket, "MSG_CMSG_CLOEXEC", 0)


def send(sock: socket.socket, msg: dict, fds: tuple[int, ...] | list[int] = ()) -> None:
    """One frame, with `fds` attached to its first bytes."""
    data = json.dumps(msg).encode()
    frame = _HEADER.pack(len(data)) + data
    if not fds:
        sock.sendall(frame)
        return
    rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))]
    sent = sock.sendmsg([frame], rights)
    if sent < len(frame):
        sock.sendall(frame[sent:])


class Reader:
    """Frames from a connection, and the file descriptors that came with them."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.buf = b""
        self.fds: list[int] = []

    def recv(self) -> dict | None:
        """The next frame; None at end of file. ValueError for what is not a frame."""
        while True:
            if len(self.buf) >= _HEADER.size:
                (n,) = _HEADER.unpack_from(self.buf)
                if n > MAX_FRAME:
                    raise ValueError(f"a frame of {n} bytes (at most {MAX_FRAME})")
                if len(self.buf) >= _HEADER.size + n:
                    data = self.buf[_HEADER.size:_HEADER.size + n]
                    self.buf = self.buf[_HEADER.size + n:]
                    try:
                        msg = json.loads(data)
                    except RecursionError:   # JSON nests deeper than Python recurses
                        raise ValueError("a frame nested too deeply") from None
                    if not isinstance(msg, dict):
                        raise ValueError("a frame that is not a JSON object")
                    return msg
            data, ancillary, flags, _addr = self.sock.recvmsg(
                65536, socket.CMSG_SPACE(MAX_FDS * 4), _RECV_FLAGS)
            for level, kind, payload in ancillary:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    fds = array.array("i")
                    fds.frombytes(payload[:len(payload) - len(payload) % fds.itemsize])
                    self.fds.extend(fds)
            if flags & socket.MSG_CTRUNC:
                raise ValueError(f"more than {MAX_FDS} file descriptors")
            if not data:
                if self.buf:
                    raise ValueError("the connection closed inside a frame")
                return None
            self.buf += data

    def take_fds(self) -> list[int]:
        fds, self.fds = self.fds, []
        return fds


def connect(path: str, wait_s: float = CONNECT_WAIT_S) -> socket.socket:
    """A connection to the broker socket at `path`; OSError when none can be made."""
    deadline = time.monotonic() + wait_s
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            _connect(sock, path)
            return sock
        except FileNotFoundError:
            sock.close()
            if time.monotonic() >= deadline or not os.path.isdir(os.path.dirname(path)):
                raise
            time.sleep(0.01)
        except BaseException:
            sock.close()
            raise


def _connect(sock: socket.socket, path: str) -> None:
    if len(os.fsencode(path)) <= SUN_PATH_MAX:
        sock.connect(path)
        return
    # Too long for sun_path: connect by the name inside its folder (this process is single-
    # threaded, so the working folder may move for a moment).
    here = os.open(".", getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY)
    try:
        os.chdir(os.path.dirname(path))
        sock.connect(os.path.basename(path))
    finally:
        os.fchdir(here)
        os.close(here)


def fail(code: str, message: str, as_json: bool) -> int:
    """The one line an a2a error is (cli/output.py's form), and exit code 1."""
    try:
        if as_json:
            print(json.dumps({"error": {"code": code, "message": message}}), flush=True)
        else:
            print(f"a2a: error: {message} [{code}]", file=sys.stderr, flush=True)
    except OSError:
        pass
    return 1


def _stdio() -> list[int]:
    """Descriptors 0, 1, 2 as the command gets them; a closed one is /dev/null."""
    fds = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
            fds.append(fd)
        except OSError:
            fds.append(os.open(os.devnull, os.O_RDWR))
    return fds


def _open(path: object) -> int | str:
    """A file the broker asked for, opened here with this process's own rights; or why not."""
    if not isinstance(path, str) or "\0" in path:
        return "not a path"
    try:
        return os.open(path, os.O_RDONLY | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        return exc.strerror or str(exc)


def _files(sock: socket.socket, paths: object) -> None:
    answers: list[str | None] = []
    fds: list[int] = []
    for path in paths if isinstance(paths, list) else []:
        got = _open(path)
        if isinstance(got, int):
            fds.append(got)
            answers.append(None)
        else:
            answers.append(got)
    try:
        send(sock, {"files": answers}, fds)
    finally:
        for fd in fds:
            os.close(fd)


class Signals:
    """What the client does with SIGINT, SIGTERM and SIGHUP (module docstring)."""

    def __init__(self) -> None:
        self.sock: socket.socket | None = None
        self.started = False
        self.got: list[int] = []
        for sig in FORWARDED:
            signal.signal(sig, self._on_signal)
        signal.signal(signal.SIGALRM, lambda *_: self.die())

    def _on_signal(self, signum: int, _frame: object) -> None:
        self.got.append(signum)
        if self.sock is None or not self.started or len(self.got) > 1:
            self.die()
        try:
            send(self.sock, {"signal": signum})
        except OSError:
            self.die()
        signal.setitimer(signal.ITIMER_REAL, SIGNAL_GRACE_S)

    def die(self) -> None:
        """End as the last signal would have ended a command run here."""
        sig = self.got[-1] if self.got else signal.SIGTERM
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)   # unreachable unless the signal is blocked


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    as_json = "--json" in argv
    path = os.environ.get(ENV, "")
    if not path:
        return fail("broker_unavailable", f"{ENV} is not set: this a2a talks to a session's"
                    " broker only", as_json)
    signals = Signals()   # before connecting: a connect that waits is ended by a signal too
    try:
        sock = connect(path)
    except OSError as exc:
        return fail("broker_unavailable", f"a2a's orchestrator does not answer on {path}"
                    f" ({exc.strerror or exc}): the user starts it with `a2a up` or"
                    " `a2a serve`", as_json)
    signals.sock = sock
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = ""
    env = {k: os.environ[k] for k in TERMINAL_VARS if k in os.environ}
    reader = Reader(sock)
    try:
        send(sock, {"v": VERSION, "argv": argv, "cwd": cwd, "env": env}, _stdio())
        while True:
            msg = reader.recv()
            if msg is None:
                break
            if msg.get("started") is True:
                signals.started = True
            elif "need" in msg:
                _files(sock, msg["need"])
            elif "exit" in msg:
                err = msg.get("error")
                if isinstance(err, dict):
                    fail(str(err.get("code")), str(err.get("message")), as_json)
                code = msg["exit"]
                return code if isinstance(code, int) and 0 <= code < 256 else 1
    except (OSError, ValueError) as exc:
        return fail("broker_unavailable", f"the broker's connection failed: {exc}", as_json)
    if signals.got:  # the command died of the signal we passed on: so do we
        signals.die()
    return fail("broker_unavailable", "the broker closed the connection before the command"
                " ended", as_json)


if __name__ == "__main__":
    sys.exit(main())
