"""A worker on a claimed card from the workbench (issue 37): the form starts on a CLI that is
installed here (the card's executor or the role's when installed, else the first real CLI on
PATH, else the demo agent), an uninstalled choice is refused with the way on (demo, the real
CLIs' how-to), and `C` on a card claimed with no session on it offers to start one."""

from __future__ import annotations

import os

from textual.widgets import Select, Static

from a2a_tui.tui.screens.session_form import NewSessionScreen
from tests.support import a2a, write_card
from tests.tui.test_tui_gate_views import focus_gate
from tests.tui.tui_support import run, until, workbench

NO_EXECUTOR = {"[executor]\ncli = \"codex\"\nmodel = \"gpt-5-codex\"\neffort = \"high\"\n": ""}


def card(repo, executor: bool = True) -> None:
    path = write_card(repo, "T-1")
    if not executor:
        text = path.read_text()
        for a, b in NO_EXECUTOR.items():
            text = text.replace(a, b)
        path.write_text(text)
    assert a2a("card", "add", str(path), cwd=repo).code == 0
    assert a2a("card", "ready", "T-1", cwd=repo).code == 0


def fake_cli(tmp_path, monkeypatch, name: str) -> None:
    """A program of that name on PATH (the form only looks for it)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / name).write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / name).chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")


async def claim_form(app, pilot) -> NewSessionScreen:
    await focus_gate(pilot, app, "T-1")
    await pilot.press("C")
    # The form drawn, its CLI field given its first value (a Select takes it once mounted).
    return await until(pilot, lambda: isinstance(app.screen, NewSessionScreen)
                       and app.screen.query("#cli") and cli_of(app.screen) != Select.NULL
                       and app.screen, what="the session form with its CLI")


def cli_of(form: NewSessionScreen):
    return form.query_one("#cli", Select).value


def test_with_no_cli_installed_the_form_starts_on_demo_and_refuses_an_uninstalled_one(repo):
    card(repo, executor=False)

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            form = await claim_form(app, pilot)
            assert cli_of(form) == "demo"
            form.query_one("#cli", Select).value = "claude"
            await pilot.press("ctrl+s")
            problem = form.query_one(".problem", Static)
            said = await until(pilot, lambda: str(problem.render()), what="the refusal")
            assert app.screen is form
            assert "claude is not installed here" in said and "demo" in said
            assert "docs/how-to/real-clis.md" in said

    run(scenario())


def test_the_form_starts_on_an_installed_cli_the_cards_executor_first(repo, tmp_path,
                                                                      monkeypatch):
    card(repo, executor=True)        # the card asks for codex
    fake_cli(tmp_path, monkeypatch, "gemini")

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            form = await claim_form(app, pilot)
            assert cli_of(form) == "gemini"     # codex is not installed: the one that is
            fake_cli(tmp_path, monkeypatch, "codex")
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, NewSessionScreen),
                        what="the form closed")
            # The card is claimed and has no session: C offers the form again.
            form = await claim_form(app, pilot)
            assert form.attempt == "T-1-a1" and cli_of(form) == "codex"

    run(scenario())
