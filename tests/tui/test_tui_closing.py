"""A store read that lands once the workbench has closed (its screens taken down) is dropped,
never an error in the teardown (seen: an IndexError from the empty screen stack, failing the
test that had closed the app)."""

from __future__ import annotations

from a2a_tui.repo import Repo
from a2a_tui.tui import queries
from a2a_tui.tui.app import make_app
from a2a_tui.tui.messages import StoreRead
from tests.support import register_session
from tests.tui.tui_support import run


def test_a_store_read_after_the_app_closed_is_dropped(repo):
    register_session(repo, "w1", "worker", state="busy")
    app, _s, _o = make_app(Repo(repo), host_orchestrator=False, tick_s=3600)

    async def open_and_close():
        async with app.run_test(size=(100, 30)):
            pass

    run(open_and_close())
    assert app.screen_stack == []
    store = Repo(repo).store()
    try:
        snap = queries.load(store)
    finally:
        store.close()
    assert snap.sessions  # a read with rows for the panels, as a late watch would bring
    app._store_read(StoreRead(snap))   # dropped: no panel to show it on, no error
