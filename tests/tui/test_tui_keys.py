"""The action registry feeds the bindings, the footer, the help screen and the command palette;
Tab / Shift-Tab move between panels, arrows and j/k within one."""

from __future__ import annotations

import io

from rich.console import Console

from a2a_tui.tui import actions
from a2a_tui.tui.app import PANEL_TYPES, WorkbenchApp
from a2a_tui.tui.panels.sessions import SessionsPanel
from a2a_tui.tui.screens.help import HelpScreen
from tests.support import register_session
from tests.tui.tui_support import of_type, run, until, workbench

ISSUE_KEYS = {
    "app": {"question_mark", "tab", "shift+tab", "m", "M", "q", "Q", "exclamation_mark", "N"},
    "panel": {"j", "k", "home", "end", "slash", "escape"},
    "sessions": {"enter", "p", "r", "i", "P", "n", "R", "x", "v", "f"},
    "board": {"enter", "a", "t", "s", "f", *map(str, range(1, 10))},   # f: a spot check's flag
    "gate": {"enter", "c", "e", "r", "C", "d", "l", "v", "I", "A", "w", "R"},
}


def keys_of(bindings) -> set[str]:
    return {k.strip() for b in bindings for k in b.key.split(",")}


def test_every_key_of_the_issue_is_bound_from_the_registry():
    for scope, keys in ISSUE_KEYS.items():
        assert keys_of(actions.bindings(scope)) == keys, scope
    assert keys_of(WorkbenchApp.BINDINGS) == ISSUE_KEYS["app"]
    for panel in PANEL_TYPES:
        # Each panel binds exactly its registry scope; the shared keys come from the base.
        assert keys_of(panel.BINDINGS) == keys_of(actions.bindings(panel.SCOPE))
        methods = {a.name for a in actions.for_scope(panel.SCOPE)}
        assert all(hasattr(panel, f"action_{m}") for m in methods), panel.SCOPE
    assert all(hasattr(WorkbenchApp, f"action_{a.name}") for a in actions.for_scope("app"))


def test_tab_moves_between_panels_and_j_k_arrows_move_within(repo):
    for sid in ("a1", "a2", "a3"):
        register_session(repo, sid)

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            order = []
            for _ in range(len(PANEL_TYPES)):
                order.append(app.focused.parent.id)
                await pilot.press("tab")
            assert order == ["sessions", "board", "inbox", "gate", "events"]
            assert app.focused.parent.id == "sessions"  # around again
            await pilot.press("shift+tab")
            assert app.focused.parent.id == "events"
            await pilot.press("tab")
            panel = app.query_one(SessionsPanel)
            assert panel.selected_key == "a1"
            await pilot.press("j")
            assert panel.selected_key == "a2"
            await pilot.press("down")
            assert panel.selected_key == "a3"
            await pilot.press("k", "up")
            assert panel.selected_key == "a1"

    run(scenario())


def test_help_lists_every_action_and_why_it_is_unavailable_now(repo):
    register_session(repo, "w1", state="idle")

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            await pilot.press("question_mark")
            screen = await until(pilot, lambda: isinstance(app.screen, HelpScreen)
                                 and app.screen, what="the help screen")
            console = Console(width=120, record=True, file=io.StringIO())
            console.print(screen.table)
            text = " ".join(console.export_text().split())
            for a in actions.ACTIONS:
                if a.name != "pick" or a.method == "pick(1)":
                    assert " ".join(a.help.split()) in text, a.id
            assert "unavailable now: w1 is already idle" in text        # release
            assert "unavailable now: the Board panel is empty" in text  # open, pick...
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, HelpScreen), what="closed")

    run(scenario())


def test_the_palette_lists_every_action_whichever_panel_has_the_focus(repo):
    register_session(repo, "w1", state="idle")

    async def scenario():
        async with workbench(repo) as (app, _pilot, _seen):
            assert app.focused.parent.id == "sessions"
            commands = {c.title: c.help for c in app.get_system_commands(app.screen)}
            assert commands["Sessions: Release (r)"] == "unavailable: w1 is already idle"
            assert commands["Sessions: Inject (i)"] == actions.BY_ID["sessions.inject"].help
            assert "Everywhere: Message (m)" in commands
            # Not only the focused panel's: every panel's, each with its own reason.
            assert commands["Board: Adopt (a)"] == "unavailable: the Board panel is empty"
            assert commands["Gate: Verify (v)"] == "unavailable: the Gate panel is empty"
            assert commands["Events: Open (Enter)"] == actions.BY_ID["events.open"].help
            for a in actions.ACTIONS:
                if a.scope in ("checks", "diff", "review") or (a.name == "pick"
                                                               and a.method != "pick(1)"):
                    continue
                assert f"{actions.SCOPES[a.scope]}: {a.label} ({a.keys_shown})" in commands

    run(scenario())


def test_a_palette_action_runs_on_its_own_panel_which_takes_the_focus(repo, as_):
    from textual.command import CommandPalette
    from textual.widgets import Input

    from a2a_tui.collab import board
    from a2a_tui.tui.messages import BoardItemAnswered
    from a2a_tui.tui.panels.board import BoardPanel

    register_session(repo, "w1", state="idle")
    board.ask(as_("exec1", "executive"), "Cache?", ["a=yes", "b=no"], "b", "it is slow")

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            assert app.focused.parent.id == "sessions"
            await pilot.press("ctrl+p")
            await until(pilot, lambda: isinstance(app.screen, CommandPalette)
                        and app.screen.query(Input), what="the palette")
            await pilot.press(*"Board: Adopt")
            await pilot.pause(0.3)
            await pilot.press("enter")
            await until(pilot, lambda: of_type(seen, BoardItemAnswered), what="the answer")
            assert app.focused is app.query_one(BoardPanel).table

    run(scenario())
    from tests.support import rows

    assert rows(repo, "SELECT kind, text FROM user_inputs") == [
        {"kind": "choice", "text": "b: no (the recommendation)"}]
