"""Know when a pane's process dies: a pidfd per pane process on Linux, a liveness check elsewhere.

tmux's `pane-died` hook is not enough on its own: with `remain-on-exit on`, tmux 3.3a skips it
for about half of the processes killed with SIGKILL (measured: 9 of 20). On Linux a pidfd
becomes readable exactly when the process exits — a fact from the kernel, not from the screen —
and costs nothing while it waits. Where there are no pidfds (macOS, a kernel before 5.3,
`A2A_PLATFORM=darwin`: see `host.py`) the same thread asks psutil every `POLL_S` whether each
watched process still runs with its recorded start time: at most that late, and a few
system calls per pane per tick. Either way the watcher writes the same spool envelope the hook
script writes, into the session's own spool folder, so ingestion stays the one place that
records signals (a second `exited` is ignored there). An exit that cannot be written (a full
disk) is kept and written again every RETRY_S until it can: the orchestrator records it once
space returns.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import select
import threading
import time
from pathlib import Path

from a2a_tui import host
from a2a_tui.confine import limits
from a2a_tui.identity import process_alive

POLL_S = 0.5   # how often the portable watcher looks at the watched processes
RETRY_S = 1.0  # how often an exit that could not be written is tried again
log = logging.getLogger(__name__)


class ExitWatcher:
    """One thread that learns of the watched pane processes' exits: blocked in poll(2) on their
    pidfds (Linux), or looking every `POLL_S` seconds (elsewhere)."""

    def __init__(self, spool_dir: Path):
        self.spool_dir = spool_dir   # the spool's top: each session's folder is below it
        self.pidfds = host.linux() and hasattr(os, "pidfd_open")
        self._lock = threading.Lock()
        # key (a pidfd; the session id without pidfds) -> (session, pane, pid, start)
        self._watched: dict[int | str, tuple[str, str | None, int, int | None]] = {}
        self._by_session: dict[str, int | str] = {}
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
            for key in self._watched:
                if isinstance(key, int):
                    os.close(key)
            self._watched.clear()
        os.close(self._wake_r)
        os.close(self._wake_w)

    def watch(self, sessions: list[tuple[str, str | None, int, int | None]]) -> None:
        """Watch (session, pane, pid, pid start time) for every live pane not yet watched."""
        added = False
        for sid, pane, pid, start in sessions:
            if sid in self._by_session:
                continue
            key = self._open(sid, pid)
            # Checked after the pidfd is open: a pidfd then names the process that was alive
            # here, and the pid names another process if the start time differs (ours is gone).
            if key is None or not process_alive(pid, start):
                if isinstance(key, int):
                    os.close(key)
                self._report(sid, pane, pid)
                self._by_session[sid] = -1
                continue
            with self._lock:
                self._watched[key] = (sid, pane, pid, start)
            self._by_session[sid] = key
            added = True
        if added:
            os.write(self._wake_w, b"x")

    def _open(self, sid: str, pid: int) -> int | str | None:
        if not self.pidfds:
            return sid
        try:
            return os.pidfd_open(pid)
        except ProcessLookupError:
            return None
        except OSError as exc:
            if exc.errno != errno.ENOSYS or self._watched:
                raise
            self.pidfds = False  # a kernel without pidfds (before 5.3): look instead
            return sid

    def _run(self) -> None:
        unwritten: list[tuple[str, str | None, int]] = []
        while not self._stop:
            if self.pidfds:
                gone = self._wait_pidfds(RETRY_S if unwritten else None)
            else:
                gone = self._look()
            for key in gone:
                with self._lock:
                    sid, pane, pid, _start = self._watched.pop(key)
                if isinstance(key, int):
                    os.close(key)
                unwritten.append((sid, pane, pid))
            unwritten = self._report_all(unwritten)

    def _report_all(self, exits: list[tuple[str, str | None, int]]
                    ) -> list[tuple[str, str | None, int]]:
        """Write each exit into the spool; those that cannot be written yet are returned."""
        left = []
        for sid, pane, pid in exits:
            try:
                self._report(sid, pane, pid)
            except OSError as exc:   # a full disk: kept, tried again, never dropped
                log.warning("the exit of %s (pid %d) waits to be written: %s", sid, pid, exc)
                left.append((sid, pane, pid))
        return left

    def _wait_pidfds(self, timeout_s: float | None = None) -> list[int | str]:
        poller = select.poll()
        poller.register(self._wake_r, select.POLLIN)
        with self._lock:
            fds = list(self._watched)
        for fd in fds:
            poller.register(fd, select.POLLIN)
        gone: list[int | str] = []
        for fd, _ev in poller.poll(None if timeout_s is None else timeout_s * 1000):
            if fd == self._wake_r:
                os.read(self._wake_r, 64)
            else:
                gone.append(fd)
        return gone

    def _look(self) -> list[int | str]:
        ready, _, _ = select.select([self._wake_r], [], [], POLL_S)
        if ready:
            os.read(self._wake_r, 64)
        with self._lock:
            watched = list(self._watched.items())
        return [key for key, (_sid, _pane, pid, start) in watched
                if not process_alive(pid, start)]

    def _report(self, sid: str, pane: str | None, pid: int) -> None:
        ts = time.time_ns()
        doc = {"v": 1, "ts_ns": ts, "session": sid, "pane": pane or "", "source": "process",
               "payload": {"hook_event_name": "process-exited", "pid": pid}}
        name = f"{ts}-{sid}-exit{pid}"
        folder = self.spool_dir / sid
        tmp = folder / f".{name}.tmp"
        try:
            folder.mkdir(exist_ok=True)
            tmp.write_text(json.dumps(doc) + "\n")
            os.replace(tmp, folder / f"{name}.json")
        finally:
            tmp.unlink(missing_ok=True)


GROUP_RETRY_S = 60.0  # a group still holding a process this long after its session exited:
GROUP_RETRY_EVERY_NS = 500_000_000  # left to the sweep (`limits.make`); tried this often till then


def free_groups(store, done: dict[int, float | None], now_ns: int) -> int | None:
    """Remove the limits groups (cgroups) of the sessions that exited: their launch records name
    them (`confinement.limits.folders`). The kernel refuses a group that still holds a process
    (the sandbox's own end a moment after the pane's, or an orphan the pane left): it is tried
    again until empty, for GROUP_RETRY_S, then left to the sweep. `done`: per launch (by seq), when
    its groups were first tried (None: removed, or given up). Returns when to try again (ns),
    None when no group waits."""
    rows = store.all(
        "SELECT s.launch_seq AS seq, json_extract(e.payload, '$.confinement.limits.folders') AS f"
        " FROM sessions s JOIN events e ON e.seq = s.launch_seq WHERE s.state = 'exited'")
    now, again = time.monotonic(), False
    for r in rows:
        first = done.setdefault(r["seq"], now)
        if first is None:
            continue
        left = limits.free(json.loads(r["f"])) if r["f"] else []
        if left and now - first < GROUP_RETRY_S:
            again = True
        else:
            done[r["seq"]] = None
    return now_ns + GROUP_RETRY_EVERY_NS if again else None
