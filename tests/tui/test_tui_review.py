"""The review screen (`R` in the Gate panel): an attempt's reviews, its current commit's blocking
issues and dispositions, approvals; its keys start a review, dispose of an issue, override and
approve, each recorded as the user's input (source tui). Real store, real tmux for the launch.
"""

from __future__ import annotations

from pathlib import Path

from textual.notifications import Notify
from textual.widgets import DataTable, RadioButton, TextArea

from a2a_tui.tui.messages import IntegrationApproved, ReviewIssueDisposed, ReviewStarted
from a2a_tui.tui.panels.gate import GatePanel
from a2a_tui.tui.screens.editor import EditorScreen
from a2a_tui.tui.screens.review import ReviewScreen, StartReviewScreen
from tests.support import (
    a2a,
    add_ready_card,
    commit_in,
    give_verdict,
    review_report,
    rows,
    start_review,
)
from tests.tui.tui_support import of_type, run, until, workbench

TWO = review_report("fail", issues=[("B1", "Empty names are accepted", ["src/app.py:1"]),
                                    ("B2", "No test for it", ["src/app.py:2"])])


def submitted(repo: Path, verify: bool = True) -> tuple[str, str]:
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    sha = commit_in(Path(c["worktree"]), {"src/app.py": "def name(n):\n    return n or 0\n"})
    assert a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
               str(c["fence"]), cwd=repo).code == 0
    if verify:
        assert a2a("verify", c["attempt"], cwd=repo).code == 0
    return c["attempt"], sha


async def open_reviews(app, pilot) -> ReviewScreen:
    gate = app.query_one(GatePanel)
    gate.table.focus()
    gate.select("T-1")
    await pilot.press("R")
    screen = await until(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen,
                         what="the review screen")
    await until(pilot, lambda: screen.state is not None, what="the review state")
    return screen


def test_the_review_screen_shows_issues_and_its_keys_decide(world, repo):
    add_ready_card(repo, extra='integrate_approval = "user"')
    attempt, sha = submitted(repo)
    rid = start_review(repo, world.sock, attempt).json["session"]
    assert give_verdict(repo, rid, attempt, sha, TWO).code == 0

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            screen = await open_reviews(app, pilot)
            runs = screen.query_one("#runs", DataTable)
            assert runs.get_row_at(0)[:4] == [f"{attempt}-s1", "0", sha[:12], "reported"]
            assert str(runs.get_row_at(0)[4]) == "fail"
            issues = screen.query_one("#issues", DataTable)
            assert [issues.get_row_at(i)[0] for i in range(issues.row_count)] == ["B1", "B2"]
            assert screen.state.blocked[0] == "review_undisposed"
            # d: the highlighted issue (B2), rejected with a reason.
            issues.move_cursor(row=1)
            await pilot.press("d")
            editor = await until(pilot, lambda: isinstance(app.screen, EditorScreen)
                                 and app.screen, what="the disposition editor")
            editor.query_one("#kind-reject", RadioButton).value = True
            editor.query_one(TextArea).text = "covered by B1"
            await pilot.press("ctrl+s")
            await until(pilot, lambda: of_type(seen, ReviewIssueDisposed), what="the disposition")
            await until(pilot, lambda: str(issues.get_row_at(1)[3]) == "reject",
                        what="the screen to show it")
            # a: the approval, bound to the SHA; it shows, and stale it would say so.
            await pilot.press("a")
            await until(pilot, lambda: of_type(seen, IntegrationApproved), what="the approval")
            await until(pilot, lambda: screen.state.approvals, what="the approval to show")
            assert screen.state.approvals[0].state == "fits"
            assert screen.state.blocked[0] == "review_undisposed"   # B1 still open
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, ReviewScreen), what="closed")
        assert rows(repo, "SELECT issue, decision, reason FROM review_dispositions") == [
            {"issue": "B2", "decision": "reject", "reason": "covered by B1"}]
        assert rows(repo, "SELECT kind, source, attempt FROM user_inputs ORDER BY n") == [
            {"kind": "action", "source": "tui", "attempt": attempt},
            {"kind": "approval", "source": "tui", "attempt": attempt}]
        assert rows(repo, "SELECT sha FROM approvals") == [{"sha": sha}]

    run(scenario())


def test_s_starts_a_review_and_a_key_that_cannot_act_says_why(world, repo):
    add_ready_card(repo)
    attempt, sha = submitted(repo, verify=False)

    async def scenario():
        async with workbench(repo, tmux_socket=world.sock) as (app, pilot, seen):
            screen = await open_reviews(app, pilot)
            await pilot.press("a")          # not verified: nothing to approve
            note = await until(pilot, lambda: of_type(seen, Notify), what="a notice")
            assert "approve a verified candidate" in note[0].notification.message
            await pilot.press("s")
            chooser = await until(pilot, lambda: isinstance(app.screen, StartReviewScreen)
                                  and app.screen, what="the CLI chooser")
            chooser.query_one("#cli-demo", RadioButton).value = True
            await pilot.press("ctrl+s")
            done = await until(pilot, lambda: of_type(seen, ReviewStarted), timeout=60,
                               what="the reviewer's launch")
            assert done[0].data["sha"] == sha
            await until(pilot, lambda: screen.state.runs and screen.state.runs[0].state
                        == "running", what="the review to show as running")
            await pilot.press("s")          # one review per commit at a time
            await until(pilot, lambda: len(of_type(seen, Notify)) > 2, what="a second notice")
            assert any("under way" in n.notification.message for n in of_type(seen, Notify))
        run_row = rows(repo, "SELECT session, state, checkout FROM review_runs")[0]
        assert run_row["state"] == "running"
        assert rows(repo, "SELECT role, cwd, cli FROM sessions") == [
            {"role": "reviewer", "cwd": run_row["checkout"], "cli": "demo"}]
        assert rows(repo, "SELECT text, source FROM user_inputs") == [
            {"text": f"start a review of {attempt} with demo", "source": "tui"}]

    run(scenario())
