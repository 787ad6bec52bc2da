"""Gate panel: cards, attempts, and the per-check results of the last verify, live from the
store."""

from __future__ import annotations

from pathlib import Path

from textual.notifications import Notify
from textual.widgets import DataTable

from a2a_tui.tui.panels.gate import GatePanel
from a2a_tui.tui.screens.gate import ChecksScreen
from tests.gate.verify_support import checks_may_write
from tests.support import a2a, commit_in, rows, write_card
from tests.tui.tui_support import of_type, run, until, workbench


def ready_card(repo: Path, card: str, check: str = "true") -> None:
    assert a2a("card", "add", str(write_card(repo, card, check=check)), cwd=repo).code == 0
    assert a2a("card", "ready", card, cwd=repo).code == 0


def submit(repo: Path, card: str) -> str:
    r = a2a("claim", card, "--json", cwd=repo)
    assert r.code == 0, r.err
    c = r.json
    sha = commit_in(Path(c["worktree"]), {"src/app.py": "def name(n):\n    return n or None\n"})
    r = a2a("submit", c["attempt"], "--sha", sha, "--card-version", str(c["card_version"]),
            "--fence", str(c["fence"]), cwd=repo)
    assert r.code == 0, r.err
    return c["attempt"]


def test_gate_shows_each_card_its_attempt_and_the_last_verify_per_check(repo):
    ready_card(repo, "T-1")
    ready_card(repo, "T-2", check="echo broken >&2; exit 3")
    ready_card(repo, "T-3")
    for card in ("T-1", "T-2"):
        submit(repo, card)
        a2a("verify", f"{card}-a1", cwd=repo)

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            gate = app.query_one(GatePanel)
            assert list(gate.rows) == ["T-1", "T-2", "T-3"]
            t1, t2, t3 = (gate.rows[k] for k in ("T-1", "T-2", "T-3"))
            assert (t1.attempt, t1.attempt_state, t1.verify_state) == ("T-1-a1", "verified",
                                                                        "passed")
            assert (t2.attempt_state, t2.verify_state) == ("rejected", "rejected")
            assert t3.attempt is None and t3.card_state == "ready"
            # Every check of the chain, in order, as the store holds them.
            stored = rows(repo, "SELECT name, passed FROM check_results WHERE attempt_id ="
                          " 'T-2-a1' ORDER BY id")
            assert [(c.name, c.passed) for c in t2.checks] == [
                (r["name"], bool(r["passed"])) for r in stored]
            assert [c.name for c in t2.checks if not c.passed and not c.skipped] == ["tests"]
            # What follows a blocking failure did not run: shown as not run, not as failed.
            assert [c.name for c in t2.checks if c.skipped] == ["per-test"]
            # The table shows the verdicts; Enter on T-2 opens the per-check screen.
            table = gate.table
            assert "✓" in str(table.get_cell("T-1", "verify"))
            assert "✗" in str(table.get_cell("T-2", "verify"))
            table.focus()
            gate.select("T-2")
            await pilot.press("enter")
            screen = await until(pilot, lambda: isinstance(app.screen, ChecksScreen)
                                 and app.screen, what="the checks screen")
            checks = screen.query_one(DataTable)
            names = [checks.get_row_at(i)[1] for i in range(checks.row_count)]
            assert names == [r["name"] for r in stored]
            failed = next(i for i in range(checks.row_count)
                          if checks.get_row_at(i)[1] == "tests")
            assert checks.get_row_at(failed)[4] == "3"  # the exit code
            assert checks.cursor_row == failed   # the cursor starts on the failure
            marks = {checks.get_row_at(i)[1]: str(checks.get_row_at(i)[0])
                     for i in range(checks.row_count)}
            assert (marks["tests"], marks["per-test"]) == ("✗", "-")
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, ChecksScreen),
                        what="the checks screen closed")

    run(scenario())


def test_gate_follows_the_store_without_a_key_press(repo):
    ready_card(repo, "T-1")

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            gate = app.query_one(GatePanel)
            assert gate.rows["T-1"].attempt is None
            # Another process claims the card: the panel shows the attempt on its own.
            assert a2a("claim", "T-1", cwd=repo).code == 0
            await until(pilot, lambda: gate.rows["T-1"].attempt_state == "claimed",
                        what="the claim to show")

    run(scenario())


def test_a_disabled_gate_action_says_why_and_changes_nothing(repo):
    ready_card(repo, "T-1")

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            gate = app.query_one(GatePanel)
            gate.table.focus()
            gate.select("T-1")
            assert gate.check_action("verify", ()) is None  # dimmed in the footer
            await pilot.press("v")
            note = await until(pilot, lambda: of_type(seen, Notify), what="a notice")
            assert "T-1 has no attempt yet" in note[0].notification.message
            await pilot.press("enter")
            await until(pilot, lambda: len(of_type(seen, Notify)) > 1, what="a second notice")
            assert "no attempt" in of_type(seen, Notify)[1].notification.message
        assert rows(repo, "SELECT kind FROM events WHERE kind LIKE 'verify%'") == []

    run(scenario())


def test_v_verifies_in_a_worker_and_the_app_answers_keys_meanwhile(repo, tmp_path, world):
    checks_may_write(world, tmp_path)      # the check reads the test's word there
    gate_file = tmp_path / "open-the-gate"
    # The check waits until the test lets it finish: the verify is surely running meanwhile.
    ready_card(repo, "T-1", check=f"while [ ! -e {gate_file} ]; do sleep 0.02; done")
    ready_card(repo, "T-2")
    attempt = submit(repo, "T-1")

    async def scenario():
        from a2a_tui.tui.messages import VerifyFinished

        async with workbench(repo) as (app, pilot, seen):
            gate = app.query_one(GatePanel)
            gate.table.focus()
            gate.select("T-1")
            await pilot.press("v")
            await until(pilot, lambda: gate.rows["T-1"].verify_state == "running",
                        what="the verify to run")
            # The UI thread is free while the check runs: keys move the cursor at once.
            await pilot.press("j")
            assert gate.selected_key == "T-2"
            await pilot.press("k")
            assert gate.selected_key == "T-1"
            gate_file.touch()
            done = await until(pilot, lambda: of_type(seen, VerifyFinished), what="the verdict")
            assert done[0].data["passed"] is True
            await until(pilot, lambda: gate.rows["T-1"].verify_state == "passed",
                        what="the panel to show it")
        assert rows(repo, "SELECT state FROM verifications WHERE attempt_id = ?",
                    (attempt,)) == [{"state": "passed"}]
        assert rows(repo, "SELECT kind, text, source FROM user_inputs") == [
            {"kind": "action", "text": f"verify {attempt}", "source": "tui"}]

    run(scenario())


def test_a_submission_makes_a_toast_that_says_what_to_do(repo):
    ready_card(repo, "T-1")
    c = a2a("claim", "T-1", "--json", cwd=repo).json

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            sha = commit_in(Path(c["worktree"]), {"src/app.py": "v = 3\n"})
            assert a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1",
                       "--fence", str(c["fence"]), cwd=repo).code == 0
            notes = await until(pilot, lambda: [n.notification.message for n in
                                                of_type(seen, Notify)
                                                if "submitted" in n.notification.message],
                                what="the toast")
            assert c["attempt"] in notes[0] and "`v`" in notes[0], notes

    run(scenario())
