"""The gate's decisions from the workbench, through the real gate in a real repository:
integrate asks both scores with reasons; abandon asks a score and a reason and is confirmed; a
refusal shows as one line with its code; `w` opens a shell in the worktree in a new tmux window."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from textual.notifications import Notify

from a2a_tui.tui.messages import AttemptAbandoned, AttemptIntegrated, WorktreeOpened
from a2a_tui.tui.screens.confirm import ConfirmScreen
from a2a_tui.tui.screens.gate_forms import ScoreScreen
from tests.support import a2a, commit_in, git, rows, wait_until
from tests.support import tmux as tmux_on
from tests.tui.test_tui_gate import ready_card
from tests.tui.test_tui_gate_views import claim, focus_gate, submit_and_verify
from tests.tui.tui_support import of_type, run, until, workbench


async def fill(pilot, *values: str) -> None:
    """Type each value into the form's fields in turn (Tab between them)."""
    for i, value in enumerate(values):
        if i:
            await pilot.press("tab")
        await pilot.press(*value)


def verified(repo: Path) -> tuple[dict, str]:
    ready_card(repo, "T-1")
    c = claim(repo, "T-1")
    sha = submit_and_verify(repo, c, {"src/app.py": "def name(n):\n    return n or 'anon'\n"})
    assert rows(repo, "SELECT state FROM attempts")[0]["state"] == "verified"
    return c, sha


def test_integrate_asks_both_scores_with_reasons_then_moves_the_target(repo):
    c, sha = verified(repo)
    before = git(repo, "rev-parse", "main")

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            await focus_gate(pilot, app, "T-1")
            await pilot.press("I")
            form = await until(pilot, lambda: isinstance(app.screen, ScoreScreen)
                               and app.screen, what="the score form")
            # Only one score given: nothing is sent, the form says what is missing.
            await fill(pilot, "3", "stayed in src")
            await pilot.press("ctrl+s")
            assert app.screen is form
            assert "still empty: taste, taste reason" in str(form.query_one(".problem")
                                                             .render())
            assert rows(repo, "SELECT COUNT(*) AS n FROM scores") == [{"n": 0}]
            # The cursor is on the first empty field; a score field takes 0-3 only.
            assert app.focused is form.query_one("#taste")
            await pilot.press("7", "2")
            assert form.value("taste") == "2"
            await pilot.press("tab", *"small and clear")
            await pilot.press("ctrl+s")
            done = await until(pilot, lambda: of_type(seen, AttemptIntegrated),
                               what="the integration")
            assert done[0].data["state"] == "integrated"
            assert f"integrated T-1-a1: main {before[:12]} → {sha[:12]}" in done[0].summary

    run(scenario())
    assert git(repo, "rev-parse", "main") == sha
    assert rows(repo, "SELECT state FROM attempts") == [{"state": "integrated"}]
    assert rows(repo, "SELECT outcome, boundary, boundary_reason, taste, taste_reason, actor"
                      " FROM scores") == [
        {"outcome": "integrated", "boundary": 3, "boundary_reason": "stayed in src",
         "taste": 2, "taste_reason": "small and clear", "actor": "user"}]
    assert rows(repo, "SELECT kind, text, source FROM user_inputs") == [
        {"kind": "action", "text": "integrate T-1-a1 (boundary 3, taste 2)", "source": "tui"}]


def test_an_integration_the_gate_refuses_shows_one_line_with_its_code(repo):
    c, sha = verified(repo)
    # main is checked out in the repository and has an uncommitted change the candidate
    # touches: the gate refuses and changes nothing.
    (repo / "src/app.py").write_text("local edit\n")
    before = git(repo, "rev-parse", "main")

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            await focus_gate(pilot, app, "T-1")
            await pilot.press("I")
            await until(pilot, lambda: isinstance(app.screen, ScoreScreen), what="the form")
            await fill(pilot, "2", "ok", "2", "ok")
            await pilot.press("ctrl+s")
            note = await until(pilot, lambda: [n for n in of_type(seen, Notify)
                                               if n.notification.severity == "error"],
                               what="the refusal")
            message = note[0].notification.message
            assert "\n" not in message and message.endswith("[main_worktree_dirty]")
            assert note[0].notification.title == "integrate T-1-a1"

    run(scenario())
    assert git(repo, "rev-parse", "main") == before
    assert rows(repo, "SELECT state FROM attempts") == [{"state": "verified"}]
    assert rows(repo, "SELECT COUNT(*) AS n FROM scores") == [{"n": 0}]


def test_integrate_is_dimmed_and_says_why_before_a_passing_verify(repo):
    ready_card(repo, "T-1")
    claim(repo, "T-1")

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            gate = await focus_gate(pilot, app, "T-1")
            assert gate.check_action("integrate", ()) is None
            await pilot.press("I")
            note = await until(pilot, lambda: of_type(seen, Notify), what="a notice")
            assert "T-1-a1 is claimed: only a verified candidate can be integrated" in \
                note[0].notification.message
            assert not isinstance(app.screen, ScoreScreen)

    run(scenario())


def test_abandon_asks_a_score_and_a_reason_and_is_confirmed(repo):
    ready_card(repo, "T-1")
    c = claim(repo, "T-1")
    commit_in(Path(c["worktree"]), {"src/app.py": "v = 2\n"})   # work to judge: scored

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            await focus_gate(pilot, app, "T-1")
            # Declined at the confirmation: nothing happens.
            await pilot.press("A")
            await until(pilot, lambda: isinstance(app.screen, ScoreScreen), what="the form")
            await fill(pilot, "1", "left scope", "1", "messy", "wrong approach")
            await pilot.press("ctrl+s")
            confirm = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                                  and app.screen, what="the confirmation")
            assert "reason: wrong approach" in str(confirm.text)
            await pilot.press("n")
            await until(pilot, lambda: not isinstance(app.screen, ConfirmScreen), what="closed")
            await pilot.pause(0.2)
            assert rows(repo, "SELECT state FROM attempts") == [{"state": "claimed"}]
            # Confirmed: abandoned, with the score and the reason.
            await pilot.press("A")
            await until(pilot, lambda: isinstance(app.screen, ScoreScreen), what="the form")
            await fill(pilot, "1", "left scope", "1", "messy", "wrong approach")
            await pilot.press("enter")       # Enter on the last field sends too
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirm")
            await pilot.press("y")
            await until(pilot, lambda: of_type(seen, AttemptAbandoned), what="the abandon")

    run(scenario())
    assert rows(repo, "SELECT state FROM attempts") == [{"state": "abandoned"}]
    assert rows(repo, "SELECT outcome, boundary, boundary_reason, taste, taste_reason"
                      " FROM scores") == [
        {"outcome": "abandoned", "boundary": 1, "boundary_reason": "left scope", "taste": 1,
         "taste_reason": "messy"}]
    ev = rows(repo, "SELECT json_extract(payload, '$.reason') AS reason FROM events"
                    " WHERE kind = 'abandoned'")
    assert ev == [{"reason": "wrong approach"}]
    assert [u["text"] for u in rows(repo, "SELECT text FROM user_inputs")] == [
        f"abandon {c['attempt']}: wrong approach"]


def test_an_untouched_attempt_is_abandoned_with_a_yes_and_no_score(repo):
    ready_card(repo, "T-1")
    claim(repo, "T-1")

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            await focus_gate(pilot, app, "T-1")
            await pilot.press("A")
            confirm = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                                  and app.screen, what="the question, with no score form")
            assert "nothing to score" in str(confirm.text)
            await pilot.press("y")
            await until(pilot, lambda: of_type(seen, AttemptAbandoned), what="the abandon")

    run(scenario())
    assert rows(repo, "SELECT state FROM attempts") == [{"state": "abandoned"}]
    assert rows(repo, "SELECT * FROM scores") == []


def test_w_opens_a_shell_in_the_worktree_in_a_new_tmux_window(repo, tmux_socket, monkeypatch,
                                                              tmp_path):
    # The workbench started as `.venv/bin/a2a up`, its bin folder not on the user's PATH: the
    # shell `w` opens has `a2a` all the same, and `a2a` there acts on this repository.
    bin_dir = str(Path(sys.executable).parent)
    monkeypatch.setenv("PATH", os.pathsep.join(
        p for p in os.environ["PATH"].split(os.pathsep) if p != bin_dir))
    ready_card(repo, "T-1")
    c = claim(repo, "T-1")

    async def scenario():
        async with workbench(repo, tmux_socket=tmux_socket) as (app, pilot, seen):
            await focus_gate(pilot, app, "T-1")
            await pilot.press("w")
            done = await until(pilot, lambda: of_type(seen, WorktreeOpened), what="the window")
            return done[0].data["pane"]

    pane = run(scenario())
    windows = tmux_on(tmux_socket, "list-panes", "-a", "-F",
                      "#{pane_id} #{window_name} #{pane_current_path}").splitlines()
    assert f"{pane} T-1-a1 {Path(c['worktree']).resolve()}" in windows
    said = tmp_path / "said"
    tmux_on(tmux_socket, "send-keys", "-t", pane, "-l",
            f"command -v a2a > {said}.tmp; a2a card list >> {said}.tmp 2>&1;"
            f" mv {said}.tmp {said}")
    tmux_on(tmux_socket, "send-keys", "-t", pane, "Enter")
    wait_until(said.exists, timeout=20, what="the shell's answer")
    lines = said.read_text().splitlines()
    assert lines[0] == os.path.join(bin_dir, "a2a"), lines
    assert "T-1" in "\n".join(lines[1:]) and "a2a init" not in said.read_text(), lines
    # Navigation, not a decision: no user input recorded.
    assert rows(repo, "SELECT COUNT(*) AS n FROM user_inputs") == [{"n": 0}]


def test_c_on_an_integrated_card_says_so_and_claims_only_on_yes(repo):
    c, sha = verified(repo)
    assert a2a("integrate", c["attempt"], "--score", "boundary=3:in", "--score",
               "taste=2:fine", cwd=repo).code == 0

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            await focus_gate(pilot, app, "T-1")
            await pilot.press("C")
            confirm = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                                  and app.screen, what="the question")
            assert "integrated by T-1-a1" in str(confirm.text)
            await pilot.press("n")
            assert rows(repo, "SELECT id FROM attempts") == [{"id": "T-1-a1"}]
            await pilot.press("C")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="again")
            await pilot.press("y")
            await until(pilot, lambda: len(rows(repo, "SELECT id FROM attempts")) == 2,
                        what="T-1-a2")

    run(scenario())
