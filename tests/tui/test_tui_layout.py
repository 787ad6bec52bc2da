"""The layout is usable from 80x24 to 250x60: several rows in each panel, a footer whose keys
all fit (what does not fit is left out from the end, and says so), an Events tail that grows
with the terminal. The snapshots (test_tui_snapshots.py) show the same at both ends."""

from __future__ import annotations

import pytest
from textual.widgets._footer import FooterKey, FooterLabel

from a2a_tui.tui.chrome import WorkbenchFooter
from a2a_tui.tui.panels.events import EventsPanel
from a2a_tui.tui.panels.sessions import SessionsPanel
from tests.support import register_session
from tests.tui.tui_support import run, until, workbench


async def footer_fits(app, pilot) -> tuple[bool, bool]:
    """(every key shown lies inside the screen, some keys were left out), once the footer has
    been laid out for the current width."""
    footer = app.screen.query_one(WorkbenchFooter)
    await until(pilot, lambda: footer.query(FooterKey) and all(
        k.region.width for k in footer.query(FooterKey)), what="the footer laid out")
    await pilot.pause(0.1)
    keys = list(footer.query(FooterKey))
    inside = all(k.region.right <= app.size.width for k in keys)
    return inside, bool(footer.query(FooterLabel))


@pytest.mark.parametrize("size, session_rows, events_rows", [
    ((80, 24), 3, 3), ((100, 30), 4, 4), ((200, 50), 12, 9), ((250, 60), 16, 11)])
def test_each_size_shows_rows_in_every_panel_and_the_whole_footer(repo, size, session_rows,
                                                                  events_rows):
    for i in range(20):
        register_session(repo, f"s{i:02}")

    async def scenario():
        async with workbench(repo, size=size) as (app, pilot, _seen):
            await pilot.pause()
            sessions = app.query_one(SessionsPanel)
            # rows of the table visible under its header, with the focused panel's detail
            assert sessions.table.scrollable_content_region.height - 1 >= session_rows
            events = app.query_one(EventsPanel)
            assert events.table.scrollable_content_region.height - 1 >= events_rows
            inside, left_out = await footer_fits(app, pilot)
            assert inside
            assert left_out == (size[0] <= 100)  # at 80 and 100 columns the last keys go

    run(scenario())


def test_a_resize_shares_the_height_out_again(repo):
    async def scenario():
        async with workbench(repo, size=(80, 24)) as (app, pilot, _seen):
            events = app.query_one(EventsPanel)
            await until(pilot, lambda: events.outer_size.height == 6, what="6 lines of Events")
            await pilot.resize_terminal(200, 50)
            # a quarter of the 48 lines between the status line and the footer
            await until(pilot, lambda: events.outer_size.height == 12, what="12 lines")
            assert await footer_fits(app, pilot) == (True, False)

    run(scenario())
