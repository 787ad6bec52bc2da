"""Every list (Sessions, Board, Inbox, Gate, Events) has a `/` filter and Home/End; the filter
holds across reloads and new rows, and its box has the keys while it is open."""

from __future__ import annotations

import pytest

from a2a_tui.collab import board, inbox
from a2a_tui.gate.cards.commands import add_card, ready_card
from a2a_tui.gate.context import GateContext
from a2a_tui.repo import Repo
from a2a_tui.store import Store
from a2a_tui.tui.panels.base import Panel
from a2a_tui.tui.panels.events import EventsPanel
from a2a_tui.tui.panels.sessions import SessionsPanel
from tests.support import events, register_session, rows, write_card
from tests.tui.tui_support import run, until, workbench


@pytest.fixture
def lists(repo, as_):
    """Five rows in each panel, one of each named with 'zeta'."""
    for sid in ("alpha", "beta", "gamma", "delta", "zeta"):
        register_session(repo, sid, "worker")
    exe = as_("alpha", "executive")
    for t in ("Cache?", "Rename?", "Split?", "Merge?", "zeta question?"):
        board.ask(exe, t, ["a=yes", "b=no"], "a", "because")
    for t in ("one", "two", "three", "four", "zeta entry"):
        inbox.post(exe, "report", t, status="PASS")
    # in-process, as the snapshots seed theirs: five CLI runs would cost seconds per test
    with Store(repo / ".a2a/a2a.db") as s:
        g = GateContext(Repo(repo), s)
        for card in ("T-1", "T-2", "T-3", "T-4", "T-5"):
            add_card(g, write_card(repo, card))
            ready_card(g, card)
    return repo


async def open_filter(pilot, panel: Panel, text: str) -> None:
    """Focus the panel, press `/`, and once its box has the keys (as a person sees it open),
    type `text`."""
    panel.table.focus()
    await until(pilot, lambda: pilot.app.focused is panel.table, what="the panel focused")
    await pilot.press("slash")
    await until(pilot, lambda: panel.filtering, what="the filter box open")
    await pilot.press(*text)


def shown_keys(panel: Panel) -> list[str]:
    table = panel.table
    return [str(table.coordinate_to_cell_key((i, 0)).row_key.value)
            for i in range(table.row_count)]


@pytest.mark.parametrize("scope, typed, left", [
    ("sessions", "zeta", ["zeta"]),
    ("board", "zeta", ["Q-5"]),
    ("inbox", "zeta", ["I-5"]),
    ("gate", "t-3", ["T-3"]),
    ("events", "zeta question", None),     # the event that posted it
])
def test_slash_filters_every_list_and_esc_clears_it(lists, scope, typed, left):
    async def scenario():
        async with workbench(lists, size=(140, 44)) as (app, pilot, _seen):
            panel = app.panel(scope)
            everything = shown_keys(panel)
            await open_filter(pilot, panel, typed)
            keys = shown_keys(panel)
            if left is not None:
                assert keys == left
            else:
                assert keys and all("zeta question" in str(panel.rows[k].payload) for k in keys)
            assert str(panel.border_subtitle).startswith(f"/{typed}: {len(keys)} shown")
            # Enter keeps the filter and gives the keys back to the rows.
            await pilot.press("enter")
            assert app.focused is panel.table and shown_keys(panel) == keys
            # Esc in the box (/ again) clears it: every row is back, in order.
            await pilot.press("slash")
            await until(pilot, lambda: panel.filtering, what="the filter box open")
            await pilot.press("escape")
            assert shown_keys(panel) == everything and app.focused is panel.table
            assert not panel.filter_text

    run(scenario())


def test_home_and_end_in_every_list(lists):
    async def scenario():
        async with workbench(lists, size=(140, 44)) as (app, pilot, _seen):
            for scope in ("sessions", "board", "inbox", "gate", "events"):
                panel = app.panel(scope)
                panel.table.focus()
                await until(pilot, lambda p=panel: app.focused is p.table, what="focused")
                await pilot.press("end")
                assert panel.table.cursor_row == panel.table.row_count - 1 > 0, scope
                await pilot.press("home")
                assert panel.table.cursor_row == 0, scope

    run(scenario())


def test_an_event_the_search_found_first_is_shown_once_when_the_tail_brings_it(lists, as_):
    """The store-side search can answer after an event was written and before the tail's read
    brings that event (seen on a loaded machine): the tail then finds the row shown already."""
    async def scenario():
        async with workbench(lists, size=(140, 44)) as (app, pilot, _seen):
            panel = app.query_one(EventsPanel)
            await open_filter(pilot, panel, "needle")
            await pilot.press("enter")
            board.report(as_("beta", "worker"), "needle found", "in the haystack")
            (found,) = [e for e in events(lists) if "needle found" in str(e.payload)]
            # No await between the write and this: the tail's read cannot land before it.
            panel.show_found("needle", [found])
            assert shown_keys(panel) == [str(found.seq)]
            await until(pilot, lambda: str(found.seq) in panel.rows, what="the tail's read")
            await pilot.pause(0.1)
            assert shown_keys(panel) == [str(found.seq)]

    run(scenario())


def test_the_filter_box_takes_the_panels_letters_and_enter(lists):
    async def scenario():
        async with workbench(lists) as (app, pilot, _seen):
            panel = app.query_one(SessionsPanel)
            # 'p' pauses and Enter jumps in the Sessions panel; in the box they are text.
            await open_filter(pilot, panel, "alp")
            await pilot.press("enter")
            assert shown_keys(panel) == ["alpha"]
            assert panel.check_action("toggle_pause", ()) is True   # keys back on the rows
            await pilot.pause(0.2)
        assert rows(lists, "SELECT id FROM sessions WHERE paused = 1") == []
        assert rows(lists, "SELECT COUNT(*) AS n FROM user_inputs") == [{"n": 0}]

    run(scenario())


def test_a_filter_holds_across_reloads_and_new_events(lists, as_):
    async def scenario():
        async with workbench(lists, size=(140, 44)) as (app, pilot, _seen):
            events = app.query_one(EventsPanel)
            await open_filter(pilot, events, "needle")
            await pilot.press("enter")
            assert shown_keys(events) == []
            assert events.nothing_selected() == "no row of the Events panel matches /needle"
            board.report(as_("beta", "worker"), "needle found", "in the haystack")
            board.report(as_("beta", "worker"), "straw", "nothing here")
            await until(pilot, lambda: len(shown_keys(events)) == 1, what="the new match")
            assert "needle found" in str(events.all_rows()[shown_keys(events)[0]].payload)
            # Sessions keep their filter when the store changes under them.
            sessions = app.query_one(SessionsPanel)
            await open_filter(pilot, sessions, "gam")
            await pilot.press("enter")
            register_session(lists, "gamma2", "worker")
            register_session(lists, "omega", "worker")
            await until(pilot, lambda: "omega" in sessions.rows, what="the reload")
            assert shown_keys(sessions) == ["gamma", "gamma2"]

    run(scenario())
