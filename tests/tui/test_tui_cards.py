"""The loop started from the workbench (issue 28): N writes a card in $EDITOR (every problem
listed at once, e back into the editor), r makes it ready with the card shown, C claims it and
starts a session on the attempt that is given its task as its first prompt."""

from __future__ import annotations

import pytest

from a2a_tui.tui.panels.gate import GatePanel
from a2a_tui.tui.screens.cards import CardProblemsScreen
from a2a_tui.tui.screens.confirm import ConfirmScreen
from a2a_tui.tui.screens.session_form import NewSessionScreen
from tests.loop.test_cards_write import FILLED, editor_script
from tests.support import a2a, rows, write_user_config
from tests.tui.tui_support import run, until, workbench


@pytest.mark.tmux
def test_n_r_c_from_an_idea_to_a_worker_with_its_task(world, repo, tmp_path, tmux_socket,
                                                      monkeypatch):
    write_user_config(world, '[roles.worker]\ncli = "demo"\n')
    # The first edit leaves two fields empty; the second fills them.
    half = {k: v for k, v in FILLED.items() if "goal" in k or "non_goals" in k or "command" in k}
    monkeypatch.setenv("EDITOR", editor_script(tmp_path, half, "half"))

    async def scenario():
        async with workbench(repo, tmux_socket=tmux_socket) as (app, pilot, _seen):
            await pilot.press("N")
            screen = await until(pilot, lambda: isinstance(app.screen, CardProblemsScreen)
                                 and app.screen, what="the card's problems")
            assert len(screen.problems) == 2 and all("items must not be empty" in p
                                                     for p in screen.problems)
            assert rows(repo, "SELECT id FROM cards") == []
            monkeypatch.setenv("EDITOR", editor_script(tmp_path, FILLED, "full"))
            await pilot.press("e")
            gate = app.query_one(GatePanel)
            await until(pilot, lambda: gate.selected_key == "T-1" and gate.table.has_focus,
                        what="the new card on the Gate panel")
            card = rows(repo, "SELECT state, body FROM cards")[0]
            assert card["state"] == "draft"
            assert '"source_ticket": "U-' in card["body"]   # the user's input that added it

            await pilot.press("r")
            confirm = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                                  and app.screen, what="the card shown before ready")
            assert "src/hello.txt says hello" in str(confirm.text)
            await pilot.press("y")
            await until(pilot, lambda: gate.rows["T-1"].card_state == "ready", what="ready")

            await pilot.press("C")
            form = await until(pilot, lambda: isinstance(app.screen, NewSessionScreen)
                               and app.screen, what="the session form on the attempt")
            assert form.attempt == "T-1-a1" and form.role == "worker"
            await pilot.press("ctrl+s")
            [d] = await until(pilot, lambda: rows(
                repo, "SELECT session, text, attempt FROM dispatches"), timeout=30,
                what="the worker launched and given its task")
            assert d["session"] == "w1" and d["attempt"] == "T-1-a1"
            last = d["text"].splitlines()[-1]
            assert last == "a2a submit T-1-a1 --sha <SHA> --card-version 1 --fence 1", last
            assert rows(repo, "SELECT writer FROM attempts") == [{"writer": "session:w1"}]

    run(scenario())
    assert a2a("card", "show", "T-1", "--json", cwd=repo).json["state"] == "ready"


def test_a_card_that_is_not_toml_gets_the_edit_again_dialog_and_n_reopens_the_draft(
        repo, tmp_path, monkeypatch):
    """A quote left open is not TOML: the same dialog as for a field's problem (its line, `e`
    edit again, Esc keep it), never a fading toast; kept, the draft is what the next `N`
    opens, the text typed still in it."""
    broken = {'goal = ""': 'goal = "src/hello.txt says hello'}
    monkeypatch.setenv("EDITOR", editor_script(tmp_path, broken, "broken"))

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            await pilot.press("N")
            screen = await until(pilot, lambda: isinstance(app.screen, CardProblemsScreen)
                                 and app.screen, what="the dialog for a card that is not TOML")
            [problem] = screen.problems
            assert "not valid TOML" in problem and f"{screen.path}:" in problem, problem
            draft = screen.path
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, CardProblemsScreen),
                        what="the dialog closed")
            assert "src/hello.txt says hello" in draft.read_text()
            # The next N opens that draft: fixed there, it is added.
            monkeypatch.setenv("EDITOR", editor_script(
                tmp_path, {**FILLED, 'goal = "src/hello.txt says hello\n':
                           'goal = "src/hello.txt says hello"\n'}, "fixed"))
            await pilot.press("N")
            await until(pilot, lambda: rows(repo, "SELECT id FROM cards"), timeout=20,
                        what="the draft, fixed, added")
            assert not draft.exists()    # settled as T-1.toml

    run(scenario())
    body = rows(repo, "SELECT body FROM cards")[0]["body"]
    assert "src/hello.txt says hello" in body
