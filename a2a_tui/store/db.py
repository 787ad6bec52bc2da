"""SQLite access: WAL, synchronous=FULL, explicit BEGIN IMMEDIATE for every read-modify-write.

The connection runs in autocommit mode (`isolation_level=None`) so that Python's sqlite3 never
opens a DEFERRED transaction behind our back; `Store.write()` is the only way to change data.
Opening a store applies the schema migrations it lacks (`a2a_tui.store.migrate`).
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, Protocol
from urllib.parse import quote

from a2a_tui import ids
from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads import Payload, stored_json
from a2a_tui.store import chain, migrate, pages, trouble
from a2a_tui.store.trouble import StoreCode

BUSY_TIMEOUT_MS = 15_000


@dataclass(frozen=True)
class Event:
    """One row of the event log."""

    seq: int
    ts_ns: int
    kind: str
    actor: str
    task: str | None
    attempt: str | None
    session: str | None
    payload: dict[str, Any]

    def to_json(self) -> JsonObject:
        return {
            "seq": self.seq, "ts_ns": self.ts_ns, "kind": self.kind, "actor": self.actor,
            "task": self.task, "attempt": self.attempt, "session": self.session,
            "payload": self.payload,
        }

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Event:
        return cls(row["seq"], row["ts_ns"], row["kind"], row["actor"], row["task"],
                   row["attempt"], row["session"], json.loads(row["payload"]))


def dumps(obj: Any) -> str:
    """JSON as stored: compact, keys sorted, unicode kept."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


class Tx:
    """An open write transaction. Everything done through it commits or rolls back together."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        self.appended = 0   # events appended in this transaction (chain.keep_up)

    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    def one(self, sql: str, params: Any = ()) -> sqlite3.Row | None:
        return self.conn.execute(sql, params).fetchone()

    def all(self, sql: str, params: Any = ()) -> list[sqlite3.Row]:
        return self.conn.execute(sql, params).fetchall()

    def append(
        self,
        kind: str,
        *,
        actor: str,
        task: str | None = None,
        attempt: str | None = None,
        session: str | None = None,
        payload: Payload | dict[str, Any] | None = None,
        ts_ns: int | None = None,
    ) -> int:
        """Append one event, chained to the one before (store/chain.py); returns its sequence
        number. The write lock this transaction holds makes `last + 1` the next seq. A kind
        with a payload type (a2a_tui/payloads) takes that type and nothing else: a PayloadError
        before anything is written."""
        text = dumps(stored_json(kind, payload))
        last, prev = chain.tip(self.conn)
        seq, ts = last + 1, ts_ns or time.time_ns()
        self.conn.execute(
            "INSERT INTO events(seq, ts_ns, kind, actor, task, attempt, session, payload, hash)"
            " VALUES (?,?,?,?,?,?,?,?,?)",
            (seq, ts, kind, actor, task, attempt, session, text,
             chain.link(prev, seq, ts, kind, actor, task, attempt, session, text)),
        )
        self.appended += 1
        return seq

    def next_counter(self, name: str) -> int:
        """Bump and return a named counter (U, Q, F, dispatch, ...)."""
        row = self.conn.execute(
            "INSERT INTO counters(name, value) VALUES (?, 1)"
            " ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value",
            (name,),
        ).fetchone()
        return int(row[0])


class Owner(Protocol):
    """The repository's side of an open store (store/owner.py): told when it has written."""

    def committed(self, store: Store) -> None: ...
    def closing(self, store: Store) -> None: ...


class Store:
    """One connection to `<repo>/.a2a/a2a.db`. Not shared across threads: open one per thread.

    `create=False` opens only a file that exists (a repository's store is made by `a2a init`
    alone: store/owner.py); `admit` is called once the file is open and before anything is
    written to it (a migration, the chain's checkpoint), to refuse a store that is not the
    caller's. Every write first checks that the file at `path` is still the one this connection
    has open: SQLite would go on writing into a file that was deleted, renamed or replaced, and
    its write-ahead log would then pair with another database ("How To Corrupt An SQLite
    Database File", https://sqlite.org/howtocorrupt.html)."""

    def __init__(self, path: Path | str, *, create: bool = True,
                 admit: Callable[[Store], None] | None = None):
        self.path = Path(path)
        self.owner: Owner | None = None
        self.wrote = False
        self._closed = False
        if not self.path.parent.is_dir():
            raise A2AError("not_initialized", f"no a2a store at {self.path} (run `a2a init`)")
        if not create and not self.path.exists():
            raise A2AError(StoreCode.MISSING, f"no a2a store at {self.path}")
        uri = "file:" + quote(str(self.path)) + ("" if create else "?mode=rw")
        try:
            self.conn = sqlite3.connect(uri, uri=True, isolation_level=None,
                                        timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
        except sqlite3.Error as exc:
            raise self._failed(exc, "cannot open") from exc
        try:
            self._setup()
            self.file = _file_id(self.path)
            # Before anything is written to it: a damaged page is refused here (store/pages.py).
            pages.check_if_changed(self.conn, self.path)
            if admit is not None:
                admit(self)
            migrate.upgrade(self)
            # The events since the last checked one: a break is kept here for the gate to act
            # on (gate/ledger/); reads go on.
            self.chain_break: chain.Break | None = chain.check_from_checkpoint(self)
        except BaseException as exc:
            self.conn.close()
            if isinstance(exc, sqlite3.Error):
                raise self._failed(exc, "cannot open") from exc
            if isinstance(exc, OSError) and (err := trouble.from_os(exc, self.path)):
                raise err from exc
            raise

    def _setup(self) -> None:
        self.conn.row_factory = sqlite3.Row
        self.conn.create_collation("natural_ids", ids.collate)  # T-2 before T-16
        self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        # Switching to WAL writes the file's header (and a full disk fails it: store_full).
        mode = self.conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode.lower() != "wal":
            raise A2AError("store_unavailable", f"{self.path}: cannot switch to WAL (got {mode})")
        self.conn.execute("PRAGMA synchronous = FULL")
        self.conn.execute("PRAGMA foreign_keys = ON")

    def _failed(self, exc: sqlite3.Error, doing: str = "cannot use") -> A2AError:
        return (trouble.from_sqlite(exc, self.path)
                or A2AError("store_unavailable", f"{doing} {self.path}: {exc}"))

    def _reraise(self, exc: sqlite3.Error) -> NoReturn:
        """A failed read raises the store trouble it stands for, else itself."""
        err = trouble.from_sqlite(exc, self.path)
        if err is None:
            raise exc
        raise err from exc

    def same_file(self) -> None:
        """Refuse, before anything is written, when the file at `path` is no longer the one
        this connection has open: `store_missing` (deleted or moved away), `store_replaced`."""
        try:
            now = _file_id(self.path)
        except FileNotFoundError:
            raise A2AError(StoreCode.MISSING, f"the store {self.path} was deleted or moved away"
                           " while this process had it open: nothing more is written to"
                           " it") from None
        except OSError as exc:
            raise (trouble.from_os(exc, self.path) or trouble.io(self.path, str(exc))) from exc
        if now != self.file:
            raise A2AError(StoreCode.REPLACED, f"the store {self.path} was replaced by another"
                           " file while this process had it open: nothing more is written to"
                           " either")

    @property
    def schema_version(self) -> int:
        """The number of the last migration applied (see `a2a_tui.store.migrate`)."""
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        """Note the last event for the repository and close; a second close does nothing (the
        store may be gone by then: `a2a down` of a demo removes it in between)."""
        if self._closed:
            return
        self._closed = True
        try:
            if self.owner is not None and self.wrote:
                self.owner.closing(self)
        finally:
            self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def write(self) -> Iterator[Tx]:
        """A write transaction taken with BEGIN IMMEDIATE: no lock upgrade races, no deadlocks.
        A full disk or an I/O error rolls it back whole and raises `store_full` / `store_io`.

        Never run git, tmux or a check while inside this block.
        """
        self.same_file()
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise (trouble.from_sqlite(exc, self.path)
                   or A2AError("store_busy", f"store is busy: {exc}")) from exc
        tx = Tx(self.conn)
        try:
            yield tx
            if tx.appended:
                chain.keep_up(self.conn, tx.appended)
        except BaseException as exc:
            # SQLite may have rolled back already (a full disk, an I/O error): then there is
            # nothing to end, and a failing ROLLBACK must not hide the error that caused it.
            if self.conn.in_transaction:
                try:
                    self.conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            if isinstance(exc, sqlite3.Error) and (err := trouble.from_sqlite(exc, self.path)):
                raise err from exc
            raise
        try:
            self.conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            raise self._failed(exc, "cannot commit to") from exc
        self.wrote = True
        if self.owner is not None:
            self.owner.committed(self)

    def _rollback(self) -> None:
        """End the open transaction, if SQLite has not (as write() does on an error)."""
        if self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    @contextmanager
    def snapshot(self) -> Iterator[Tx]:
        """A read transaction: every query inside sees one consistent state."""
        try:
            self.conn.execute("BEGIN")
            try:
                yield Tx(self.conn)
            finally:
                self._rollback()
        except sqlite3.Error as exc:
            self._reraise(exc)

    # Reads outside a transaction (each statement is its own snapshot).
    def one(self, sql: str, params: Any = ()) -> sqlite3.Row | None:
        try:
            return self.conn.execute(sql, params).fetchone()
        except sqlite3.Error as exc:
            self._reraise(exc)

    def all(self, sql: str, params: Any = ()) -> list[sqlite3.Row]:
        try:
            return self.conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            self._reraise(exc)

    def last_seq(self) -> int:
        row = self.one("SELECT COALESCE(MAX(seq), 0) FROM events")
        return int(row[0])

    def events(
        self,
        *,
        after: int = 0,
        limit: int | None = None,
        kinds: list[str] | None = None,
        task: str | None = None,
        attempt: str | None = None,
        session: str | None = None,
        newest_first: bool = False,
    ) -> list[Event]:
        """Events in sequence order, filtered."""
        where, params = ["seq > ?"], [after]
        if kinds:
            where.append(f"kind IN ({','.join('?' * len(kinds))})")
            params.extend(kinds)
        for col, val in (("task", task), ("attempt", attempt), ("session", session)):
            if val is not None:
                where.append(f"{col} = ?")
                params.append(val)
        sql = f"SELECT * FROM events WHERE {' AND '.join(where)} ORDER BY seq"
        if newest_first:
            sql += " DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [Event.from_row(r) for r in self.all(sql, params)]


def _file_id(path: Path) -> tuple[int, int]:
    """What tells one file from another at the same path (a rename or a copy over it: another
    inode)."""
    st = os.stat(path)
    return st.st_dev, st.st_ino

