"""Rule 7 in the workbench: a spot check is a board item, and `f` on it flags the integrated
attempt it asks about, with your words (the same `spot_check_done` as `a2a spot-check --flag`)."""

from __future__ import annotations

from textual.widgets import TextArea

from a2a_tui.tui.messages import BoardItemAnswered
from a2a_tui.tui.panels.board import BoardPanel, spot_checked
from a2a_tui.tui.screens.editor import EditorScreen
from tests.gate.test_gate_spot_checks import integrated
from tests.support import a2a, events
from tests.tui.tui_support import of_type, run, until, workbench


def test_f_on_a_spot_check_flags_the_attempt_it_asks_about(repo):
    (repo / ".a2a/gate.toml").write_text("spot_check_every = 1\n")
    assert a2a("gate-rules", "accept", cwd=repo).code == 0
    aid = integrated(repo, "T-1", 1)

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            panel = app.query_one(BoardPanel)
            (item,) = panel.rows.values()
            assert spot_checked(item) == aid
            await pilot.press("tab", "f")
            editor = await until(pilot, lambda: isinstance(app.screen, EditorScreen)
                                 and app.screen, what="the editor")
            editor.query_one(TextArea).insert("its test asserts nothing")
            await pilot.press("ctrl+s")
            await until(pilot, lambda: of_type(seen, BoardItemAnswered), what="flagged")

    run(scenario())
    (done,) = events(repo, "spot_check_done")
    assert (done.attempt, done.payload["verdict"], done.payload["reason"]) == (
        aid, "flagged", "its test asserts nothing")
