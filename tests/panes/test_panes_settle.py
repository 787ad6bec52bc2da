"""The first paste of a launch waits for the pane to settle where the CLI's profile asks for it
(Gemini CLI drops a paste that comes right after a resumed SessionStart; Claude Code loses the
Enter after a paste that comes right after its SessionStart on a loaded machine: FINDINGS.md);
a pane idle for longer, a later paste, and a CLI that needs no settling do not wait. The pane
is left for later (`due_ns`), never slept on."""

from __future__ import annotations

import time

from a2a_tui.panes import delivery
from a2a_tui.profiles import gemini
from a2a_tui.queue import enqueue_in_tx
from a2a_tui.store import Store
from tests.support import register_session


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def paste(self, pane_id, text, buffer):
        self.calls.append(("paste", pane_id))

    def send_keys(self, pane_id, *keys):
        self.calls.append(("keys", pane_id, keys))


def deliver(store: Store) -> tuple[delivery.Delivered, list[tuple]]:
    io = Recorder()

    def sleep(s: float) -> None:
        io.calls.append(("sleep", round(s, 2)))

    return delivery.deliver_ready(store, io, None, sleep=sleep), io.calls


def queue(store: Store, sid: str, text: str) -> None:
    with store.write() as tx:
        enqueue_in_tx(tx, sid, text, source="user", actor="user")


def idle_since(store: Store, sid: str, ns: int) -> None:
    with store.write() as tx:
        tx.execute("UPDATE sessions SET state = 'idle', in_flight = NULL, state_since_ns = ?"
                   " WHERE id = ?", (ns, sid))


def test_a_gemini_panes_first_paste_waits_until_it_has_been_idle_a_moment(tmp_path):
    """Left for later, not waited for: the orchestrator's one thread never sleeps on it."""
    store = Store(tmp_path / "a2a.db")
    assert gemini.PROFILE.start_settle_s > 0
    now = time.time_ns()
    register_session(store, "w1", cli="gemini", pane_id="%1", state="idle", since_ns=now)
    queue(store, "w1", "first")
    result, calls = deliver(store)
    assert calls == [] and result.sent == []
    settle_ns = int(gemini.PROFILE.start_settle_s * 1e9)
    assert result.due_ns == now + settle_ns
    idle_since(store, "w1", now - settle_ns)   # it has been idle long enough now
    result, calls = deliver(store)
    assert [c[0] for c in calls] == ["paste", "sleep", "keys"] and result.due_ns is None
    assert calls[1] == ("sleep", gemini.PROFILE.enter_delay_s)


def test_no_wait_once_written_to_when_idle_long_enough_or_for_other_clis(tmp_path):
    store = Store(tmp_path / "a2a.db")
    now = time.time_ns()
    register_session(store, "w1", cli="gemini", pane_id="%1", state="idle",
                     since_ns=now - 5_000_000_000)
    register_session(store, "w2", cli="demo", pane_id="%2", state="idle", since_ns=now)
    queue(store, "w1", "idle for 5 s")
    queue(store, "w2", "demo")
    result, calls = deliver(store)
    assert [c[0] for c in calls] == ["paste", "paste", "sleep", "keys", "keys"]
    assert result.due_ns is None
    # A later paste into a pane written to in this launch never waits to settle.
    idle_since(store, "w1", time.time_ns())
    queue(store, "w1", "second")
    result, calls = deliver(store)
    assert [c[0] for c in calls] == ["paste", "sleep", "keys"]
