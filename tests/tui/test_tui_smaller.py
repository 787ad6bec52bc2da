"""The workbench's smaller items of issue 28, each seen by a new user: the Gate panel's row in
view at 80x24, Events following again once the user is done reading, Esc clearing a kept `/`
filter, the `!` list acted on with Enter, a modal's own keys in the footer (Ctrl-S named for
what it does), "1 card", and the status line saying what its count is made of."""

from __future__ import annotations

from textual.widgets import DataTable
from textual.widgets._footer import FooterKey

from a2a_tui.collab import board
from a2a_tui.payloads.verify import Rejected
from a2a_tui.tui.panels.board import BoardPanel
from a2a_tui.tui.panels.events import EventsPanel
from a2a_tui.tui.panels.gate import GatePanel
from a2a_tui.tui.panels.sessions import SessionsPanel
from tests.support import a2a, add_ready_card, register_session, store, write_card
from tests.tui.tui_support import run, until, workbench


def append(repo, n: int) -> list[int]:
    with store(repo) as s, s.write() as tx:
        return [tx.append("test_note", actor="test", payload={"i": i}) for i in range(n)]


def cursor_in_view(table: DataTable) -> bool:
    """Whether the cursor's row is inside the table's visible rows (under its header)."""
    visible = table.scrollable_content_region.height - 1
    top = int(table.scroll_y)
    return top <= table.cursor_row < top + visible


def test_at_80x24_the_gate_panels_row_stays_in_view_when_its_detail_grows(repo):
    for i in range(1, 7):
        assert a2a("card", "add", str(write_card(repo, f"T-{i}")), cwd=repo).code == 0
    assert a2a("card", "ready", "T-4", cwd=repo).code == 0
    assert a2a("claim", "T-4", cwd=repo).code == 0   # its detail takes two lines here

    async def scenario():
        async with workbench(repo, size=(80, 24)) as (app, pilot, _seen):
            panel = app.query_one(GatePanel)
            panel.table.focus()
            for _ in range(3):
                await pilot.press("j")
                await pilot.pause(0.1)
            assert panel.selected_key == "T-4"
            await pilot.pause(0.3)
            assert cursor_in_view(panel.table), (panel.table.cursor_row, panel.table.scroll_y,
                                                 panel.table.scrollable_content_region)

    run(scenario())


def test_events_follow_again_once_the_user_leaves_the_panel(repo):
    append(repo, 20)

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            panel = app.query_one(EventsPanel)
            panel.table.focus()
            await pilot.press("k", "k")
            held = panel.selected_key
            more = append(repo, 2)
            await until(pilot, lambda: str(more[-1]) in panel.rows, what="new events")
            assert panel.selected_key == held
            assert "End follows" in str(panel.border_subtitle)
            # Done reading: the user goes to another panel; the tail is followed again.
            app.query_one(SessionsPanel).table.focus()
            more = append(repo, 2)
            await until(pilot, lambda: panel.selected_key == str(more[-1]),
                        what="the cursor on the newest event again")
            # The table scrolls to its cursor after the next refresh (DataTable), not with the
            # move itself: the row comes into view within a deadline.
            await until(pilot, lambda: cursor_in_view(panel.table),
                        what="the newest event in view")
            assert "End follows" not in str(panel.border_subtitle)

    run(scenario())


def test_esc_clears_a_kept_filter(repo):
    for sid in ("w1", "w2", "w3"):
        register_session(repo, sid)

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            panel = app.query_one(SessionsPanel)
            await pilot.press("slash", "w", "2", "enter")
            await until(pilot, lambda: panel.shown == {"w2"}, what="the filter kept")
            assert panel.table.has_focus
            await pilot.press("escape")
            await until(pilot, lambda: panel.shown == {"w1", "w2", "w3"},
                        what="the filter cleared")
            assert panel.filter_text == "" and not panel.filter_box.display

    run(scenario())


def test_enter_on_the_waiting_list_goes_to_the_thing(repo, as_):
    register_session(repo, "exec1", "executive")
    q = board.ask(as_("exec1", "executive"), "Ship it?", ["a=yes", "b=no"], "a", "why").id
    add_ready_card(repo, "T-1")
    add_ready_card(repo, "T-2")
    att = a2a("claim", "T-2", "--json", cwd=repo).json["attempt"]
    with store(repo) as s, s.write() as tx:
        tx.append("rejected", actor="gate", task="T-2", attempt=att,
                  payload=Rejected(first_failure="tests", passed=False))

    async def scenario():
        from a2a_tui.tui.screens.waiting import WaitingScreen

        async with workbench(repo) as (app, pilot, _seen):
            await until(pilot, lambda: len(app.waiting) == 2, what="two things waiting")
            await pilot.press("exclamation_mark")
            await until(pilot, lambda: isinstance(app.screen, WaitingScreen), what="the list")
            await pilot.press("j", "enter")  # the rejection: the Gate, on its card
            gate = app.query_one(GatePanel)
            await until(pilot, lambda: gate.table.has_focus, what="the Gate panel")
            assert gate.selected_key == "T-2"
            # Shown, the rejection counts as seen: the question is what is left.
            await until(pilot, lambda: len(app.waiting) == 1, what="the rejection seen")
            await pilot.press("exclamation_mark")
            await until(pilot, lambda: isinstance(app.screen, WaitingScreen), what="the list")
            await pilot.press("enter")      # the question: the Board, on it
            boardp = app.query_one(BoardPanel)
            await until(pilot, lambda: boardp.table.has_focus, what="the Board panel")
            assert boardp.selected_key == q

    run(scenario())


def test_a_modal_shows_its_own_keys_in_the_footer_with_ctrl_s_named_for_what_it_does(repo):
    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            await pilot.press("m")
            await until(pilot, lambda: app.screen.query(FooterKey), what="the editor's footer")
            await pilot.pause(0.2)
            keys = {(k.key_display, k.description) for k in app.screen.query(FooterKey)}
            assert ("^s", "Send") in keys and ("esc", "Cancel") in keys, keys
            assert not any(d == "Jump" for _, d in keys), keys

    run(scenario())


def test_the_comment_editor_calls_ctrl_s_keep():
    from a2a_tui.tui.screens.editor import CommentEditorScreen

    labels = {b.key: b.description for b in CommentEditorScreen.BINDINGS}
    assert labels["ctrl+s"] == "Keep"


def test_one_card_is_one_card(repo):
    add_ready_card(repo, "T-1")

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            assert app.query_one(GatePanel).border_subtitle == "1 card · 0 active"

    run(scenario())


def test_the_status_line_says_what_its_count_is_made_of(repo, as_):
    register_session(repo, "exec1", "executive")
    register_session(repo, "w1", state="waiting")
    for title in ("Ship it?", "Now or later?"):
        board.ask(as_("exec1", "executive"), title, ["a=yes", "b=no"], "a", "why")

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            await until(pilot, lambda: len(app.waiting) == 3, what="three things waiting")
            status = str(app.query_one("#status").render())
            assert "⚑ 2 questions, 1 pane (!)" in status, status
            assert app.query_one(BoardPanel).border_subtitle == "2 open"

    run(scenario())


def test_one_day_of_metrics_writes_each_bars_value_even_a_zero(repo):
    from a2a_tui.tui.screens.metrics import Chart, MetricsScreen

    add_ready_card(repo, "T-1")
    att = a2a("claim", "T-1", "--json", cwd=repo).json["attempt"]
    assert a2a("abandon", att, "--score", "boundary=2:ok", "--score", "taste=1:meh",
               cwd=repo).code == 0

    async def scenario():
        async with workbench(repo, size=(140, 44)) as (app, pilot, _seen):
            await pilot.press("M")
            await until(pilot, lambda: isinstance(app.screen, MetricsScreen)
                        and app.screen.shown_seq > 0, what="the metrics shown")
            await pilot.pause(0.3)
            drawn = {c.id: c.plt.build() for c in app.screen.query(Chart)}
            # One day, one attempt ended, none at the first pass: a bar of 0, said as "0%".
            assert "0%" in drawn["chart-first-pass"], drawn["chart-first-pass"]
            assert "2" in drawn["chart-scores"] and "1" in drawn["chart-scores"]
            assert "no rejection yet" in drawn["chart-rejections"]

    run(scenario())


def test_a_count_axis_of_the_metrics_has_whole_numbers(repo):
    """One rejection is not 0.37, 0.73, 1.10 of one: a count axis ticks whole numbers."""
    import re

    from a2a_tui.tui.screens.metrics import Chart, MetricsScreen

    async def scenario():
        async with workbench(repo, size=(140, 44)) as (app, pilot, _seen):
            await pilot.press("M")
            await until(pilot, lambda: isinstance(app.screen, MetricsScreen),
                        what="the metrics shown")
            chart = app.screen.query_one("#chart-rejections", Chart)
            chart.bars(["precheck", "tests"], [[1, 1]])
            await pilot.pause(0.1)
            drawn = chart.plt.build()
            assert not re.search(r"\d\.\d", drawn), drawn
            scores = app.screen.query_one("#chart-scores", Chart)
            scores.bars(["m-1"], [[2.5], [1.5]], names=("boundary", "taste"), top=3)
            assert "2.5" in scores.plt.build()     # a mean keeps its decimals on its bar

    run(scenario())


def test_the_scores_legend_is_in_the_charts_border_not_over_its_bars(repo):
    """Two series (boundary, taste): their names and colours go in the chart's border; a legend
    drawn inside the plot covered the bars under it."""
    from a2a_tui.tui.screens.metrics import Chart, MetricsScreen

    async def scenario():
        async with workbench(repo, size=(140, 44)) as (app, pilot, _seen):
            await pilot.press("M")
            await until(pilot, lambda: isinstance(app.screen, MetricsScreen),
                        what="the metrics shown")
            scores = app.screen.query_one("#chart-scores", Chart)
            scores.bars(["m-1", "m-2"], [[2.5, 3], [1.5, 3]], names=("boundary", "taste"),
                        top=3)
            await pilot.pause(0.1)
            drawn = scores.plt.build()
            assert "boundary" not in drawn and "taste" not in drawn, drawn
            title = str(scores.border_title)
            assert "boundary" in title and "taste" in title, title

    run(scenario())


def test_a_long_toast_keeps_its_title_and_first_lines_on_an_80x24_screen(repo):
    """Textual's toast is half the screen wide and as tall as its text, kept to the bottom: a
    message of a dozen lines grew off the top, its title and first lines (the reason) lost."""
    import html

    async def scenario():
        async with workbench(repo, size=(80, 24), notifications=True) as (app, pilot, _seen):
            app.notify("\n".join(f"line{i} " + "word " * 12 for i in range(1, 12)),
                       title="Refused-card", timeout=30)

            def shown() -> str:
                return html.unescape(app.export_screenshot()).replace("\u00a0", " ")

            await until(pilot, lambda: "line1 " in shown(), what="the toast drawn")
            await until(pilot, lambda: "Refused-card" in shown() and "line2 " in shown(),
                        timeout=5, what="the toast's title and first lines on screen")

    run(scenario())
