"""confirm.py's decisions, step by step, without tmux: a fake pane records what is written, and
time is whatever the test says it is."""

from __future__ import annotations

import time

import pytest

from a2a_tui.errors import A2AError
from a2a_tui.panes import calls, confirm, delivery, spool
from a2a_tui.panes.records import record_launched, record_launching
from a2a_tui.panes.signals import normalize
from a2a_tui.payloads.sessions import SessionLaunching
from a2a_tui.profiles import get as profile
from a2a_tui.queue import enqueue_in_tx
from a2a_tui.store import Store
from tests.support import set_session

DEMO = profile("demo")
WAIT_NS = int(DEMO.prompt_wait_s * 1e9)


class Pane:
    def __init__(self, fail_keys: bool = False) -> None:
        self.calls: list[tuple] = []
        self.fail_keys = fail_keys

    def paste(self, pane_id, text, buffer):
        self.calls.append(("paste", text))

    def send_keys(self, pane_id, *keys):
        if self.fail_keys and self.calls and self.calls[-1][0] == "keys":
            raise A2AError("tmux_failed", "tmux send-keys failed: can't find pane: %1")
        self.calls.append(("keys", *keys))


def launched(store: Store, prompt_signal: bool = True) -> None:
    """Session w1 of the demo agent in pane %1, as `a2a spawn` records it; idle."""
    with store.write() as tx:
        seq = record_launching(tx, "w1", actor="user", role="worker", cli="demo", cwd="/",
                               record=SessionLaunching(cli="demo",
                                                       prompt_signal=prompt_signal))
        record_launched(tx, "w1", actor="user", attempt=None, launch_seq=seq, pane_id="%1",
                        pid=None, pid_start=None, tty=None)
    set_session(store, "w1", state="idle")


def sent(store: Store, pane: Pane, text: str = "hello") -> tuple[int, int]:
    """Queue `text` and deliver it: (its dispatch number, when Enter was written)."""
    with store.write() as tx:
        n = enqueue_in_tx(tx, "w1", text, source="user", actor="user")
    assert delivery.deliver_ready(store, pane, None, sleep=lambda _s: None).sent == [n]
    return n, store.one("SELECT enter_ns FROM dispatches WHERE n = ?", (n,))[0]


def signal(store: Store, payload: dict, ts_ns: int) -> None:
    sig = normalize("claude", payload, ts_ns=ts_ns, session="w1", pane="%1")
    spool.record(store, sig, f"{ts_ns}-w1-1.json")


def state(store: Store, n: int) -> tuple[str, str]:
    row = store.one("SELECT s.state, d.state FROM sessions s JOIN dispatches d ON d.n = ?"
                    " WHERE s.id = 'w1'", (n,))
    return row[0], row[1]


def kinds(store: Store, *names: str) -> list[str]:
    marks = ",".join("?" * len(names))
    return [r[0] for r in store.all(f"SELECT kind FROM events WHERE kind IN ({marks})"
                                    " ORDER BY seq", names)]


@pytest.fixture
def store(tmp_path) -> Store:
    s = Store(tmp_path / "a2a.db")
    launched(s)
    yield s
    s.close()


def test_nothing_happens_before_the_wait_is_over_and_a_prompt_signal_ends_it(store):
    pane = Pane()
    n, enter = sent(store, pane)
    pane.calls.clear()
    assert confirm.unconfirmed(store, pane, None, enter + WAIT_NS - 1) == enter + WAIT_NS
    assert pane.calls == []
    signal(store, {"hook_event_name": "UserPromptSubmit", "prompt": f"⟦主控 #{n}⟧ hello"},
           enter + 1000)
    assert state(store, n) == ("busy", "delivered")
    assert confirm.unconfirmed(store, pane, None, enter + 10 * WAIT_NS) is None
    assert pane.calls == []


def test_enter_again_at_most_enter_retries_times_then_unknown_and_the_user_is_called(store):
    pane = Pane()
    n, enter = sent(store, pane)
    pane.calls.clear()
    now = enter
    for k in range(DEMO.enter_retries):
        now += WAIT_NS
        due = confirm.unconfirmed(store, pane, None, now)
        assert pane.calls == [("keys", "Enter")] * (k + 1)     # Enter only, never the paste
        last = store.events(kinds=[confirm.RESENT])[-1].payload["enter_ns"]
        assert due == last + WAIT_NS   # each Enter gets its own wait
        now = due
    assert state(store, n) == ("busy", "sent")
    assert confirm.unconfirmed(store, pane, None, now) is None
    assert len(pane.calls) == DEMO.enter_retries and state(store, n) == ("unknown", "unknown")
    resent = [e.payload for e in store.events(kinds=[confirm.RESENT])]
    assert [p["enter"] for p in resent] == list(range(2, DEMO.enter_retries + 2))
    [why] = [e.payload for e in store.events(kinds=["dispatch_unknown"])]
    assert why["n"] == n and why["pane"] == "%1" and why["enters"] == DEMO.enter_retries + 1
    [w] = [w for w in calls.waiting(store) if w.kind == "unknown"]
    assert (w.key, w.ref) == (f"unknown:{n}", "w1") and "%1" in w.text
    # Nothing more is ever written for it; its own late prompt signal still confirms it.
    assert confirm.unconfirmed(store, pane, None, now + 100 * WAIT_NS) is None
    signal(store, {"hook_event_name": "UserPromptSubmit", "prompt": f"⟦主控 #{n}⟧ hello"},
           now + 1)
    assert state(store, n) == ("busy", "delivered")
    assert [w for w in calls.waiting(store) if w.kind == "unknown"] == []


def test_a_signal_after_enter_means_it_cannot_be_proven_untaken_so_no_enter_again(store):
    pane = Pane()
    n, enter = sent(store, pane)
    pane.calls.clear()
    # Something came from the pane after Enter (not the prompt signal): the Enter may have been
    # taken, its prompt signal lost; another Enter is not provably harmless.
    signal(store, {"hook_event_name": "Notification", "notification_type": "auth_success"},
           enter + 1000)
    assert confirm.unconfirmed(store, pane, None, enter + WAIT_NS) is None
    assert pane.calls == [] and state(store, n) == ("unknown", "unknown")
    assert "a signal came" in store.events(kinds=["dispatch_unknown"])[0].payload["why"]


def test_a_signal_from_before_enter_ingested_late_does_not_count(store):
    pane = Pane()
    n, enter = sent(store, pane)
    pane.calls.clear()
    signal(store, {"hook_event_name": "Stop"}, enter - 1000)   # the previous turn's, late
    confirm.unconfirmed(store, pane, None, enter + WAIT_NS)
    assert pane.calls == [("keys", "Enter")] and state(store, n) == ("busy", "sent")


def test_a_cli_that_does_not_signal_prompts_is_never_judged(tmp_path):
    store = Store(tmp_path / "a2a.db")
    launched(store, prompt_signal=False)
    pane = Pane()
    n, enter = sent(store, pane)
    assert confirm.unconfirmed(store, pane, None, enter + 100 * WAIT_NS) is None
    assert state(store, n) == ("busy", "sent") and kinds(store, "dispatch_unknown") == []


def test_an_enter_tmux_refuses_makes_the_dispatch_unknown(store):
    pane = Pane(fail_keys=True)
    n, enter = sent(store, pane)
    assert confirm.unconfirmed(store, pane, None, enter + WAIT_NS) is None
    assert state(store, n) == ("unknown", "unknown")
    assert store.events(kinds=["dispatch_unknown"])[0].payload["why"].startswith("Enter failed")


def test_a_released_pane_takes_no_enter(store):
    pane = Pane()
    n, enter = sent(store, pane)
    pane.calls.clear()
    set_session(store, "w1", state="idle")
    with store.write() as tx:
        tx.execute("UPDATE sessions SET in_flight = NULL WHERE id = 'w1'")
    assert confirm.unconfirmed(store, pane, None, enter + time.time_ns()) is None
    assert pane.calls == []
