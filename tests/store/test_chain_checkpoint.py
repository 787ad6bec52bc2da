"""A store's open checks the events past the chain's checkpoint, and moves the checkpoint on
once 32 were checked: an open never checks more than 31 events without moving it (about 0.15 ms
beside SQLite's own open, bench/REPORT.md), and writes the checkpoint only once per 32 events."""

from __future__ import annotations

from a2a_tui.store import Store
from a2a_tui.store.chain import CHECKPOINT_EVERY, WRITE_WALK_MAX


def checkpoint(path) -> int:
    with Store(path) as s:
        return s.one("SELECT seq FROM chain_checkpoint WHERE id = 1")["seq"]


def append(path, n: int) -> int:
    with Store(path) as s:
        with s.write() as tx:
            for i in range(n):
                tx.append("bench", actor="gate", payload={"i": i})
        return s.last_seq()


def test_the_checkpoint_moves_once_32_events_past_it_were_checked(tmp_path):
    path = tmp_path / "a2a.db"
    start = append(path, 40)
    assert checkpoint(path) == start           # the opens so far checked everything
    append(path, 31)
    assert checkpoint(path) == start           # 31 past it: checked, not moved (no write)
    end = append(path, 1)
    assert checkpoint(path) == end             # 32 past it: moved to the last event checked


def raw_checkpoint(path) -> int:
    """The checkpoint as stored, read without a Store (whose open would move it)."""
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        row = conn.execute("SELECT seq FROM chain_checkpoint WHERE id = 1").fetchone()
        return row[0] if row else 0
    finally:
        conn.close()


def test_a_writer_that_never_reopens_keeps_the_checkpoint_near_the_tip(tmp_path):
    # A long-lived writer (the orchestrator) appends for hours without an open: the next open
    # (the workbench's first frame, issue 30) must still check at most 31 events, not all of them.
    path = tmp_path / "a2a.db"
    with Store(path) as s:
        for batch in range(20):
            with s.write() as tx:
                for i in range(50):
                    tx.append("bench", actor="gate", payload={"b": batch, "i": i})
        last = s.last_seq()
    assert raw_checkpoint(path) > last - CHECKPOINT_EVERY


def test_a_write_checks_a_bounded_stretch_and_never_past_a_break(tmp_path):
    path = tmp_path / "a2a.db"
    with Store(path) as s:
        with s.write() as tx:
            for i in range(2000):
                tx.append("bench", actor="gate", payload={"i": i})
        with s.write() as tx:   # a checkpoint far behind (a store written before this rule)
            h = tx.one("SELECT hash FROM events WHERE seq = 1")[0]
            tx.execute("UPDATE chain_checkpoint SET seq = 1, hash = ?", (h,))
        with s.write() as tx:
            tx.append("bench", actor="gate")
        moved = raw_checkpoint(path)
        assert 1 < moved <= 1 + WRITE_WALK_MAX + 2   # caught up a stretch, not the whole log
        s.conn.execute("DROP TRIGGER events_no_update")   # an edit from outside a2a
        s.conn.execute("UPDATE events SET payload = '{\"edited\":1}' WHERE seq = ?",
                       (moved + 5,))
        for _ in range(10):
            with s.write() as tx:
                tx.append("bench", actor="gate")
        assert raw_checkpoint(path) == moved + 4     # stops before the edited event
