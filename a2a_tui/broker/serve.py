"""The broker process: a listening socket per live session, a child per request.

The orchestrator starts it (panes/broker_host.py) and tells it, one JSON line per change on a
pipe, which sessions are live (`{"sessions": ["w1", ...]}`): it listens on
`.a2a/broker/<session>/a2a.sock` for each (the folder mode 0700, the socket 0600), and closes
and removes the socket of a session that is no longer in the list. It is single-threaded and
has imported the command line once (`__main__.py`), so forking a child per connection is cheap
and safe; the child runs the request (request.py) and exits. Between requests one child is
forked ahead and warmed up (the spare, below): the next connection is handed to it. The session
of a request is the socket it came in on: the child is told, it never asks.

It is shared by every session, so none can take it from the others: each session has at most
`BrokerLimits.per_session` requests served at once (its other connections wait in its own socket's
backlog, never in another session's way), so the children number at most that many per live
session, and the spare. A child reading its client's stdin does so for a limited time
(request.py).

It ends with the orchestrator: SIGTERM from the kernel when the thread that started it ends
(PR_SET_PDEATHSIG, Linux), the end of file on its pipe, or its parent's pid changing. Its
sockets stay behind when it ends, so an agent's client is refused at once (`broker_unavailable`)
until the next broker binds them again.
"""

from __future__ import annotations

import ctypes
import errno
import io
import json
import os
import select
import shutil
import signal
import socket
import stat
import sys
from collections import Counter
from pathlib import Path

from a2a_tui import host
from a2a_tui.broker import request
from a2a_tui.broker.client import SUN_PATH_MAX, Reader, send
from a2a_tui.errors import A2AError
from a2a_tui.repo import BROKER_SOCKET

PR_SET_PDEATHSIG = 1
CHECK_PARENT_MS = 1000
BACKLOG = 64


class BestEffortLog(io.TextIOBase):
    """The broker's stdout and stderr (its log file, `.a2a/logs/broker.log`): each write goes
    straight to the file, and one the disk has no room for is lost, never the broker. A full
    disk is the orchestrator's to show and wait out (panes/storeguard.py); a broker that died
    of its log would be started again into the same full disk, in a loop."""

    def __init__(self, fd: int):
        self.fd = fd

    def write(self, text: str) -> int:
        try:
            os.write(self.fd, text.encode("utf-8", "replace"))
        except OSError:
            pass
        return len(text)

    def fileno(self) -> int:
        return self.fd

    def writable(self) -> bool:
        return True


class Broker:
    """Serves the sessions the orchestrator names, until it goes away."""

    def __init__(self, served: request.Served, control: int, parent: int):
        self.served = served
        self.control = control
        self.parent = parent
        self.listeners: dict[str, tuple[socket.socket, int]] = {}   # session -> (socket, inode)
        self.by_fd: dict[int, str] = {}
        self.children: dict[int, str | None] = {}   # pid -> its session (None: the spare)
        self.spare: tuple[int, socket.socket] | None = None   # (pid, our end of its pair)
        self.spare_died = False   # one ended without a request: the next waits for a request
        self.stopping = False
        self._pending = b""

    def run(self) -> int:
        """Serve until stopped; the exit code."""
        if not _die_with(self.parent):
            return 0
        wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        signal.set_wakeup_fd(wake_w)
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, self._stop)
        signal.signal(signal.SIGCHLD, lambda *_: None)   # wakes poll(2) to reap
        try:
            while not self.stopping:
                if not self.children and not self.spare_died:
                    self._make_spare()   # between requests: never beside one being served
                self._once(wake_r)
                self._reap()
                if os.getppid() != self.parent:
                    self.stopping = True
        finally:
            self._drop_spare()
            for sock, _ino in self.listeners.values():
                sock.close()   # the files stay: a client is refused at once, never left waiting
        return 0

    def _stop(self, *_: object) -> None:
        self.stopping = True

    def _once(self, wake_r: int) -> None:
        poller = select.poll()
        poller.register(wake_r, select.POLLIN)
        poller.register(self.control, select.POLLIN)
        busy = Counter(self.children.values())
        for fd, sid in self.by_fd.items():
            if busy[sid] < self.served.limits.per_session:   # a session at its cap waits for itself
                poller.register(fd, select.POLLIN)
        for fd, ev in poller.poll(CHECK_PARENT_MS):
            if fd == wake_r:
                while _drain(wake_r):
                    pass
            elif fd == self.control:
                self._read_control(ev)
            elif fd in self.by_fd and not self.stopping:
                self._accept(self.by_fd[fd])

    # --- what the orchestrator says ---------------------------------------------------------
    def _read_control(self, ev: int) -> None:
        try:
            data = os.read(self.control, 65536)
        except BlockingIOError:
            return
        if not data:
            self.stopping = True   # the orchestrator is gone
            return
        self._pending += data
        *lines, self._pending = self._pending.split(b"\n")
        for line in lines:
            try:
                sessions = {s for s in json.loads(line)["sessions"] if isinstance(s, str)}
            except (ValueError, KeyError, TypeError):
                print(f"a2a broker: ignored a control line: {line[:200]!r}", file=sys.stderr)
                continue
            self.sync(sessions)

    def sync(self, sessions: set[str]) -> None:
        """Listen for exactly `sessions`."""
        for sid in sorted(set(self.listeners) - sessions):
            self._unlisten(sid)
        for sid in sorted(sessions - set(self.listeners)):
            try:
                self._listen(sid)
            except (OSError, A2AError) as exc:
                print(f"a2a broker: cannot serve session {sid}: {exc}", file=sys.stderr,
                      flush=True)

    def _listen(self, sid: str) -> None:
        folder = self.served.repo.session_broker_dir(sid)
        folder.mkdir(parents=True, exist_ok=True)
        st = os.lstat(folder)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
            raise OSError(errno.EPERM, f"{folder} is not a folder of a2a's own")
        os.chmod(folder, 0o700)
        path = folder / BROKER_SOCKET
        try:
            os.unlink(path)   # a socket left by the broker before this one
        except FileNotFoundError:
            pass
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            _bind(sock, path)
            os.chmod(path, 0o600)
            sock.listen(BACKLOG)
            sock.setblocking(False)
        except BaseException:
            sock.close()
            raise
        self.listeners[sid] = (sock, os.lstat(path).st_ino)
        self.by_fd[sock.fileno()] = sid

    def _unlisten(self, sid: str) -> None:
        sock, ino = self.listeners.pop(sid)
        self.by_fd.pop(sock.fileno(), None)
        sock.close()
        path = self.served.repo.broker_socket(sid)
        try:
            if os.lstat(path).st_ino == ino:   # ours, not one made there since
                os.unlink(path)
        except FileNotFoundError:
            pass

    # --- requests ----------------------------------------------------------------------------
    def _accept(self, sid: str) -> None:
        sock, _ino = self.listeners[sid]
        try:
            conn, _addr = sock.accept()
        except (BlockingIOError, InterruptedError, ConnectionAbortedError):
            return
        self.spare_died = False   # a spare is tried again after this request
        try:
            if not self._hand_to_spare(conn, sid):
                self._fork_for(conn, sid)
        finally:
            conn.close()

    def _fork_for(self, conn: socket.socket, sid: str) -> None:
        """A child forked now for this one connection (when no spare could take it)."""
        def serve() -> int:
            conn.setblocking(True)
            return request.handle(conn, sid, self.served)

        pid = self._fork(serve, f"for {sid}")
        if pid is not None:
            self.children[pid] = sid

    def _fork(self, work, what: str) -> int | None:
        """Fork a child that runs `work()` and exits with its code (never back into this loop);
        its pid, or None when no process could be forked (said in the log)."""
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            pid = os.fork()
        except OSError as exc:   # no process to spare now: this client is refused, not the next
            print(f"a2a broker: cannot fork {what}: {exc}", file=sys.stderr, flush=True)
            return None
        if pid == 0:
            code = 1
            try:
                self._become_child()
                code = work()
            except BaseException as exc:   # a bug here must not leave the client waiting
                print(f"a2a broker: child {what} failed: {exc!r}", file=sys.__stderr__)
            finally:
                os._exit(code if isinstance(code, int) and 0 <= code < 256 else 1)
        return pid

    # --- the spare: a child forked before its request comes --------------------------------
    # A child's first milliseconds go to the kernel (copying the pages it writes, faulting in
    # the memory it allocates: opening the store, building the parser), not to the request.
    # So one child is forked ahead and does that while nobody waits (request.warm_up); the next
    # connection is handed to it over a socket pair with the session's name. A new spare is
    # forked once no request is being served (a fork beside a request slows it on a busy
    # machine); a connection that finds none gets a child forked for it, as before.
    def _make_spare(self) -> None:
        if self.spare is not None or self.stopping:
            return
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)

        def serve() -> int:
            ours.close()
            return self._serve_as_spare(theirs)

        pid = self._fork(serve, "a spare")
        theirs.close()
        if pid is None:
            ours.close()
            return
        self.children[pid] = None
        self.spare = (pid, ours)

    def _serve_as_spare(self, chan: socket.socket) -> int:
        """In the spare: warm up, wait for one connection and its session, serve it. Ends (0)
        when the broker closes the pair without handing anything over."""
        workdir = request.warm_up(self.served)
        reader = Reader(chan)
        try:
            msg = reader.recv()
        except (OSError, ValueError):
            msg = None
        fds = reader.take_fds()
        chan.close()
        sid = msg.get("session") if isinstance(msg, dict) else None
        if not isinstance(sid, str) or len(fds) != 1:
            for fd in fds:
                os.close(fd)
            shutil.rmtree(workdir, ignore_errors=True)
            return 0
        conn = socket.socket(fileno=fds[0])
        conn.setblocking(True)
        return request.handle(conn, sid, self.served, workdir)

    def _hand_to_spare(self, conn: socket.socket, sid: str) -> bool:
        """Give the connection to the spare; False when there is none to take it."""
        if self.spare is None:
            return False
        pid, chan = self.spare
        self.spare = None
        try:
            send(chan, {"session": sid}, [conn.fileno()])
            self.children[pid] = sid
            return True
        except OSError:   # it died meanwhile: this connection gets a child of its own
            return False
        finally:
            chan.close()

    def _drop_spare(self) -> None:
        if self.spare is not None:
            self.spare[1].close()   # the spare reads the end of file and exits
            self.spare = None

    def _become_child(self) -> None:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)
        for sock, _ino in self.listeners.values():
            sock.close()
        if self.spare is not None:
            self.spare[1].close()
        os.close(self.control)

    def _reap(self) -> None:
        while self.children:
            try:
                pid, _status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                self.children.clear()
                return
            if pid == 0:
                return
            self.children.pop(pid, None)
            if self.spare is not None and self.spare[0] == pid:
                # Ended before any request (killed, or its warm-up failed): not forked again
                # until a request comes, so a spare that cannot start is not a fork loop.
                self._drop_spare()
                self.spare_died = True


def _bind(sock: socket.socket, path: Path) -> None:
    if len(os.fsencode(path)) <= SUN_PATH_MAX:
        sock.bind(str(path))
        return
    # Too long for sun_path: bind by the name inside its folder (single-threaded: the working
    # folder may move for a moment).
    here = os.getcwd()
    try:
        os.chdir(path.parent)
        sock.bind(path.name)
    finally:
        os.chdir(here)


def _drain(fd: int) -> bool:
    try:
        return bool(os.read(fd, 4096))
    except BlockingIOError:
        return False


def _die_with(parent: int) -> bool:
    """Be sent SIGTERM when the thread that started this process ends (Linux); False when the
    parent is already gone."""
    if host.linux():
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    return os.getppid() == parent
