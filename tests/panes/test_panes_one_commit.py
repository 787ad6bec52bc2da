"""Stop → next paste begins takes one durable commit, not two: the transaction that records the
Stop signal (the pane idle) also begins the session's next queued dispatch (`sending`), when
that file is the session's last in the batch. A later file of the same session in the batch
(the user typed in the pane meanwhile) is applied first: then nothing is begun early."""

from __future__ import annotations

import json
import time
from pathlib import Path

from a2a_tui.panes import cycle
from a2a_tui.queue import enqueue_in_tx
from a2a_tui.store import Store
from tests.support import register_session


class Recorder:
    def __init__(self, store: Store, commits: list[int]) -> None:
        self.calls: list[tuple] = []
        self.commits = commits

    def paste(self, pane_id, text, buffer):
        self.calls.append(("paste", pane_id, text, self.commits[0]))

    def send_keys(self, pane_id, *keys):
        self.calls.append(("keys", pane_id, keys))


def counting(store: Store) -> list[int]:
    """Count the store's write transactions (each a durable commit)."""
    n = [0]
    write = store.write

    def counted():
        n[0] += 1
        return write()

    store.write = counted   # type: ignore[method-assign]
    return n


def signal(top: Path, sid: str, event: str, ts_ns: int, extra: dict | None = None) -> None:
    folder = top / sid
    folder.mkdir(parents=True, exist_ok=True)
    body = {"v": 1, "ts_ns": ts_ns, "session": sid, "source": "claude",
            "payload": {"hook_event_name": event, "session_id": "x", **(extra or {})}}
    tmp = folder / f".{ts_ns}.tmp"
    tmp.write_text(json.dumps(body))
    tmp.rename(folder / f"{ts_ns}-{sid}-1.json")


def setup(tmp_path: Path) -> tuple[Store, Path]:
    a2a = tmp_path / ".a2a"
    top = a2a / "spool"
    top.mkdir(parents=True)
    store = Store(a2a / "a2a.db")
    register_session(store, "w1", pane_id="%1", state="busy",
                     since_ns=time.time_ns() - 10_000_000_000)
    with store.write() as tx:
        enqueue_in_tx(tx, "w1", "next prompt", source="user", actor="user")
    return store, top


def test_a_stop_and_the_next_paste_take_one_commit(tmp_path):
    store, top = setup(tmp_path)
    signal(top, "w1", "Stop", time.time_ns())
    commits = counting(store)
    io = Recorder(store, commits)
    result = cycle.ingest_and_deliver(store, io, None, top, None, sleep=lambda s: None)
    pastes = [c for c in io.calls if c[0] == "paste"]
    assert len(pastes) == 1 and pastes[0][2].endswith("next prompt") and result.sent
    assert pastes[0][3] == 1, f"{pastes[0][3]} commits before the paste began"
    row = store.one("SELECT state FROM dispatches WHERE session = 'w1'")
    assert row["state"] == "sent"


def test_a_later_signal_of_the_session_in_the_batch_is_applied_before_anything_is_begun(
        tmp_path):
    store, top = setup(tmp_path)
    now = time.time_ns()
    signal(top, "w1", "Stop", now)
    signal(top, "w1", "UserPromptSubmit", now + 1, {"prompt": "typed by the user"})
    io = Recorder(store, counting(store))
    result = cycle.ingest_and_deliver(store, io, None, top, None, sleep=lambda s: None)
    assert io.calls == [] and result.sent == []
    assert store.one("SELECT state FROM dispatches WHERE session = 'w1'")["state"] == "queued"
