"""Migration 7: a store at version 6 holding user inputs that board answers refer to is
upgraded: the rows stay, the references hold, the table is append-only again, and it takes the
new kind `review_comments`; `review_comments` is there, and is not a gate table."""

from __future__ import annotations

import sqlite3

import pytest

from a2a_tui.gate import ledger
from a2a_tui.store import Store, migrate

SEVEN = 7


def store_at(path, version: int) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("BEGIN IMMEDIATE")
    for step in migrate.migrations()[:version]:
        step.apply(conn)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.execute("COMMIT")
    conn.executescript("""
        INSERT INTO user_inputs(id, n, kind, text, source, to_session, ref, option_key, attempt,
                                seq, ts_ns)
            VALUES ('U-1', 1, 'answer', 'yes', 'tui', 'idea1', 'Q-1', 'a', NULL, 3, 30),
                   ('U-2', 2, 'message', 'hello', 'cli', NULL, NULL, NULL, NULL, 4, 40);
        INSERT INTO board_items(id, kind, title, actor, seq, ts_ns)
            VALUES ('Q-1', 'question', 'which?', 'idea1', 2, 20);
        INSERT INTO board_records(seq, item_id, kind, user_input, actor, ts_ns)
            VALUES (5, 'Q-1', 'answer', 'U-1', 'user', 50);""")
    conn.close()


def test_version_6_is_upgraded_with_its_user_inputs_and_their_references(tmp_path):
    assert len(migrate.migrations()) >= SEVEN  # later migrations run after it
    path = tmp_path / "a2a.db"
    store_at(path, SEVEN - 1)
    before = sqlite3.connect(path).execute("SELECT * FROM user_inputs ORDER BY n").fetchall()

    s = Store(path)
    assert s.schema_version == len(migrate.migrations())
    assert [tuple(r) for r in s.all("SELECT * FROM user_inputs ORDER BY n")] == before
    assert s.all("PRAGMA foreign_key_check") == []
    assert s.one("SELECT u.text FROM board_records r JOIN user_inputs u ON u.id = r.user_input"
                 )[0] == "yes"
    for stmt in ("UPDATE user_inputs SET text = 'x'", "DELETE FROM user_inputs"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            s.conn.execute(stmt)
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        s.conn.execute("INSERT INTO board_records(seq, item_id, kind, user_input, actor, ts_ns)"
                       " VALUES (6, 'Q-1', 'answer', 'U-9', 'user', 60)")
    with s.write() as tx:
        tx.execute("INSERT INTO user_inputs(id, n, kind, text, source, seq, ts_ns)"
                   " VALUES ('U-3', 3, 'review_comments', 'c', 'cli', 6, 60)")
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        s.conn.execute("INSERT INTO user_inputs(id, n, kind, text, source, seq, ts_ns)"
                       " VALUES ('U-4', 4, 'nonsense', 'c', 'cli', 7, 70)")
    assert "index user_inputs_ref" in migrate.schema_objects(s.conn)
    assert "table review_comments" in migrate.schema_objects(s.conn)
    # Comments are not gate state: the fold writes them, the gate does not compare them.
    assert "review_comments" in {t.name for t in ledger.TABLES}
    assert "review_comments" not in {t.name for t in ledger.CHECKED}
    s.close()


def test_migration_7_runs_again_harmlessly(tmp_path):
    # A store stamped back by an a2a from before migrations re-runs 2..n (store/migrate.py).
    path = tmp_path / "a2a.db"
    store_at(path, SEVEN - 1)
    Store(path).close()
    conn = sqlite3.connect(path, isolation_level=None)
    schema = conn.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall()
    conn.execute("BEGIN IMMEDIATE")
    migrate.migrations()[SEVEN - 1].apply(conn)
    conn.execute("COMMIT")
    assert conn.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall() == schema
    assert conn.execute("SELECT COUNT(*) FROM user_inputs").fetchone()[0] == 2
