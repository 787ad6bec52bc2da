"""The orchestrator's guard (panes/storeguard.py), without tmux: which store errors it waits out
and which end the orchestrator, how it backs off, and what it records once the store takes
writes again — the trouble itself, and a delivery it cut short between `sending` and `sent`
marked unknown (never re-sent)."""

from __future__ import annotations

import pytest

from a2a_tui.errors import A2AError
from a2a_tui.panes.orchestrator import LOCK_NAME, lock_state, take_lock
from a2a_tui.panes.storeguard import RETRY_S, StoreGuard, lock_note
from a2a_tui.queue import enqueue_in_tx
from a2a_tui.repo import Repo
from a2a_tui.settings import load
from tests.support import register_session


def _guard(repo) -> StoreGuard:
    r = Repo(repo)
    # No tmux server runs for this repository's session: the guard's tmux note finds none.
    return StoreGuard(r, "a2a-test-none", lambda: load(r.config_path), r.locks_dir / LOCK_NAME)


@pytest.mark.parametrize("code", ["store_full", "store_io", "store_busy"])
def test_a_full_or_failing_disk_is_waited_out(repo, code):
    g = _guard(repo)
    lock = take_lock(Repo(repo), "")
    try:
        lock.write("123")
        lock.flush()
        assert g.waits_out(A2AError(code, "the disk is full"))
        assert g.text is not None and g.text.startswith(f"{code} since")
        assert lock_note(lock_state(Repo(repo))[1]) == g.text
        assert [g.pause_s()] + [g.waits_out(A2AError(code, "again")) and g.pause_s()
                                for _ in range(5)] == [*RETRY_S, RETRY_S[-1], RETRY_S[-1]]
        assert g.trouble.failures == 6
    finally:
        lock.close()


@pytest.mark.parametrize("code", ["store_missing", "store_replaced", "store_foreign",
                                  "store_rewound", "store_corrupt"])
def test_a_store_that_is_not_the_orchestrators_own_is_not_waited_out(repo, code):
    g = _guard(repo)
    assert not g.waits_out(A2AError(code, "not yours"))
    assert not g.waits_out(ValueError("a bug"))
    g.stopped(A2AError(code, "not yours"))
    assert g.text == f"the orchestrator stopped: not yours [{code}]"


def test_once_the_store_takes_writes_the_trouble_is_recorded_and_a_cut_delivery_unknown(repo):
    register_session(repo, "w1", "worker")
    store = Repo(repo).store()
    try:
        with store.write() as tx:
            n = enqueue_in_tx(tx, "w1", "hello", source="user", actor="user")
            tx.execute("UPDATE dispatches SET state = 'sending' WHERE n = ?", (n,))
        g = _guard(repo)
        g.settled(store)   # no trouble: nothing to record, the delivery left alone
        assert store.one("SELECT state FROM dispatches WHERE n = ?", (n,))["state"] == "sending"
        assert g.waits_out(A2AError("store_full", "the disk is full"))
        g.waits_out(A2AError("store_full", "still"))
        g.settled(store)
        (ev,) = store.events(kinds=["store_trouble"])
        assert ev.payload["code"] == "store_full" and ev.payload["failures"] == 2
        assert ev.payload["message"] == "the disk is full"
        assert store.one("SELECT state FROM dispatches WHERE n = ?", (n,))["state"] == "unknown"
        (unknown,) = store.events(kinds=["dispatch_unknown"])
        assert "store_full" in unknown.payload["why"]
        assert g.trouble is None and g.text is None
    finally:
        store.close()
