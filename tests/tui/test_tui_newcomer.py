"""What a newcomer sees explained on screen: `?` has a legend for the prompt markers and the
other marks, and the demo's narration shows in the workbench itself."""

from __future__ import annotations

import io

from rich.console import Console

from a2a_tui.demo.director import Director
from a2a_tui.queue import marker
from a2a_tui.repo import Repo
from a2a_tui.tui.chrome import NarrationLine
from a2a_tui.tui.screens.help import HelpScreen
from tests.tui.tui_support import run, until, workbench


def text_of(renderable) -> str:
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(renderable)
    return " ".join(console.export_text().split())


def test_help_has_a_legend_for_both_prompt_markers_and_the_marks_on_screen(repo):
    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            await pilot.press("question_mark")
            screen = await until(pilot, lambda: isinstance(app.screen, HelpScreen)
                                 and app.screen.query("#legend") and app.screen,
                                 what="the help screen with its legend")
            legend = text_of(screen.legend)
            # The markers as the queue writes them into a pane, with n for the number.
            for source, word in (("user", "control"), ("gate", "gate")):
                shown = marker(source, 7).replace("#7", "#n")
                assert shown in legend and f'"{word}"' in legend, source
            assert "rejection feedback" in legend
            # What both prompt markers mean is said first, above the keys (not only at the
            # legend's end, past every key).
            top = str(screen.query_one("VerticalScroll").children[0].content)
            for source in ("user", "gate"):
                assert marker(source, 7).replace("#7", "#n").split(" · ")[0] in top, source
            assert "prompt #n that a2a typed" in top and "rejection feedback" in top, top
            for mark in ("⏸ 2 !", "✓ 5/6", "held", "NO_GO", "T-1-a1", "U-1", "demo 3"):
                assert mark in legend, mark

    run(scenario())


def test_the_demo_narration_shows_in_the_workbench_and_follows_each_step(repo):
    director = Director(Repo(repo), None, 0)
    try:
        async def scenario():
            async with workbench(repo) as (app, pilot, _seen):
                line = app.query_one(NarrationLine)
                assert not line.display          # outside the demo: no line at all
                director.say("Two demo agents start.")
                await until(pilot, lambda: line.display and line.region.height,
                            what="the narration line")
                assert str(line.render()) == "demo 1  Two demo agents start."
                # under the status line, which stays visible, and above the panels
                status, grid = app.query_one("#status").region, app.query_one("#main").region
                assert line.region.y == status.bottom and grid.y == line.region.bottom
                director.say("idea1 hands card T-1 to the executive.")
                await until(pilot, lambda: "T-1" in str(line.render()), what="step 2")
                assert str(line.render()).startswith("demo 2 ")

        run(scenario())

        # Opened later, the workbench shows the last step at once.
        async def later():
            async with workbench(repo) as (app, _pilot, _seen):
                line = app.query_one(NarrationLine)
                assert line.display and str(line.render()).startswith("demo 2 ")

        run(later())
    finally:
        director.store.close()
