"""A signal's cost does not grow with its session's history (issue 30): recording one reads the
same whatever number of turns the session has had (a long-lived pane has thousands)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from a2a_tui.panes import cycle
from a2a_tui.panes.records import set_dispatch
from a2a_tui.queue import enqueue_in_tx
from a2a_tui.store import Store
from tests.support import register_session


class NoPane:
    def paste(self, pane_id, text, buffer):
        raise AssertionError("nothing is queued: nothing is pasted")

    def send_keys(self, pane_id, *keys):
        raise AssertionError("nothing is queued: no key is sent")


def session_with_turns(tmp_path: Path, turns: int) -> tuple[Store, Path]:
    """Session w1, busy, after `turns` dispatches delivered and done."""
    a2a = tmp_path / ".a2a"
    top = a2a / "spool"
    (top / "w1").mkdir(parents=True)
    store = Store(a2a / "a2a.db")
    register_session(store, "w1", pane_id="%1", state="busy",
                     since_ns=time.time_ns() - 10_000_000_000)
    with store.write() as tx:
        for i in range(turns):
            n = enqueue_in_tx(tx, "w1", f"turn {i}", source="user", actor="user")
            set_dispatch(tx, n, "done", ended_ns=time.time_ns())
    return store, top


def steps_of_one_signal(store: Store, top: Path) -> int:
    """SQLite VM steps (in tens) of ingesting one tool-use signal."""
    ts = time.time_ns()
    body = {"v": 1, "ts_ns": ts, "session": "w1", "source": "claude",
            "payload": {"hook_event_name": "PreToolUse", "session_id": "x"}}
    tmp = top / "w1" / f".{ts}.tmp"
    tmp.write_text(json.dumps(body))
    tmp.rename(top / "w1" / f"{ts}-w1-1.json")
    count = [0]

    def tick() -> int:
        count[0] += 1
        return 0

    store.conn.set_progress_handler(tick, 10)
    try:
        cycle.ingest_and_deliver(store, NoPane(), None, top, None, sleep=lambda s: None)
    finally:
        store.conn.set_progress_handler(None, 0)
    assert store.one("SELECT COUNT(*) FROM events WHERE kind = 'signal'")[0] == 1
    return count[0]


def test_a_signal_reads_the_same_after_ten_turns_or_two_thousand(tmp_path):
    few = steps_of_one_signal(*session_with_turns(tmp_path / "few", 10))
    many = steps_of_one_signal(*session_with_turns(tmp_path / "many", 2000))
    assert many <= few * 1.5, f"{few} tens of steps after 10 turns, {many} after 2,000"
