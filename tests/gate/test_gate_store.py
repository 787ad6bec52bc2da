"""The store: WAL, synchronous=FULL, append-only events, projections written with their event."""

from __future__ import annotations

import sqlite3

import pytest

from a2a_tui.store import Store


def test_pragmas_and_append_only(tmp_path):
    s = Store(tmp_path / "a2a.db")
    assert s.one("PRAGMA journal_mode")[0] == "wal"
    assert s.one("PRAGMA synchronous")[0] == 2  # FULL
    assert s.one("PRAGMA busy_timeout")[0] >= 5000
    with s.write() as tx:
        first = tx.append("hello", actor="user", payload={"x": 1})
        second = tx.append("hello", actor="user")
    assert (first, second) == (1, 2)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        s.conn.execute("UPDATE events SET kind='changed' WHERE seq=1")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        s.conn.execute("DELETE FROM events")
    assert [e.kind for e in s.events()] == ["hello", "hello"]


def test_a_failed_transaction_leaves_no_gap(tmp_path):
    s = Store(tmp_path / "a2a.db")
    with s.write() as tx:
        tx.append("a", actor="user")
    with pytest.raises(RuntimeError):
        with s.write() as tx:
            tx.append("b", actor="user")
            tx.execute("INSERT INTO cards(id, version, digest, contract_digest, state, title, body,"
                       " updated_seq) VALUES ('X',1,'d','c','draft','t','{}',1)")
            raise RuntimeError("boom")
    with s.write() as tx:
        tx.append("c", actor="user")
    assert [(e.seq, e.kind) for e in s.events()] == [(1, "a"), (2, "c")]
    assert s.one("SELECT COUNT(*) FROM cards")[0] == 0


def test_write_uses_begin_immediate(tmp_path):
    """A second writer waits for the first rather than failing on a lock upgrade."""
    a, b = Store(tmp_path / "a2a.db"), Store(tmp_path / "a2a.db")
    with a.write():
        assert a.conn.in_transaction
        # While a holds the write lock, b cannot even begin (busy), proving the lock is taken
        # at BEGIN, not at the first write.
        b.conn.execute("PRAGMA busy_timeout = 50")
        with pytest.raises(Exception, match="busy|locked"):
            with b.write():
                pass
