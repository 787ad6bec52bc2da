"""The orchestrator's guard over its store.

A full disk or a failing one (`store_full`, `store_io`, or a store busy past its timeout) does
not end the orchestrator. It says why once — in its log (the `orchestrator` window), on the
second line of its lock file (where the workbench reads it: a few bytes written into a block the
file already has need no free space) and in the tmux status line of a2a's session — then tries
its cycle again, backing off to every RETRY_S[-1], until the store takes writes again. Then it
records what happened (`store_trouble`: the code, the first message, since when and until when,
how many tries failed), marks `unknown` a delivery that the trouble left between `sending` and
`sent` (as after a crash: never re-sent), and clears what it showed. Nothing it could not record
is dropped: a spool file stays in the spool until its event is committed, and the next try
ingests it.

A store that is no longer the orchestrator's own (its file deleted, moved or replaced:
`Store.same_file`, checked before every cycle and by every write) ends the orchestrator, loudly:
the status line says so, and `a2a serve` exits with the store's code. `FileWatch` wakes it as
soon as the file goes, rather than at the next file landing in the spool.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from a2a_tui import queue
from a2a_tui.dirwatch import DirWatch
from a2a_tui.errors import A2AError
from a2a_tui.panes import calls, recovery
from a2a_tui.payloads.record import StoreTrouble
from a2a_tui.settings import Settings
from a2a_tui.store import trouble
from a2a_tui.store.trouble import PASSING

log = logging.getLogger(__name__)

STORE_OPTION = calls.STORE_OPTION
RETRY_S = (0.25, 0.5, 1.0, 2.0)
NOTE_CHARS = 1000      # the lock file's note stays well inside the block the file has
# inotify(7): the store file renamed away or over, deleted, or made anew.
IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE, IN_DELETE = 0x40, 0x80, 0x100, 0x200


@dataclass
class Trouble:
    """The store refusing writes, since `since_ns`."""

    code: str
    message: str
    since_ns: int
    failures: int = 1

    def when(self) -> str:
        return time.strftime("%H:%M:%S", time.localtime(self.since_ns / 1e9))

    def line(self) -> str:
        """For the workbench's status line and the lock file: what, since when, and why."""
        return f"{self.code} since {self.when()}: {self.message} (retrying)"

    def short(self) -> str:
        """For tmux's status line, which keeps 40 cells by default."""
        return f"{self.code} since {self.when()}, retrying"


class StoreGuard:
    """What the orchestrator does when its store fails it: wait out a full or failing disk,
    show it while it lasts and record it after; say loudly why it stopped on any other."""

    def __init__(self, repo, tmux_socket: str | None, settings: Callable[[], Settings],
                 lock_path: Path):
        self.repo = repo
        self.tmux_socket = tmux_socket
        self.settings = settings
        self.lock_path = lock_path
        self.trouble: Trouble | None = None
        self.text: str | None = None    # what is shown now (a hosting workbench reads it)
        self._tmux = None

    def waits_out(self, exc: BaseException) -> bool:
        """Whether the orchestrator should wait `exc` out (a full or failing disk) rather than
        stop; the first time, it is shown."""
        err = trouble.translate(exc, self.repo.db_path)
        if err is None or err.code not in PASSING:
            return False
        if self.trouble is not None:
            self.trouble.failures += 1
            return True
        self.trouble = Trouble(err.code, err.message, time.time_ns())
        log.warning("a2a: the store takes no writes [%s]: %s; nothing is lost, retrying until"
                    " it does", err.code, err.message)
        self._show(self.trouble.line(), self.trouble.short())
        return True

    def pause_s(self) -> float:
        n = self.trouble.failures if self.trouble is not None else 1
        return RETRY_S[min(n, len(RETRY_S)) - 1]

    def settled(self, store) -> None:
        """After a cycle went through: the trouble recorded, a delivery it cut short marked
        unknown, the display cleared. Raises (and stays in trouble) if the store fails again."""
        t = self.trouble
        if t is None:
            return
        now = time.time_ns()
        with store.write() as tx:
            tx.append("store_trouble", actor="orchestrator",
                      payload=StoreTrouble(code=t.code, message=t.message, since_ns=t.since_ns,
                                           until_ns=now, failures=t.failures))
        recovery.unknown_deliveries(store, why=f"the store took no writes ({t.code}) between"
                                    " sending and sent; never re-sent automatically")
        self.trouble = None
        log.warning("a2a: the store takes writes again (%s since %s, %d tries)", t.code,
                    t.when(), t.failures)
        self._show(None, None)

    def stopped(self, exc: BaseException) -> None:
        """The orchestrator ends on `exc`: when the store is why, say so where the user looks."""
        err = trouble.translate(exc, self.repo.db_path)
        if err is not None and err.code.startswith("store_"):
            self._show(f"the orchestrator stopped: {err.message} [{err.code}]",
                       f"orchestrator stopped: {err.code}")

    def started(self) -> None:
        """A new orchestrator: what an earlier one showed is over."""
        self._show(None, None)

    # --- where it shows ---------------------------------------------------------------------
    def _show(self, text: str | None, short: str | None) -> None:
        self.text = text
        self._note_lock(text)
        self._note_tmux(short)

    def _note_lock(self, text: str | None) -> None:
        data = f"{os.getpid()}" + (f"\n{text[:NOTE_CHARS]}\n" if text else "")
        try:
            fd = os.open(self.lock_path, os.O_WRONLY)
            try:
                # In place, then cut: no new block is asked of a full disk.
                os.pwrite(fd, data.encode("utf-8", "replace"), 0)
                os.ftruncate(fd, len(data.encode("utf-8", "replace")))
            finally:
                os.close(fd)
        except OSError as exc:
            log.warning("could not note the store's trouble in %s: %s", self.lock_path, exc)

    def _note_tmux(self, short: str | None) -> None:
        try:
            if self._tmux is None:
                from a2a_tui.tmux import Tmux  # lazy: only a trouble shows here

                self._tmux = Tmux(self.tmux_socket)
            tmux, session = self._tmux, self.repo.config().tmux_session
            if not tmux.has_session(session):
                return
            if short is None:
                if tmux.session_option(session, STORE_OPTION) is not None:
                    tmux.set_session_option(session, STORE_OPTION, None)
                return
            tmux.set_session_option(session, STORE_OPTION, short)
            if self.settings().status and STORE_OPTION not in (
                    tmux.session_option(session, "status-right") or ""):
                tmux.set_session_option(session, "status-right",
                                        calls.STATUS + tmux.global_option("status-right"))
        except A2AError as err:   # no tmux, the session gone: the log and the lock file say it
            log.warning("could not show the store's trouble in tmux: %s", err.message)


def lock_note(text: str) -> str | None:
    """The trouble an orchestrator noted in its lock file's text (see `StoreGuard`)."""
    _pid, _, note = text.partition("\n")
    return note.strip() or None


class FileWatch:
    """Wakes the orchestrator as soon as its store file is deleted, moved or replaced, so it
    stops then rather than at the next file landing in its spool: inotify on `.a2a/` (nothing
    while nothing happens), else a look at the file every second (`changed`)."""

    def __init__(self, repo, changed: Callable[[], bool], stop: threading.Event):
        self.repo = repo
        self.changed = changed
        self.stop = stop
        self.thread = threading.Thread(target=self._run, name="a2a-store-watch", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def join(self) -> None:
        if self.thread.is_alive():
            self.thread.join(timeout=5)

    def _run(self) -> None:
        name = self.repo.db_path.name
        try:
            dw = DirWatch(self.repo.a2a_dir, IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE,
                          {name})
        except OSError:
            dw = None
        try:
            while not self.stop.is_set():
                hit = dw.wait(1.0) if dw is not None else (not self.stop.wait(1.0)
                                                            and self.changed())
                if hit and not self.stop.is_set():
                    queue.wake(self.repo)
                    if dw is None:
                        return   # told once: the orchestrator stops on it
        except OSError as exc:
            log.warning("the store's file watch ended: %s", exc)
        finally:
            if dw is not None:
                dw.close()
