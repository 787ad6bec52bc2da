"""The orchestrator's broker: started with it, told which sessions are live, restarted if it dies,
stopped with it.

The broker (a2a_tui/broker) is a process of its own because it forks a child per request and
the orchestrator is multi-threaded: a fork there would copy every thread's locks mid-use. It is
started from a thread of this class that lives as long as the orchestrator, because Linux sends
PR_SET_PDEATHSIG when the *thread* that forked a process ends (a workbench worker that started
the orchestrator may end long before it). The live sessions reach it as one JSON line per
change on a pipe whose other end only this process holds: its end of file tells the broker the
orchestrator is gone, however it went.

What the broker's life gives to record (`broker_exited`) is kept here and recorded by the
orchestrator's cycle (`record`), which goes through its store guard like every write of the
orchestrator: on a full disk the records wait, shown and retried with the rest, and are written
once the store takes writes again (panes/storeguard.py). Nothing is dropped, and a broker that
dies meanwhile is started again on its own schedule, not in a loop of failed records.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
import time

from a2a_tui import queue
from a2a_tui.payloads import Payload
from a2a_tui.payloads.boundary import BrokerExited

log = logging.getLogger(__name__)

RESTART_AFTER_S = (0.2, 1.0, 5.0, 30.0)   # a broker that keeps dying is started less often
STEADY_S = 60                              # one that lived this long starts the count again


class BrokerHost:
    """The broker process of one orchestrator."""

    def __init__(self, repo, tmux_socket: str | None):
        self.repo = repo
        self.tmux_socket = tmux_socket
        self.pid: int | None = None
        self._sessions: frozenset[str] | None = None
        self._write: int | None = None
        self._proc: subprocess.Popen | None = None
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._unrecorded: list[tuple[str, Payload]] = []   # for the orchestrator's cycle (record)
        self._thread = threading.Thread(target=self._supervise, name="a2a-broker-host",
                                        daemon=True)

    def start(self) -> None:
        self._thread.start()

    def serve(self, sessions: set[str]) -> None:
        """Serve exactly these sessions (a socket each); a no-op when nothing changed."""
        sessions = frozenset(sessions)
        with self._lock:
            if sessions == self._sessions:
                return
            self._sessions = sessions
            self._tell()

    def stop(self) -> None:
        """Stop the broker and wait for it (its sockets stay: clients are refused at once)."""
        self._stopping.set()
        with self._lock:
            proc = self._proc
            if self._write is not None:
                os.close(self._write)   # end of file: the broker stops
                self._write = None
        if proc is not None and proc.poll() is None:
            proc.terminate()
        self._thread.join(timeout=10)

    # --- the supervising thread --------------------------------------------------------------
    def _supervise(self) -> None:
        failures = 0
        while not self._stopping.is_set():
            began = time.monotonic()
            try:
                code = self._run_once()
            except OSError as exc:
                log.error("cannot start the broker: %s", exc)
                code = None
            if self._stopping.is_set():
                return
            failures = 1 if time.monotonic() - began > STEADY_S else failures + 1
            log.error("the broker ended (exit %s); starting it again", code)
            self._keep("broker_exited", BrokerExited(code=code, restarts=failures,
                                                     ended_ns=time.time_ns()))
            self._stopping.wait(RESTART_AFTER_S[min(failures, len(RESTART_AFTER_S)) - 1])

    def _run_once(self) -> int | None:
        read, write = os.pipe()
        logs = self.repo.a2a_dir / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        argv = [sys.executable, "-m", "a2a_tui.broker", "--repo", str(self.repo.root),
                "--control", str(read), "--parent", str(os.getpid()),
                *(["--tmux-socket", self.tmux_socket] if self.tmux_socket else [])]
        try:
            with open(logs / "broker.log", "ab") as out:
                proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                        pass_fds=(read,), cwd=self.repo.root,
                                        start_new_session=True)
        finally:
            os.close(read)
        with self._lock:
            if self._stopping.is_set():
                os.close(write)
                proc.terminate()
            else:
                self._proc, self._write, self.pid = proc, write, proc.pid
                self._tell()
        code = proc.wait()
        with self._lock:
            if self._write == write:
                os.close(write)
                self._write = None
            self._proc = None
        return code

    def _tell(self) -> None:
        """Send the live sessions to the running broker (under the lock)."""
        if self._write is None or self._sessions is None:
            return
        line = json.dumps({"sessions": sorted(self._sessions)}).encode() + b"\n"
        try:
            os.write(self._write, line)
        except OSError as exc:   # it died: the supervisor starts another and tells it then
            log.warning("the broker did not take the sessions: %s", exc)

    # --- its records --------------------------------------------------------------------------
    def record(self, store) -> None:
        """Record what the broker's life left to record, in one transaction (the
        orchestrator's cycle calls this). A store that refuses the write raises, for the
        store guard to wait out; the records stay kept until they commit."""
        with self._lock:
            kept = list(self._unrecorded)
        if not kept:
            return
        with store.write() as tx:
            for kind, payload in kept:
                tx.append(kind, actor="orchestrator", payload=payload)
        with self._lock:
            del self._unrecorded[:len(kept)]

    def _keep(self, kind: str, payload: Payload) -> None:
        with self._lock:
            self._unrecorded.append((kind, payload))
        try:
            queue.wake(self.repo)   # a cycle records it now
        except OSError as exc:   # a full disk: the guard's retries, or the next cycle, record it
            log.warning("could not wake the orchestrator to record %s: %s", kind, exc)
