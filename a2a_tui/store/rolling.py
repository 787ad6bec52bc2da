"""a2a's own backups of a store: a copy exists before it is needed.

Each is taken through SQLite's online backup API (https://sqlite.org/backup.html): the database
as one read transaction sees it, its write-ahead log included, while writers go on (in WAL mode
a reader blocks no writer). The copy is written beside its target in rollback-journal mode,
checked whole by SQLite's full integrity check (the copy holds the store's pages as they are: a
damaged page of the store shows in it), synced, and only then renamed into place: a backup in
`.a2a/backups/` is whole and was sound when taken. Its name says when it was taken and the last
event it holds (store/pages.py reads them back: `a2a store restore` picks the newest good one).

When: before every migration (store/migrate.py: the store as it was, before its schema moves),
and on a schedule while an orchestrator runs (`Schedule`, every `[backup] every_min` of the
user's settings, the first as soon as the newest is that old). `keep` of them stay; the oldest
go. Each scheduled one is recorded (`store_backed_up`) in the store it copies.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.payloads.record import StoreBackedUp
from a2a_tui.store import pages, trouble
from a2a_tui.store.pages import Kept

BACKUP_NICE = 10   # the schedule's thread runs at this nice value (bench/bench_store_pages.py)


def copy(conn: sqlite3.Connection, source: Path, target: Path, *, full: bool = True) -> None:
    """Copy the database open on `conn` (the store at `source`) to the new file `target`, as it
    is at one moment; checked (`full`: SQLite's integrity check, else its quick one) before it
    is renamed into place. A damaged copy is `store_corrupt` of the store itself."""
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _remove(tmp)
        dest = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.backup(dest)
            dest.execute("PRAGMA journal_mode = DELETE")   # one file, whole on its own
            found = pages.damage(dest, full=full)
        finally:
            dest.close()
        if found is not None:
            raise pages.corrupt(source, found)
        sync(tmp)
        os.replace(tmp, target)
        sync(target.parent)
    except sqlite3.Error as exc:
        raise (trouble.from_sqlite(exc, target)
               or A2AError("backup_failed", f"cannot back up to {target}: {exc}")) from exc
    except OSError as exc:
        raise (trouble.from_os(exc, target)
               or A2AError("backup_failed", f"cannot back up to {target}: {exc}")) from exc
    finally:
        _remove(tmp)


def take(conn: sqlite3.Connection, db: Path, *, keep: int | None = None) -> Kept:
    """A rolling backup of the store at `db` (open on `conn`) into `.a2a/backups/`; then only
    the `keep` newest stay (None: none is removed). Returns the new one."""
    now = time.time()
    tmp = pages.backups_dir(db) / f".taking-{os.getpid()}-{threading.get_ident()}.db"
    copy(conn, db, tmp)
    try:
        last = _last_seq(tmp)
        target = pages.backups_dir(db) / pages.backup_name(now, last)
        os.replace(tmp, target)
    finally:
        _remove(tmp)
    if keep is not None:
        prune(db, keep)
    return next(k for k in pages.kept(db) if k.path == target)


def prune(db: Path, keep: int) -> list[Path]:
    """Remove all but the `keep` newest rolling backups of the store at `db`; what went."""
    gone = [k.path for k in pages.kept(db)[max(keep, 1):]]
    for path in gone:
        _remove(path)
    return gone


def due(db: Path, every_s: float, now: float | None = None) -> float:
    """Seconds until the next scheduled backup of the store at `db` (0: now)."""
    newest = next(iter(pages.kept(db)), None)
    if newest is None:
        return 0.0
    return max(0.0, newest.taken_s + every_s - (time.time() if now is None else now))


class Schedule:
    """The orchestrator's backups: a thread that takes one when it falls due and records it.

    `open_store` opens the store for this thread (a connection of its own: the backup reads
    while the orchestrator writes); `settings` gives `[backup]` as it is now; `failed` is told a
    failure (a damaged store stops the orchestrator; any other is logged and tried again at the
    next due time)."""

    def __init__(self, db: Path, open_store: Callable[[], Any], settings: Callable[[], Any],
                 failed: Callable[[BaseException], None], stop: threading.Event):
        self.db = db
        self._open = open_store
        self._settings = settings
        self._failed = failed
        self._stop = stop
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="a2a-backups", daemon=True)
        self._thread.start()

    def join(self) -> None:
        if self._thread is not None:
            self._thread.join(timeout=30)

    def _run(self) -> None:
        try:   # Linux: this thread alone yields the CPU to the orchestrator's (its signals)
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), BACKUP_NICE)
        except OSError:
            pass
        while not self._stop.is_set():
            every_s = self._settings().every_min * 60
            wait = due(self.db, every_s) if every_s > 0 else 60.0   # off: look again later
            if wait > 0:
                self._stop.wait(min(wait, 60))
                continue
            try:
                with self._open() as store:
                    record(store, "schedule", keep=self._settings().keep)
            except A2AError as exc:
                self._failed(exc)
                if exc.code == "store_corrupt":
                    return
                self._stop.wait(min(every_s, 60))


def record(store: Any, why: str, *, keep: int | None) -> Kept:
    """Take a rolling backup of `store` (an open Store) and record it as `store_backed_up`."""
    t0 = time.monotonic()
    kept = take(store.conn, store.path, keep=keep)
    seconds = round(time.monotonic() - t0, 3)
    with store.write() as tx:
        tx.append("store_backed_up", actor="a2a",
                  payload=StoreBackedUp(path=str(kept.path), taken=kept.taken + "Z",
                                        last_seq=kept.last_seq, why=why, seconds=seconds,
                                        bytes=kept.path.stat().st_size, keep=keep))
    return kept


def _last_seq(path: Path) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0])
    except sqlite3.Error:
        return 0   # a store before its first event (a migration's backup of a new file)
    finally:
        conn.close()


def _remove(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def sync(path: Path) -> None:
    """fsync a file, or a folder (its entries: a rename into it)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
