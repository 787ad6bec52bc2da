"""`/` searches a panel's whole record in the store, not only the rows it loaded (issue 28):
an event older than the Events tail, an inbox entry older than the entries shown."""

from __future__ import annotations

from a2a_tui.collab import inbox
from a2a_tui.tui.panels.events import EventsPanel
from a2a_tui.tui.panels.inbox import InboxPanel
from a2a_tui.tui.queries import EVENTS_TAIL, INBOX_LIMIT
from tests.support import add_ready_card, register_session, store
from tests.tui.tui_support import run, until, workbench


def test_slash_finds_an_event_older_than_the_tail(repo):
    with store(repo) as s, s.write() as tx:
        old = tx.append("test_note", actor="test", payload={"text": "the needle-in-history"})
        for i in range(EVENTS_TAIL + 50):
            tx.append("test_note", actor="test", payload={"i": i})

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            panel = app.query_one(EventsPanel)
            assert str(old) not in panel.rows          # beyond the tail it loaded
            panel.table.focus()
            await pilot.press("slash", *"needle-in", "enter")
            await until(pilot, lambda: panel.shown == {str(old)}, what="the old event found")
            assert "whole record" in str(panel.border_subtitle)
            assert panel.selected.seq == old
            await pilot.press("escape")
            await until(pilot, lambda: str(old) not in panel.shown, what="the tail again")

    run(scenario())


def test_slash_finds_an_inbox_entry_older_than_those_shown(repo, as_):
    add_ready_card(repo, "T-1")
    register_session(repo, "idea1", "ideation")
    c = as_("idea1", "ideation")
    first = inbox.post(c, "assign", "the ancient assignment", card="T-1").id
    for i in range(INBOX_LIMIT + 5):
        inbox.post(c, "revise", f"revision {i}", card="T-1")

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            panel = app.query_one(InboxPanel)
            assert first not in panel.rows
            panel.table.focus()
            await pilot.press("slash", *"ancient", "enter")
            await until(pilot, lambda: panel.shown == {first}, what="the old entry found")

    run(scenario())
