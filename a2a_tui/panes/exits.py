"""Know at once when a pane's process dies: a pidfd per pane process, polled in one thread.

tmux's `pane-died` hook is not enough on its own: with `remain-on-exit on`, tmux 3.3a skips it
for about half of the processes killed with SIGKILL (measured: 9 of 20). A pidfd becomes
readable exactly when the process exits — a fact from the kernel, not from the screen — and
costs nothing while it waits. The watcher writes the same spool envelope the hook script writes,
so ingestion stays the one place that records signals (a second `exited` is ignored there).
"""

from __future__ import annotations

import json
import os
import select
import threading
import time
from pathlib import Path

from a2a_tui.identity import proc_stat


class ExitWatcher:
    """One thread blocked in poll(2) on the pidfds of the live panes' processes."""

    def __init__(self, spool_dir: Path):
        self.spool_dir = spool_dir
        self._lock = threading.Lock()
        self._watched: dict[int, tuple[str, str | None, int]] = {}  # fd -> (session, pane, pid)
        self._by_session: dict[str, int] = {}
        self._wake_r, self._wake_w = os.pipe()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="a2a-exit-watcher", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop = True
        os.write(self._wake_w, b"x")
        self._thread.join(timeout=5)
        with self._lock:
            for fd in self._watched:
                os.close(fd)
            self._watched.clear()
        os.close(self._wake_r)
        os.close(self._wake_w)

    def watch(self, sessions: list[tuple[str, str | None, int, int | None]]) -> None:
        """Watch (session, pane, pid, pid start time) for every live pane not yet watched."""
        added = False
        for sid, pane, pid, start in sessions:
            if sid in self._by_session:
                continue
            try:
                fd = os.pidfd_open(pid)
            except ProcessLookupError:
                self._report(sid, pane, pid)
                self._by_session[sid] = -1
                continue
            st = proc_stat(pid)
            if st is None or (start is not None and st[2] != start):
                os.close(fd)  # the pid now names another process: ours is gone
                self._report(sid, pane, pid)
                self._by_session[sid] = -1
                continue
            with self._lock:
                self._watched[fd] = (sid, pane, pid)
            self._by_session[sid] = fd
            added = True
        if added:
            os.write(self._wake_w, b"x")

    def _run(self) -> None:
        while not self._stop:
            poller = select.poll()
            poller.register(self._wake_r, select.POLLIN)
            with self._lock:
                fds = list(self._watched)
            for fd in fds:
                poller.register(fd, select.POLLIN)
            for fd, _ev in poller.poll():
                if fd == self._wake_r:
                    os.read(self._wake_r, 64)
                    continue
                with self._lock:
                    sid, pane, pid = self._watched.pop(fd)
                os.close(fd)
                self._report(sid, pane, pid)

    def _report(self, sid: str, pane: str | None, pid: int) -> None:
        ts = time.time_ns()
        doc = {"v": 1, "ts_ns": ts, "session": sid, "pane": pane or "", "source": "process",
               "payload": {"hook_event_name": "process-exited", "pid": pid}}
        name = f"{ts}-{sid}-exit{pid}"
        tmp = self.spool_dir / f".{name}.tmp"
        tmp.write_text(json.dumps(doc) + "\n")
        os.replace(tmp, self.spool_dir / f"{name}.json")
