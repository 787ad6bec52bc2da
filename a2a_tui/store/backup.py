"""A store's backup, and a backup put back in its place.

`backup`: SQLite's online backup API (https://sqlite.org/backup.html) copies the database as one
read transaction sees it, its write-ahead log included, while writers go on (in WAL mode a
reader blocks no writer): safe while `a2a serve` runs. The copy is made beside its target in
rollback-journal mode and renamed into place once whole and synced: one file, whole on its own
(a copied `a2a.db` without its `-wal` is not: https://sqlite.org/howtocorrupt.html).

`inspect` and `put_in_place`, for `a2a store restore` (cli/store_cmds.py, which checks the
caller and holds the orchestrator's lock): a backup is read without writing to it and checked
whole (SQLite's quick check, every link of the hash chain); it is copied in beside the store
and renamed over it; the store it replaces, with its log, is moved aside into
`.a2a/replaced/<when>/`, never deleted.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.store import chain, pages, rolling, trouble
from a2a_tui.store.db import Store
from a2a_tui.store.owner import DB_SUFFIXES, Identity, identity_of, remove_files

REPLACED_DIR = "replaced"


@dataclass(frozen=True)
class BackupInfo:
    """What a backup holds."""

    path: str
    store_id: str | None
    root: str | None
    events: int
    last_seq: int

    @property
    def identity(self) -> Identity:
        return Identity(self.store_id, self.root)

    def to_json(self) -> JsonObject:
        return asdict(self)


def backup(store: Store, target: Path) -> BackupInfo:
    """Copy the store, as it is at one moment, to `target` (a new file: never over one)."""
    target = target.absolute()
    if any(Path(f"{target}{suffix}").exists() for suffix in DB_SUFFIXES):
        raise A2AError("backup_exists", f"{target} exists: a backup is written only to a new"
                       " file")
    rolling.copy(store.conn, store.path, target, full=False)
    conn = sqlite3.connect(f"file:{quote(str(target))}?mode=ro", uri=True)
    try:
        return _describe(conn, target)
    finally:
        conn.close()


def inspect(source: Path) -> tuple[BackupInfo, sqlite3.Connection]:
    """Open a backup read-only and check it whole; (what it holds, its connection)."""
    source = source.absolute()
    if not source.is_file():
        raise A2AError("backup_unreadable", f"{source} is not a file")
    try:
        conn = sqlite3.connect(f"file:{quote(str(source))}?mode=ro", uri=True,
                               isolation_level=None)
    except sqlite3.Error as exc:
        raise A2AError("backup_unreadable", f"cannot open {source}: {exc}") from exc
    try:
        _quick_check(conn, source)
        info = _describe(conn, source)
        brk = chain.check(conn)
        if brk is not None:
            raise A2AError("chain_broken", f"{source}: {brk.why}: this backup's record was"
                           " changed outside a2a; not restored")
        return info, conn
    except sqlite3.Error as exc:
        conn.close()
        raise A2AError("backup_unreadable", f"{source} is not an a2a store ({exc})") from exc
    except BaseException:
        conn.close()
        raise


def put_in_place(source: sqlite3.Connection, db_path: Path) -> Path | None:
    """Copy the backup in beside the store and rename it over; the store it replaces (with its
    log) moves to `.a2a/replaced/<when>/`. Returns where the old database went (None: there was
    none). A failure before the rename leaves everything as it was."""
    tmp = db_path.with_name(f".{db_path.name}.restoring")
    moved: list[tuple[Path, Path]] = []
    try:
        remove_files(tmp)
        dest = sqlite3.connect(tmp, isolation_level=None)
        try:
            source.backup(dest)
            dest.execute("PRAGMA journal_mode = DELETE")
        finally:
            dest.close()
        rolling.sync(tmp)
        old = [Path(f"{db_path}{suffix}") for suffix in DB_SUFFIXES]
        aside = db_path.parent / REPLACED_DIR / time.strftime("%Y%m%dT%H%M%S")
        if any(p.exists() for p in old):
            aside.mkdir(parents=True, exist_ok=True)
        for p in old:
            if p.exists():
                os.replace(p, aside / p.name)
                moved.append((aside / p.name, p))
        os.replace(tmp, db_path)
        rolling.sync(db_path.parent)
    except (OSError, sqlite3.Error) as exc:
        for there, back in reversed(moved):   # put the old store back as it was
            os.replace(there, back)
        err = (trouble.from_os(exc, db_path) if isinstance(exc, OSError)
               else trouble.from_sqlite(exc, db_path))
        raise (err or A2AError("restore_failed", f"cannot restore {db_path}: {exc}")) from exc
    finally:
        remove_files(tmp)
    return next((there for there, back in moved if back == db_path), None)


class Reader:
    """A read-only connection with the two reads `identity.resolve_caller` asks of a store
    (whoever restores is judged against the backup's record when the store itself is gone)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        conn.row_factory = sqlite3.Row

    def one(self, sql: str, params: Any = ()) -> Any:
        return self.conn.execute(sql, params).fetchone()

    def all(self, sql: str, params: Any = ()) -> list[Any]:
        return self.conn.execute(sql, params).fetchall()


def _describe(conn: sqlite3.Connection, path: Path) -> BackupInfo:
    ident = identity_of(conn)
    count, last = conn.execute("SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM events").fetchone()
    return BackupInfo(str(path), ident.store_id, ident.root, int(count), int(last))


def _quick_check(conn: sqlite3.Connection, path: Path) -> None:
    found = pages.damage(conn)
    if found is not None:
        raise A2AError(trouble.StoreCode.CORRUPT, f"{path} is damaged: {found}; not restored")
