"""The first paste of a launch waits for the pane to settle where the CLI's profile asks for it
(Gemini CLI drops a paste that comes right after a resumed SessionStart: FINDINGS.md); a pane
idle for longer, a later paste, and other CLIs do not wait."""

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


def deliver(store: Store) -> tuple[list[float], list[tuple]]:
    io, slept = Recorder(), []

    def sleep(s: float) -> None:
        slept.append(s)
        io.calls.append(("sleep", round(s, 1)))

    delivery.deliver_ready(store, io, None, sleep=sleep)
    return slept, io.calls


def queue(store: Store, sid: str, text: str) -> None:
    with store.write() as tx:
        enqueue_in_tx(tx, sid, text, source="user", actor="user")


def test_a_gemini_panes_first_paste_waits_until_it_has_been_idle_a_moment(tmp_path):
    store = Store(tmp_path / "a2a.db")
    assert gemini.PROFILE.start_settle_s == 1.0
    register_session(store, "w1", cli="gemini", pane_id="%1", state="idle",
                     since_ns=time.time_ns())
    queue(store, "w1", "first")
    slept, calls = deliver(store)
    # The settle comes before the paste; then the usual pause before Enter.
    assert calls[0][0] == "sleep" and 0.8 <= slept[0] <= 1.0
    assert [c[0] for c in calls] == ["sleep", "paste", "sleep", "keys"]
    assert slept[1] == gemini.PROFILE.enter_delay_s


def test_no_wait_once_written_to_when_idle_long_enough_or_for_other_clis(tmp_path):
    store = Store(tmp_path / "a2a.db")
    now = time.time_ns()
    register_session(store, "w1", cli="gemini", pane_id="%1", state="idle",
                     since_ns=now - 5_000_000_000)
    register_session(store, "w2", cli="claude", pane_id="%2", state="idle", since_ns=now)
    queue(store, "w1", "idle for 5 s")
    queue(store, "w2", "claude")
    slept, calls = deliver(store)
    assert [c[0] for c in calls] == ["paste", "paste", "sleep", "keys", "keys"]
    assert slept == [gemini.PROFILE.enter_delay_s]
    # A later paste into a pane written to in this launch never waits to settle.
    with store.write() as tx:
        tx.execute("UPDATE sessions SET state = 'idle', in_flight = NULL, state_since_ns = ?"
                   " WHERE id = 'w1'", (time.time_ns(),))
    queue(store, "w1", "second")
    slept, calls = deliver(store)
    assert [c[0] for c in calls] == ["paste", "sleep", "keys"]
