"""SQLite access: WAL, synchronous=FULL, explicit BEGIN IMMEDIATE for every read-modify-write.

The connection runs in autocommit mode (`isolation_level=None`) so that Python's sqlite3 never
opens a DEFERRED transaction behind our back; `Store.write()` is the only way to change data.
Opening a store applies the schema migrations it lacks (`a2a_tui.store.migrate`).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a2a_tui import ids
from a2a_tui.errors import A2AError
from a2a_tui.store import chain, migrate

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

    def to_json(self) -> dict[str, Any]:
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
        payload: dict[str, Any] | None = None,
        ts_ns: int | None = None,
    ) -> int:
        """Append one event, chained to the one before (store/chain.py); returns its sequence
        number. The write lock this transaction holds makes `last + 1` the next seq."""
        last, prev = chain.tip(self.conn)
        seq, ts, text = last + 1, ts_ns or time.time_ns(), dumps(payload or {})
        self.conn.execute(
            "INSERT INTO events(seq, ts_ns, kind, actor, task, attempt, session, payload, hash)"
            " VALUES (?,?,?,?,?,?,?,?,?)",
            (seq, ts, kind, actor, task, attempt, session, text,
             chain.link(prev, seq, ts, kind, actor, task, attempt, session, text)),
        )
        return seq

    def next_counter(self, name: str) -> int:
        """Bump and return a named counter (U, Q, F, dispatch, ...)."""
        row = self.conn.execute(
            "INSERT INTO counters(name, value) VALUES (?, 1)"
            " ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value",
            (name,),
        ).fetchone()
        return int(row[0])


class Store:
    """One connection to `<repo>/.a2a/a2a.db`. Not shared across threads: open one per thread."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        if not self.path.parent.is_dir():
            raise A2AError("not_initialized", f"no a2a store at {self.path} (run `a2a init`)")
        try:
            self.conn = sqlite3.connect(
                str(self.path), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise A2AError("store_unavailable", f"cannot open {self.path}: {exc}") from exc
        self.conn.row_factory = sqlite3.Row
        self.conn.create_collation("natural_ids", ids.collate)  # T-2 before T-16
        self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        mode = self.conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode.lower() != "wal":
            raise A2AError("store_unavailable", f"{self.path}: cannot switch to WAL (got {mode})")
        self.conn.execute("PRAGMA synchronous = FULL")
        self.conn.execute("PRAGMA foreign_keys = ON")
        try:
            migrate.upgrade(self)
            # The events since the last checked one: a break is kept here for the gate to act
            # on (gate/ledger.py); reads go on.
            self.chain_break: chain.Break | None = chain.check_from_checkpoint(self)
        except BaseException:
            self.conn.close()
            raise

    @property
    def schema_version(self) -> int:
        """The number of the last migration applied (see `a2a_tui.store.migrate`)."""
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def write(self) -> Iterator[Tx]:
        """A write transaction taken with BEGIN IMMEDIATE: no lock upgrade races, no deadlocks.

        Never run git, tmux or a check while inside this block.
        """
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise A2AError("store_busy", f"store is busy: {exc}") from exc
        try:
            yield Tx(self.conn)
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        else:
            self.conn.execute("COMMIT")

    @contextmanager
    def snapshot(self) -> Iterator[Tx]:
        """A read transaction: every query inside sees one consistent state."""
        self.conn.execute("BEGIN")
        try:
            yield Tx(self.conn)
        finally:
            self.conn.execute("ROLLBACK")

    # Reads outside a transaction (each statement is its own snapshot).
    def one(self, sql: str, params: Any = ()) -> sqlite3.Row | None:
        return self.conn.execute(sql, params).fetchone()

    def all(self, sql: str, params: Any = ()) -> list[sqlite3.Row]:
        return self.conn.execute(sql, params).fetchall()

    def last_seq(self) -> int:
        row = self.conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
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
        return [Event.from_row(r) for r in self.conn.execute(sql, params)]

