"""The orchestrator: one per repository. Ingests the spool, keeps pane states, delivers the queue.

`a2a serve` runs it headless; the TUI hosts the same object. One thread does everything in
order (ingest every waiting file, then deliver to every ready pane), so a signal is never judged
against a delivery half-recorded. It sleeps (inotify, `dirwatch.py`; watchfiles where inotify is
unavailable) until a file lands in the spool: hook signals in each session's own folder (a new
folder is watched as it appears), the wake files that `a2a inject/pause/resume/release` drop
after committing, and its own wake when a hint falls due.

It also runs the broker (`broker_host.py`, a2a_tui/broker), the only way a session reaches a2a:
a socket per session that has not exited, made as a session's spool folder appears at its
launch and removed when the session exits.
"""

from __future__ import annotations

import fcntl
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from watchfiles import watch

from a2a_tui import queue
from a2a_tui import settings as user_settings
from a2a_tui.collab.rulefiles import flag_pending
from a2a_tui.dirwatch import DirWatch
from a2a_tui.errors import A2AError
from a2a_tui.panes import confirm, cycle, hints, recovery, spool, stalls, turns
from a2a_tui.panes.broker_host import BrokerHost
from a2a_tui.panes.calls import Calls
from a2a_tui.panes.exits import ExitWatcher, free_groups
from a2a_tui.panes.storeguard import FileWatch, StoreGuard
from a2a_tui.payloads import house
from a2a_tui.store import pages, rolling
from a2a_tui.tmux import Tmux

log = logging.getLogger(__name__)

LOCK_NAME = "orchestrator.lock"
# The fallback where inotify is unavailable: watchfiles polls its change set every `step` ms
# while waiting (a few ms of latency, ~1.5 % of a core when idle). `debounce` caps how long a
# burst is gathered before it is handled.
WATCH_STEP_MS = 5
WATCH_DEBOUNCE_MS = 30
WATCH_TIMEOUT_MS = 60_000


def lock_holder(repo) -> int | None:
    """The pid of the orchestrator serving `repo`, or None when none runs."""
    return lock_state(repo)[0]


def lock_state(repo) -> tuple[int | None, str]:
    """(the pid of the orchestrator serving `repo` or None, what its lock file says beside it:
    a store it cannot write, panes/storeguard.py)."""
    path = repo.locks_dir / LOCK_NAME
    if not path.exists():
        return None, ""
    with open(path, "a+") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            text = f.read()
            first = text.split("\n", 1)[0].strip()
            return (int(first) if first.isdigit() else -1), text
        fcntl.flock(f, fcntl.LOCK_UN)
        return None, ""


def stop_running(repo, timeout_s: float = 15.0) -> int | None:
    """Ask the orchestrator serving `repo` to stop (SIGTERM: it records its stop and releases
    its lock) and wait until it has; returns its pid, or None when none ran."""
    pid = lock_holder(repo)
    if pid is None:
        return None
    if pid <= 0 or pid == os.getpid():
        raise A2AError("orchestrator_not_stopped", f"the orchestrator of {repo.root} runs in"
                       " this process or names no pid: stop it where it runs")
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    deadline = time.monotonic() + timeout_s
    while lock_holder(repo) is not None:
        if time.monotonic() > deadline:
            raise A2AError("orchestrator_not_stopped", f"the orchestrator (pid {pid}) still runs"
                           f" {timeout_s:g} s after SIGTERM")
        time.sleep(0.05)
    return pid


def take_lock(repo, then: str):
    """The repository's orchestrator lock, held through the returned open file (for an
    orchestrator, or for what no orchestrator may run beside: a store restore); refused with
    `orchestrator_running` (`then`: what the user does about it) while another holds it."""
    repo.locks_dir.mkdir(parents=True, exist_ok=True)
    f = open(repo.locks_dir / LOCK_NAME, "a+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.seek(0)
        holder = f.read().split("\n", 1)[0].strip() or "?"
        f.close()
        raise A2AError("orchestrator_running", f"an orchestrator already serves {repo.root}"
                       f" (pid {holder}); {then}") from None
    return f


class Orchestrator:
    """Ingestion and delivery for one repository and one tmux server."""

    def __init__(self, repo, tmux_socket: str | None = None,
                 sweeps: tuple[Callable[[Any, int], int | None], ...] = (),
                 observers: tuple[Callable[[Any, str], Any], ...] = ()):
        self.repo = repo
        self.tmux_socket = tmux_socket
        # Looks of other areas taken each cycle (store, now) -> when to look again (ns): the
        # gate's leases (gate/attempts/leases.py), handed in by whoever starts the orchestrator.
        self.sweeps = sweeps
        # What sees each signal in its transaction (tx, session): the gate's record of model
        # behaviour (gate/attempts/behaviour.py).
        self.observers = observers
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock_file = None
        self.error: BaseException | None = None
        self.exits: ExitWatcher | None = None
        self._hint_timer: threading.Timer | None = None   # wakes a cycle when a hint falls due
        self._hint_due: int | None = None
        self._freed: dict[int, float | None] = {}   # exited launches' limits groups tried
        self.settings = user_settings.of_repo(repo)  # a bad file: refused at start
        self._settings_seen = self._settings_stamp()
        self.calls: Calls | None = None
        self.broker: BrokerHost | None = None
        self.guard = StoreGuard(repo, tmux_socket, lambda: self.settings,
                                repo.locks_dir / LOCK_NAME)
        self._file_watch: FileWatch | None = None
        self.backups: rolling.Schedule | None = None

    # --- life cycle ---------------------------------------------------------------------
    def start(self) -> None:
        """Take the per-repository lock, settle what a crash left, catch up on the spool, and
        start the worker thread. Raises `orchestrator_running` if another one holds the lock."""
        self._take_lock()
        try:
            self.tmux = Tmux(self.tmux_socket)
            self.store = self.repo.store()
            pages.check(self.store.conn, self.store.path)   # the writer's open: always looked at
            self.repo.spool_dir.mkdir(parents=True, exist_ok=True)
            self.repo.broker_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            with self.store.write() as tx:
                tx.append("orchestrator_started", actor="orchestrator",
                          payload=house.OrchestratorStarted(
                              pid=os.getpid(), tmux_socket=self.tmux_socket))
            recovery.unknown_deliveries(self.store)
            recovery.reconcile_panes(self.store, self.tmux.panes(), self.tmux_socket)
            self.guard.started()
            self._file_watch = FileWatch(self.repo, self._file_changed, self._stop)
            self._file_watch.start()
            self.exits = ExitWatcher(self.repo.spool_dir)
            self.exits.start()
            self.broker = BrokerHost(self.repo, self.tmux_socket)
            self.broker.start()
            self._cycle()
            self.calls = Calls(self.repo, self.tmux, lambda: self.settings)
            self.calls.start()
            self.backups = rolling.Schedule(self.repo.db_path, self.repo.store,
                                            lambda: self.settings.backup, self._backup_failed,
                                            self._stop)
            self.backups.start()
        except BaseException:
            self._stop.set()   # the store's file watch, if it started
            if self.exits is not None:
                self.exits.stop()
                self.exits = None
            if self.broker is not None:
                self.broker.stop()
                self.broker = None
            self._release_lock()
            raise
        self._thread = threading.Thread(target=self._run, name="a2a-orchestrator", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the worker thread (after the file it is on) and release the lock."""
        self._stop.set()
        if self._hint_timer is not None:
            self._hint_timer.cancel()
        if self._thread is not None:
            queue.wake(self.repo)  # wakes the watcher at once
            self._thread.join(timeout=10)
        if self.exits is not None:
            self.exits.stop()
            self.exits = None
        if self.calls is not None:
            self.calls.stop()
            self.calls = None
        broker, self.broker = self.broker, None
        if broker is not None:
            broker.stop()
        if self._file_watch is not None:
            self._file_watch.join()
        if self.backups is not None:
            self.backups.join()
        corrupt = isinstance(self.error, A2AError) and self.error.code == "store_corrupt"
        if getattr(self, "store", None) is not None and corrupt:   # nothing written to it
            self.store.close()
            self.store = None
        if getattr(self, "store", None) is not None:
            try:
                if broker is not None:
                    broker.record(self.store)   # what its life left unrecorded
                with self.store.write() as tx:
                    tx.append("orchestrator_stopped", actor="orchestrator",
                              payload=house.OrchestratorStopped(pid=os.getpid(), error=repr(
                                  self.error) if self.error else None))
            except A2AError as err:   # a store it cannot write, or no longer its own
                log.warning("a2a: the orchestrator's stop is not recorded: %s [%s]",
                            err.message, err.code)
            self.store.close()
            self.store = None
        self._release_lock()

    def run_forever(self, started: Callable[[], None] | None = None) -> None:
        """`a2a serve`: start, then (`started` told once it holds the lock) run until
        SIGINT/SIGTERM/SIGHUP (its tmux window or session closed) or the worker fails."""
        done = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, lambda *_: done.set())
        self.start()
        try:
            if started is not None:
                started()
            while not done.wait(0.5):
                if self._thread is not None and not self._thread.is_alive():
                    break
        finally:
            self.stop()
        if isinstance(self.error, A2AError) and self.error.code.startswith("store_"):
            raise self.error   # its store is gone or not its own: that code, not a failure's
        if self.error is not None:
            raise A2AError("orchestrator_failed", f"the orchestrator stopped: {self.error!r}")

    def _backup_failed(self, exc: BaseException) -> None:
        """A scheduled backup failed: a damaged store stops the orchestrator (nothing more is
        written to it); anything else is tried again when the next one falls due."""
        if isinstance(exc, A2AError) and exc.code == "store_corrupt":
            self.error = exc
            self._stop.set()
            queue.wake(self.repo)
        else:
            log.warning("a2a: a scheduled backup of the store failed: %s", exc)

    def poke(self) -> None:
        """Ask for a cycle now (the TUI calls this after changing the queue in-process)."""
        queue.wake(self.repo)

    # --- the worker -------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            for folders in self._landings():
                if self._stop.is_set():
                    return
                self._stored_cycle(folders)
        except BaseException as exc:  # recorded by stop(); serve exits non-zero with it
            if not (isinstance(exc, A2AError) and exc.code.startswith("store_")):
                log.exception("orchestrator worker failed")
            self.error = exc
            self.guard.stopped(exc)

    def _stored_cycle(self, folders: set[Path] | None = None) -> None:
        """A cycle on a store that is still this orchestrator's; a full or failing disk is
        waited out (shown, retried, recorded once it passes: panes/storeguard.py), anything
        else about the store ends the worker."""
        while True:
            try:
                self.store.same_file()
                self._cycle(folders)
                self.guard.settled(self.store)
                return
            except Exception as exc:
                if not self.guard.waits_out(exc):
                    raise
            if self._stop.wait(self.guard.pause_s()):
                return
            folders = None   # what landed while it waited, in any folder

    def _file_changed(self) -> bool:
        try:
            self.store.same_file()
        except A2AError:
            return True
        return False

    def _landings(self) -> Iterator[set[Path] | None]:
        """Once per batch of files landing in the spool, with the session folders they landed in
        (a new folder included; None: look in every folder), and once a minute regardless, as
        a safety net that looks everywhere: inotify where it can be set up (no CPU while idle),
        else watchfiles."""
        top = self.repo.spool_dir
        try:
            dw = DirWatch(top, folders=True)
        except OSError as exc:
            log.warning("inotify unavailable (%s): watching the spool with watchfiles", exc)
            yield None
            for changes in watch(top, watch_filter=_visible, recursive=True,
                                 step=WATCH_STEP_MS, debounce=WATCH_DEBOUNCE_MS,
                                 rust_timeout=WATCH_TIMEOUT_MS, yield_on_timeout=True,
                                 raise_interrupt=False):
                yield _folders_of(top, [Path(p) for _c, p in changes]) if changes else None
            return
        try:
            self._watch_folders(dw, None)
            yield None  # what landed before the watch was set up, in any folder
            while not self._stop.is_set():
                landed = dw.wait(WATCH_TIMEOUT_MS / 1000)
                changed = dw.take_changed() if landed else None
                self._watch_folders(dw, changed)   # before the cycle looks in them
                yield changed
        finally:
            dw.close()

    def _watch_folders(self, dw: DirWatch, changed: set[Path] | None) -> None:
        """Add the session spool folders not watched yet to the watch: the new ones among
        `changed`, or every one (None)."""
        top = self.repo.spool_dir
        watched = dw.watched
        new = (spool.session_folders(top) if changed is None
               else [p for p in changed if p not in watched and p.parent == top
                     and p.name != spool.QUARANTINE])
        for folder in new:
            if folder not in watched and folder.is_dir() and not folder.is_symlink():
                try:
                    dw.add(folder)
                except OSError as exc:   # gone again, or not ours to watch: the next cycle
                    log.warning("cannot watch %s: %s", folder, exc)

    def _cycle(self, folders: set[Path] | None = None) -> None:
        """Ingest every waiting spool file in order (of the spool's top, and of the session
        folders in `folders`; of every one when None), then deliver to every ready pane."""
        top = self.repo.spool_dir
        if self.broker is not None:
            self.broker.record(self.store)   # on a full disk: waited out with the rest
        while True:
            result = cycle.ingest_and_deliver(self.store, self.tmux, self.tmux_socket, top,
                                              folders, observers=self.observers)
            if result.failed:
                recovery.reconcile_panes(self.store, self.tmux.panes(), self.tmux_socket)
            # Deliveries and the files that landed meanwhile may make more work: loop until quiet.
            # A failed paste is not retried here (its pane is re-checked above); the next file is.
            # A file landing elsewhere meanwhile is in the watch's next batch.
            if not result.sent and not spool.pending(top, folders):
                self._watch_exits(result.due_ns)
                return

    def _watch_exits(self, delivery_due: int | None = None) -> None:
        """Hand every live pane process on this tmux server to the exit watcher (new ones only),
        point out panes whose expected signal has not come (`hints.py`) or that have been busy
        and silent too long (`stalls.py`), remind and stop turns past their limits (`turns.py`),
        and settle deliveries no prompt signal confirmed (`confirm.py`: another Enter, or
        `unknown`). `delivery_due`: when a pane left to settle after its launch may take its
        first paste."""
        self._reload_settings()
        now = time.time_ns()
        dues = [d for d in (delivery_due, hints.silent_starts(self.store, self.tmux_socket, now),
                            confirm.unconfirmed(self.store, self.tmux, self.tmux_socket, now),
                            stalls.silent_panes(self.store, self.tmux_socket, now,
                                                self.settings.stall_for),
                            turns.limit_turns(self.store, self.tmux, self.tmux_socket, now,
                                              self.settings.stall_for),
                            free_groups(self.store, self._freed, now),
                            *(look(self.store, now) for look in self.sweeps))
                if d is not None]
        self._look_again_at(min(dues) if dues else None)
        rows = self.store.all(
            "SELECT id, pane_id, pane_pid, pane_pid_start FROM sessions WHERE state != 'exited'"
            " AND pane_pid IS NOT NULL AND tmux_socket IS ?", (self.tmux_socket,))
        self.exits.watch([(r["id"], r["pane_id"], r["pane_pid"], r["pane_pid_start"])
                          for r in rows])
        # A socket for every session that has not exited (one launching included: its agent
        # may call a2a before its pane's facts are recorded).
        self.broker.serve({r["id"] for r in self.store.all(
            "SELECT id FROM sessions WHERE state != 'exited'")})

    def _look_again_at(self, due_ns: int | None) -> None:
        """One timer, for the earliest instant a hint or a prompt's wait may fall due (a wake
        file then); none when nothing waits — a prompt confirmed in time costs no extra cycle."""
        t = self._hint_timer
        if t is not None and t.is_alive() and self._hint_due == due_ns:
            return
        if t is not None:
            t.cancel()
            self._hint_timer = None
        if due_ns is None or self._stop.is_set():
            return
        t = threading.Timer((due_ns - time.time_ns()) / 1e9 + 0.05, queue.wake, [self.repo])
        t.daemon = True
        t.start()
        self._hint_timer, self._hint_due = t, due_ns

    # --- the user's settings ----------------------------------------------------------------
    def _settings_stamp(self) -> tuple:
        # The repository's file counts once the user accepts it (an event, not the file).
        paths = (user_settings.user_config_path(), self.repo.config_path)
        return (*(p.stat().st_mtime_ns if p.exists() else None for p in paths),
                self.repo.rule_file("config.toml").accepted_seq)

    def _reload_settings(self) -> None:
        """Take an edited settings file in; a bad edit keeps the settings in force (recorded,
        never fatal: the file is outside input)."""
        stamp = self._settings_stamp()
        if stamp == self._settings_seen:
            return
        self._settings_seen = stamp
        flag_pending(self.repo, self.store)   # an edit nobody accepted: on the board, once
        try:
            self.settings = user_settings.of_repo(self.repo)
        except A2AError as err:
            with self.store.write() as tx:
                tx.append("settings_refused", actor="orchestrator",
                          payload=house.SettingsRefused(code=err.code, message=err.message))
            return
        with self.store.write() as tx:
            tx.append("settings_loaded", actor="orchestrator",
                      payload=house.SettingsLoaded(files=self.settings.files))

    # --- the lock ------------------------------------------------------------------------------
    def _take_lock(self) -> None:
        f = take_lock(self.repo, "stop it first")
        f.seek(0)
        f.truncate()
        f.write(str(os.getpid()))
        f.flush()
        self._lock_file = f

    def _release_lock(self) -> None:
        if self._lock_file is not None:
            self._lock_file.close()
            self._lock_file = None


def _folders_of(top: Path, paths: list[Path]) -> set[Path]:
    """The session folders that changed paths lie in (or are), for watchfiles' changes."""
    out = set()
    for p in paths:
        if p.parent == top and p.is_dir():
            out.add(p)
        elif p.parent.parent == top:
            out.add(p.parent)
    return out


def _visible(_change, path: str) -> bool:
    p = Path(path)   # a file of the spool's top, or of a session's folder; not a quarantined one
    return not p.name.startswith(".") and spool.QUARANTINE not in (p.parent.name,
                                                                   p.parent.parent.name)

