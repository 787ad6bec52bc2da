"""Migration 3 (the metrics' indexes): a store at version 2 holding events is brought up to date
with its rows untouched, and the metrics' counts are answered from the new indexes."""

from __future__ import annotations

import shutil
import sqlite3

from a2a_tui import metrics
from a2a_tui.store import Store, migrate

ROWS = [
    (1, "initialized", "user", None, None, None, '{"root": "/x/proj"}'),
    (2, "session_launching", "user", None, None, "w1",
     '{"role": "worker", "cli": "demo", "model": "m", "effort": "e"}'),
    (3, "signal", "session:w1", None, None, "w1", '{"kind": "prompt"}'),
    (4, "signal", "session:w1", None, None, "w1", '{"kind": "waiting"}'),
    (5, "signal", "session:w1", None, None, "w1", '{"kind": "stop"}'),
    (6, "dispatch_queued", "user", None, None, "w1", '{"n": 1}'),
]


def at_version_2(tmp_path):
    """A store made by the code before migration 3: migrations 1 and 2 only, with events."""
    old = tmp_path / "migrations"
    old.mkdir()
    for m in migrate.migrations()[:2]:
        shutil.copy(m.path, old / m.path.name)
    path = tmp_path / "a2a.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("BEGIN IMMEDIATE")
    for m in migrate.migrations(old):
        m.apply(conn)
    conn.execute("PRAGMA user_version = 2")
    conn.executemany("INSERT INTO events(ts_ns, kind, actor, task, attempt, session, payload)"
                     " VALUES (?,?,?,?,?,?,?)", [(r[0] * 10**9, *r[1:]) for r in ROWS])
    conn.execute("COMMIT")
    conn.close()
    return path


def test_a_version_2_store_gets_the_indexes_and_keeps_its_events(tmp_path):
    path = at_version_2(tmp_path)
    before = sqlite3.connect(path).execute("SELECT * FROM events ORDER BY seq").fetchall()
    assert "index events_signal_kind" not in migrate.schema_objects(sqlite3.connect(path))

    s = Store(path)
    assert s.schema_version >= 3
    objects = migrate.schema_objects(s.conn)
    assert {"index events_signal_kind", "index events_kind_session", "index events_ts"} <= objects
    cols = "seq, ts_ns, kind, actor, task, attempt, session, payload"  # a later migration adds
    assert [tuple(r) for r in s.all(f"SELECT {cols} FROM events ORDER BY seq")] == before

    u = metrics.compute_json(s, "usage")["usage"]
    assert (u["project"]["name"], u["other_sessions"][0]["turns"],
            u["other_sessions"][0]["dispatches"]) == ("proj", 1, 1)
    att = metrics.compute_json(s, "attention")["attention"]["items"]
    assert [(i["kind"], i["waited_s"]) for i in att] == [("permission", 1.0)]
    late = metrics.compute_json(s, "attention", since_ns=5 * 10**9)["attention"]["items"]
    assert late == []
    s.close()
