"""A store's open checks the events past the chain's checkpoint, and moves the checkpoint on
once 32 were checked: an open never checks more than 31 events without moving it (about 0.15 ms
beside SQLite's own open, bench/REPORT.md), and writes the checkpoint only once per 32 events."""

from __future__ import annotations

from a2a_tui.store import Store


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
