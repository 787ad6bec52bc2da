"""One request, in the broker's child process: who asks, what it may run, then the command.

The child was forked for one connection on one session's socket (serve.py). In order:

1. the request: argv, a few terminal variables, and the client's stdin, stdout and stderr as
   descriptors (client.py has the wire); the client is told the request is taken. The
   client's working folder is not used: the command runs in a private empty folder of the
   request, so no relative name resolves to anything the agent chose. The command's stdin is
   read for `BrokerLimits.stdin_s` at most (`broker_stdin_timeout`): a child waiting on a pipe that
   never ends holds one of its session's few places (serve.py);
2. who: the session of the socket, nothing the process says. Second check: the kernel's
   credentials of the process at the other end (SO_PEERCRED, its pid translated into a2a's PID
   namespace) must be a2a's uid and a process of that session's pane (identity.in_session); a
   mismatch is refused and recorded (`broker_peer_mismatch`);
3. the command, by `a2a_tui.cli.run` with the repository and the caller forced, after
   `Call.admit`: the allow-list, `--repo` and `--tmux-socket`, and the files an agent names
   fetched through the client (commands.py says why);
4. the exit code back to the client. A signal the client passes on is raised here, so the
   command is interrupted as if it had got it (`a2a verify` stops its checks and records
   `verify_interrupted`); a client that goes away is a hang-up (SIGHUP).
"""

from __future__ import annotations

import io
import os
import queue
import select
import shutil
import signal
import socket
import stat
import struct
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from a2a_tui import cli, identity
from a2a_tui.broker import commands
from a2a_tui.broker.client import FORWARDED, TERMINAL_VARS, VERSION, Reader, send
from a2a_tui.cli.output import emit_error
from a2a_tui.errors import A2AError
from a2a_tui.payloads.boundary import BrokerPeerMismatch, BrokerRefused
from a2a_tui.repo import Repo
from a2a_tui.resources import BrokerLimits

REQUEST_TIMEOUT_S = 10     # a client that connects and says nothing
FILE_TIMEOUT_S = 60        # a client asked for a file (opening a FIFO can wait for a writer)
PANE_WAIT_S = 5            # a session just launched: its pane's facts are recorded a moment later
MAX_ARGS = 4096
MAX_ARGV_BYTES = 1024 * 1024
MAX_FILE_BYTES = 8 * 1024 * 1024   # above every command's own limit: those still apply


@dataclass(frozen=True)
class Served:
    """What every request of one broker shares."""

    repo: Repo
    tmux_socket: str | None
    paths: dict          # command function -> its words (commands.command_paths)
    limits: BrokerLimits = BrokerLimits()   # requests per session, the stdin time limit


def warm_up(served: Served) -> Path:
    """What every request does first, done by the broker's spare child before its request
    comes (serve.py): the pages this writes are copied, and the memory it allocates faulted in,
    while nobody waits. Returns the request's private folder, made now; nothing else is kept
    for the request (it opens its own store)."""
    try:
        served.repo.store().close()
    except A2AError:
        pass   # the request meets it again and says why
    cli.build_parser()
    return Path(tempfile.mkdtemp(prefix="a2a-broker-"))


def handle(conn: socket.socket, session: str, served: Served, workdir: Path | None = None
           ) -> int:
    """Serve one connection on `session`'s socket; the command's exit code. `workdir`: the
    request's private folder when made already (warm_up), removed here all the same."""
    reader = Reader(conn)
    conn.settimeout(REQUEST_TIMEOUT_S)
    try:
        msg = reader.recv()
    except (OSError, ValueError):
        msg = None
    fds = reader.take_fds()
    argv, env, why = _request(msg, fds)
    if why is not None:
        for fd in fds:
            os.close(fd)
        if workdir is not None:
            shutil.rmtree(workdir, ignore_errors=True)
        return _answer(conn, 2, {"code": "broker_bad_request", "message": why})
    conn.settimeout(None)
    try:
        send(conn, {"started": True})   # from now on a signal is passed on, not the end
    except OSError:
        pass   # gone already: the channel sees it and hangs the command up
    own = _take_stdio(fds, served.limits.stdin_s)
    for key in TERMINAL_VARS:
        os.environ.pop(key, None)
    os.environ.update(env)
    workdir = workdir or Path(tempfile.mkdtemp(prefix="a2a-broker-"))
    os.chdir(workdir)
    channel = Channel(conn, reader)
    try:
        code = _run(argv, session, served, channel, workdir)
    finally:
        channel.done = True
        os.chdir("/")
        shutil.rmtree(workdir, ignore_errors=True)
        _give_back_stdio(own)
    return _answer(conn, code)


def _run(argv: list[str], session: str, served: Served, channel: Channel, workdir: Path
         ) -> int:
    try:
        store = served.repo.store()
    except A2AError as err:
        return emit_error(err, "--json" in argv)
    try:
        caller = identify(store, session, peer(channel.conn))
    except A2AError as err:
        store.close()
        return emit_error(err, "--json" in argv)
    channel.start()
    call = Call(served, caller, channel, workdir, store)   # the command closes the store
    try:
        return cli.run(argv, forced=call)
    except SystemExit as exc:   # --help and --version end by SystemExit
        return exc.code if isinstance(exc.code, int) else 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass


def _request(msg: dict | None, fds: list[int]) -> tuple[list[str], dict[str, str], str | None]:
    """(argv, terminal variables, None) from a well-formed request; else why it is not one."""
    if msg is None:
        return [], {}, "no request"
    argv, env = msg.get("argv"), msg.get("env") or {}
    if msg.get("v") != VERSION:
        return [], {}, f"protocol version {msg.get('v')!r}, this broker speaks {VERSION}"
    if len(fds) != 3:
        return [], {}, f"{len(fds)} descriptors with the request (stdin, stdout, stderr: 3)"
    if (not isinstance(argv, list) or len(argv) > MAX_ARGS
            or not all(isinstance(a, str) for a in argv)
            or sum(len(a) for a in argv) > MAX_ARGV_BYTES):
        return [], {}, f"argv is not a list of at most {MAX_ARGS} strings"
    if not isinstance(env, dict):
        return [], {}, "env is not an object"
    env = {k: v for k, v in env.items() if k in TERMINAL_VARS and isinstance(v, str)
           and len(v) < 256 and "\0" not in v}
    return argv, env, None


def _take_stdio(fds: list[int], stdin_s: float) -> list[int]:
    """The client's descriptors become this process's 0, 1, 2 and Python's streams on them
    (stdin read for `stdin_s` at most); returns copies of the broker's own 0, 1, 2 (its log),
    for `_give_back_stdio`."""
    own = [os.dup(n) for n in range(3)]
    streams = (sys.stdin, sys.stdout, sys.stderr)
    for n, fd in enumerate(fds):
        os.dup2(fd, n)
        os.close(fd)
    new = []
    for n, old in enumerate(streams):
        tty = os.isatty(n)
        buffered = (io.BufferedReader(TimedInput(n, stdin_s)) if n == 0 else
                    io.BufferedWriter(io.open(n, "wb", buffering=0, closefd=False)))
        new.append(io.TextIOWrapper(buffered, encoding=old.encoding, errors=old.errors,
                                    line_buffering=tty or n == 2))
    sys.stdin, sys.stdout, sys.stderr = new
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = new
    return own


class TimedInput(io.RawIOBase):
    """The command's stdin: reads that together wait at most `seconds`, counted from the
    first (a command that never reads its stdin is not limited), then `broker_stdin_timeout`."""

    def __init__(self, fd: int, seconds: float):
        self.fd, self.seconds = fd, seconds
        self.deadline: float | None = None

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def readinto(self, buf) -> int:
        if self.deadline is None:
            self.deadline = time.monotonic() + self.seconds
        poller = select.poll()
        poller.register(self.fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        while True:
            left = self.deadline - time.monotonic()
            if left <= 0 or not poller.poll(left * 1000):
                raise A2AError("broker_stdin_timeout", f"the command's standard input did not"
                               f" end within {self.seconds:g} s: a brokered command reads"
                               " what is piped to it at once (write it to a file first)")
            try:
                data = os.read(self.fd, len(buf))
            except BlockingIOError:   # a descriptor the caller made non-blocking
                continue
            buf[:len(data)] = data
            return len(data)


def _give_back_stdio(own: list[int]) -> None:
    """The command has ended: the client's descriptors are closed here before the answer, so
    whoever reads its output to the end (`$(a2a ...)`, a pipe) has it when the client exits,
    not when this process has finished exiting. What this process says from now on goes to the
    broker's log."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    for n, fd in enumerate(own):
        os.dup2(fd, n)
        os.close(fd)


def _answer(conn: socket.socket, code: int, error: dict | None = None) -> int:
    try:
        send(conn, {"exit": code, **({"error": error} if error else {})})
    except OSError:
        pass
    return code


def peer(conn: socket.socket) -> tuple[int, int]:
    """(pid, uid) of the process at the other end, from the kernel (Linux: SO_PEERCRED, the pid
    in this process's PID namespace; macOS: LOCAL_PEERPID and LOCAL_PEERCRED)."""
    if hasattr(socket, "SO_PEERCRED"):
        pid, uid, _gid = struct.unpack("3i", conn.getsockopt(
            socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
        return pid, uid
    sol_local, local_peercred, local_peerpid = 0, 1, 2   # <sys/un.h>
    (pid,) = struct.unpack("i", conn.getsockopt(sol_local, local_peerpid, 4))
    (uid,) = struct.unpack_from("I", conn.getsockopt(sol_local, local_peercred, 76), 4)
    return pid, uid


def identify(store, session: str, who: tuple[int, int]) -> identity.Caller:
    """The caller: `session`, when the process at the other end is a process of its pane."""
    pid, uid = who
    row = store.one("SELECT role, state, pane_pid FROM sessions WHERE id = ?", (session,))
    if row is None or row["state"] == "exited":
        raise A2AError("broker_refused", f"session {session} has "
                       f"{'exited' if row else 'no record'}: its socket serves no one")
    deadline = time.monotonic() + PANE_WAIT_S
    while row["pane_pid"] is None and time.monotonic() < deadline:
        time.sleep(0.02)   # launched a moment ago: spawn records the pane right after
        row = store.one("SELECT role, state, pane_pid FROM sessions WHERE id = ?",
                        (session,))
    why = None if uid == os.getuid() else f"its uid is {uid}, not a2a's ({os.getuid()})"
    if why is None and identity.in_session(store, session, pid) is None:
        if identity.proc_stat(pid, terminal=False) is None:
            raise A2AError("broker_peer_mismatch", "the calling process is gone")
        why = f"pid {pid} is not a process of session {session}'s pane"
    if why is not None:
        with store.write() as tx:
            tx.append("broker_peer_mismatch", actor="orchestrator", session=session,
                      payload=BrokerPeerMismatch(pid=pid, uid=uid, why=why))
        raise A2AError("broker_peer_mismatch", f"refused on session {session}'s socket:"
                       f" {why}")
    return identity.Caller(session=session, role=row["role"], via="broker")


class Channel:
    """The connection while the command runs: a thread reads what the client sends (signals to
    raise here, the files it was asked for); the command's thread writes."""

    def __init__(self, conn: socket.socket, reader: Reader):
        self.conn, self.reader = conn, reader
        self.replies: queue.Queue = queue.Queue()
        self.done = False

    def start(self) -> None:
        threading.Thread(target=self._read, name="a2a-broker-client", daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                msg = self.reader.recv()
            except (OSError, ValueError):
                msg = None
            if msg is None:
                if not self.done:   # the client is gone: a hang-up, as a terminal's
                    signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGHUP)
                self.replies.put(None)
                return
            if "files" in msg:
                self.replies.put((msg["files"], self.reader.take_fds()))
            elif msg.get("signal") in FORWARDED and not self.done:
                # To the command's thread: a read or wait it is blocked in is interrupted.
                signal.pthread_kill(threading.main_thread().ident or 0, msg["signal"])

    def files(self, paths: list[str]) -> tuple[list, list[int]]:
        """Ask the client to open `paths`: (its answer per path, the descriptors it sent)."""
        send(self.conn, {"need": paths})
        try:
            got = self.replies.get(timeout=FILE_TIMEOUT_S)
        except queue.Empty:
            got = None
        if got is None or not isinstance(got[0], list) or len(got[0]) != len(paths):
            raise A2AError("broker_file", "the client sent no answer for the files asked")
        return got


class Call:
    """A command run for a session through its broker socket (cli.context.Forced)."""

    def __init__(self, served: Served, caller: identity.Caller, channel: Channel,
                 workdir: Path, store):
        self.repo = served.repo
        self.caller = caller
        self.store = store
        self.served = served
        self.channel = channel
        self.workdir = workdir

    def admit(self, ctx) -> None:
        args = ctx.args
        words = self.served.paths.get(args.func)
        why = commands.refusal(words, args)
        if why is None and "repo" in vars(args):
            why = "--repo: a session reaches its own repository only"
        socket_name = getattr(args, "tmux_socket", None)
        if why is None and socket_name not in (None, self.served.tmux_socket):
            why = (f"--tmux-socket {socket_name}: a session's panes go on the orchestrator's"
                   f" tmux server ({self.served.tmux_socket or 'the default one'})")
        if why is not None:
            with ctx.store.write() as tx:
                tx.append("broker_refused", actor=self.caller.actor, session=self.caller.session,
                          payload=BrokerRefused(command=words, why=why))
            raise A2AError("broker_refused", f"`a2a {words or args.command}` through the"
                           f" broker: {why}")
        dest = commands.FILE_ARGS.get(words or "")
        if dest and getattr(args, dest, None) is not None:
            named = getattr(args, dest)
            setattr(args, dest, type(named)(self._fetch(str(named))))

    def _fetch(self, path: str) -> str:
        """The bytes of the file the agent named, read by its client, as a file of the request's
        own folder; returns its name there (the command runs in that folder)."""
        answers, fds = self.channel.files([path])
        try:
            if answers[0] is not None or not fds:
                raise A2AError("broker_file", f"{path}: {answers[0] or 'not sent'}", exit_code=2)
            data = _read(fds[0], path)
        finally:
            for fd in fds:
                os.close(fd)
        name = os.path.basename(path.rstrip("/")) or "file"
        name = "file" if name in (".", "..") else name
        fd = os.open(self.workdir / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        return name


def _read(fd: int, path: str) -> bytes:
    mode = os.fstat(fd).st_mode
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):
        raise A2AError("broker_file", f"{path}: not a file", exit_code=2)
    chunks, size = [], 0
    while size <= MAX_FILE_BYTES:
        chunk = os.read(fd, 1024 * 1024)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    raise A2AError("broker_file", f"{path}: more than {MAX_FILE_BYTES} bytes", exit_code=2)
