"""What the Gate panel opens, over real attempts in a real repository: the card, the attempt's
diff (a cursor line maps to its file and its line in the new file), the checks with each one's
output, and a check's whole log."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.widgets import DataTable, Static

from a2a_tui.tui.panels.gate import GatePanel
from a2a_tui.tui.screens.diff import DiffScreen, DiffView
from a2a_tui.tui.screens.gate import CardScreen, ChecksScreen
from a2a_tui.tui.screens.log import LogScreen, LogView
from tests.support import a2a, commit_in, rows
from tests.tui.test_tui_gate import ready_card
from tests.tui.tui_support import run, until, workbench

NOISY = "for i in $(seq 1 40); do echo out$i; done; echo broke >&2; exit 3"


def claim(repo: Path, card: str) -> dict:
    r = a2a("claim", card, "--json", cwd=repo)
    assert r.code == 0, r.err
    return r.json


def submit_and_verify(repo: Path, c: dict, files: dict[str, str]) -> str:
    sha = commit_in(Path(c["worktree"]), files)
    assert a2a("submit", c["attempt"], "--sha", sha, "--card-version", str(c["card_version"]),
               "--fence", str(c["fence"]), cwd=repo).code == 0
    a2a("verify", c["attempt"], cwd=repo)
    return sha


def shown(widget: Static) -> str:
    content = widget.render()
    return content.plain if isinstance(content, Text) else str(content)


async def focus_gate(pilot, app, card: str) -> GatePanel:
    gate = app.query_one(GatePanel)
    gate.table.focus()
    gate.select(card)
    await until(pilot, lambda: app.focused is gate.table, what="the Gate panel focused")
    return gate


async def open_diff(pilot, app) -> DiffScreen:
    await focus_gate(pilot, app, "T-1")
    await pilot.press("d")
    return await until(pilot, lambda: isinstance(app.screen, DiffScreen)
                       and app.screen.diff is not None and app.screen, what="the diff read")


def test_d_shows_the_diff_and_the_cursor_line_maps_to_file_and_new_line(repo):
    ready_card(repo, "T-1")
    c = claim(repo, "T-1")
    submit_and_verify(repo, c, {"src/app.py": "def name(n):\n    if not n:\n"
                                              "        raise ValueError('empty')\n"
                                              "    return n.strip()\n",
                                "tests/test_app.py": "from app import name\n"})

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            screen = await open_diff(pilot, app)
            view = screen.query_one(DiffView)
            title = shown(screen.query_one(".title", Static))
            assert f"start {c['start_commit'][:12]} → candidate 1" in title
            assert "2 file(s) +4 −1" in title
            # The cursor starts on the first file's header: no line of a new file there.
            assert view.cursor == 0 and view.cursor_target is None
            # Down to the raise: it is line 3 of the new src/app.py.
            while view.cursor_line.text != "+        raise ValueError('empty')":
                await pilot.press("down")
            assert view.cursor_target == ("src/app.py", 3)
            await pilot.press("up")
            assert view.cursor_target == ("src/app.py", 2)
            # The removed line is in no new file; the context line before it is line 1.
            await pilot.press("up")
            assert (view.cursor_line.kind, view.cursor_target) == ("del", None)
            await pilot.press("up")
            assert view.cursor_target == ("src/app.py", 1)
            # Its rendering: both line numbers, the sign, the code (coloured, same text).
            line = view.line_text(view.cursor + 3)
            assert line.plain.split() == ["3", "+", "raise", "ValueError('empty')"]
            assert any(span.style for span in line.spans)
            # n goes to the next file; End to the last line, which is in that file.
            await pilot.press("n")
            assert view.cursor_line.kind == "file" and view.cursor_line.path == \
                "tests/test_app.py"
            await pilot.press("end")
            assert view.cursor_target == ("tests/test_app.py", 1)
            await pilot.press("p")
            assert view.cursor_line.path == "src/app.py" and view.cursor == 0
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, DiffScreen), what="closed")

    run(scenario())


def test_the_diff_of_a_claimed_attempt_shows_its_branch_before_any_submission(repo):
    ready_card(repo, "T-1")
    c = claim(repo, "T-1")
    commit_in(Path(c["worktree"]), {"src/new.py": "x = 1\n"})

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            screen = await open_diff(pilot, app)
            assert "branch a2a/T-1-a1 (not submitted)" in shown(screen.query_one(".title"))
            assert screen.diff.files == ["src/new.py"]
            # one file: n and p say why they cannot move
            assert screen.why_disabled("next_file", ()) == "the diff has one file"

    run(scenario())


def test_enter_shows_each_checks_output_and_l_its_whole_log(repo):
    ready_card(repo, "T-1", check=NOISY)
    c = claim(repo, "T-1")
    submit_and_verify(repo, c, {"src/app.py": "v = 1\n"})
    log_path = rows(repo, "SELECT log_path FROM check_results WHERE name = 'tests'")[0]["log_path"]

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            await focus_gate(pilot, app, "T-1")
            await pilot.press("enter")
            screen = await until(pilot, lambda: isinstance(app.screen, ChecksScreen)
                                 and app.screen.outputs and app.screen, what="the outputs")
            table = screen.query_one(DataTable)
            # The cursor starts on the failed check; its tail shows under the table.
            assert table.get_row_at(table.cursor_row)[1] == "tests"
            tail = shown(screen.query_one("#tail", Static))
            assert "out40" in tail and "broke" in tail and "out1\n" not in tail
            assert f"log {log_path}" in tail
            # A structural check has no log: l says why, and no log screen opens.
            table.move_cursor(row=0)
            await pilot.pause()
            assert "precheck wrote no log" in screen.why_disabled("log", ())
            await pilot.press("l")
            assert isinstance(app.screen, ChecksScreen)
            table.move_cursor(row=[table.get_row_at(i)[1] for i in
                                   range(table.row_count)].index("tests"))
            await pilot.press("l")
            log = await until(pilot, lambda: isinstance(app.screen, LogScreen)
                              and app.screen.found is not None and app.screen, what="the log")
            view = log.query_one(LogView)
            assert view.lines == Path(log_path).read_text().rstrip("\n").split("\n")
            assert "out1" in view.lines                      # the whole log, from its start
            assert view.cursor == len(view.lines) - 1         # the cursor at its end
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, ChecksScreen), what="back")

    run(scenario())


def test_l_opens_the_failed_checks_log_straight_from_the_panel(repo):
    ready_card(repo, "T-1", check=NOISY)
    c = claim(repo, "T-1")
    submit_and_verify(repo, c, {"src/app.py": "v = 1\n"})

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            gate = await focus_gate(pilot, app, "T-1")
            assert "(l: its log)" in gate.detail(gate.rows["T-1"]).plain
            await pilot.press("l")
            log = await until(pilot, lambda: isinstance(app.screen, LogScreen)
                              and app.screen.found is not None and app.screen, what="the log")
            assert (log.found.check, log.found.run, log.found.passed) == ("tests", 1, False)
            assert "broke" in log.query_one(LogView).lines

    run(scenario())


def test_c_shows_the_card_in_full(repo):
    ready_card(repo, "T-1")
    claim(repo, "T-1")

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            await focus_gate(pilot, app, "T-1")
            await pilot.press("c")
            screen = await until(pilot, lambda: isinstance(app.screen, CardScreen)
                                 and "goal" in shown(app.screen.query_one("#card"))
                                 and app.screen, what="the card read")
            text = shown(screen.query_one("#card", Static))
            for part in ("T-1 · Refuse empty names", "version 1 · ready · fence 1",
                         "An empty name is refused with a clear message",
                         "No change to the storage format", "src/**, tests/**",
                         "tests: true (blocking, 60s)", "codex gpt-5-codex high",
                         "T-1-a1: claimed · fence 1 · writer user"):
                assert part in text, part

    run(scenario())
