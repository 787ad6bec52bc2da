"""The workbench's forms on their own (the score form of integrate and abandon, the new-session
form): what Ctrl-S judges is what the screen shows, whatever the pace of the keys."""

from __future__ import annotations

from textual import events
from textual.app import App

from a2a_tui.settings import RoleDefaults
from a2a_tui.tui.screens.editor import Draft, EditorScreen
from a2a_tui.tui.screens.gate_forms import Scored, ScoreScreen
from a2a_tui.tui.screens.session_form import NewSessionScreen, SessionSpec
from tests.tui.tui_support import run, until


class FormApp(App[None]):
    """Nothing but one form, its answers kept."""

    def __init__(self, form) -> None:
        super().__init__()
        self.form = form
        self.answers: list = []

    def on_mount(self) -> None:
        self.push_screen(self.form, self.answers.append)


def burst(app: App, *keys: str) -> None:
    """Keys arriving in one read of the terminal, as from a fast typist on a busy machine: all
    in the app's queue before any field has handled the first one."""
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))


def test_ctrl_s_right_behind_typed_keys_judges_the_keys_typed():
    # The keys of each field arrive in one burst with the Ctrl-S behind the last: the form
    # sends what the fields hold once they have taken their keys, never "still empty" for a
    # field whose keys were still on their way (the seed's walk, under load).
    async def scenario():
        app = FormApp(ScoreScreen("Integrate T-1-a1", "both scores"))
        async with app.run_test() as pilot:
            form = await until(pilot, lambda: isinstance(app.screen, ScoreScreen)
                               and app.screen, what="the form")
            burst(app, "3", "tab", "o", "k", "tab", "2", "tab", "f", "i", "n", "e", "ctrl+s")
            problem = form.query_one(".problem")
            await until(pilot, lambda: app.answers or str(problem.render()),
                        what="the form's answer")
            return app.answers, str(problem.render())

    assert run(scenario()) == ([Scored(3, "ok", 2, "fine")], "")


def test_the_session_forms_ctrl_s_right_behind_typed_options_starts_with_them():
    def defaults(role: str, cli: str | None) -> RoleDefaults:
        return RoleDefaults(cli="demo", model="", effort="", options=())

    async def scenario():
        app = FormApp(NewSessionScreen(defaults, ["worker"], ["demo"], [], title="New session"))
        async with app.run_test() as pilot:
            await until(pilot, lambda: isinstance(app.screen, NewSessionScreen), what="form")
            # Role, CLI, model, effort: the options field is the fifth.
            burst(app, "tab", "tab", "tab", "tab", "-", "-", "x", "ctrl+s")
            await until(pilot, lambda: app.answers, what="the form's answer")
        return app.answers

    assert run(scenario()) == [SessionSpec(role="worker", cli="demo", model="", effort="",
                                           options=("--x",), attempt=None)]


def test_the_prompt_editors_ctrl_s_right_behind_typed_text_sends_all_of_it():
    async def scenario():
        app = FormApp(EditorScreen("Inject into w1", "a prompt"))
        async with app.run_test() as pilot:
            await until(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")
            burst(app, *"run the tests", "ctrl+s")
            await until(pilot, lambda: app.answers, what="the editor's answer")
        return app.answers

    assert run(scenario()) == [Draft("run the tests")]


def test_tabbing_back_into_a_filled_field_keeps_its_text_and_a_refused_digit_is_said():
    # Shift-Tab back into the boundary reason and one more key: it is added, never put in place
    # of the reason (no select-all on focus). A 7 in a score field is refused aloud.
    async def scenario():
        app = FormApp(ScoreScreen("Integrate T-1-a1", "both scores"))
        async with app.run_test() as pilot:
            form = await until(pilot, lambda: isinstance(app.screen, ScoreScreen)
                               and app.screen, what="the form")
            await pilot.press("3", "tab", *"in scope", "tab", "7")
            problem = str(form.query_one(".problem").render())
            assert "0, 1, 2 or 3" in problem and "7" in problem, problem
            await pilot.press("2", "tab", "shift+tab", "shift+tab", "!")
            return form.value("boundary-reason"), form.value("taste")

    assert run(scenario()) == ("in scope!", "2")


def test_a_check_without_its_own_timeout_says_the_gates_default_not_nones():
    from a2a_tui.tui.screens.gate import _check_line

    line = _check_line({"name": "hello", "command": "true", "blocking": True, "timeout_s": None})
    assert line == "hello: true (blocking, the gate's default timeout)"
    assert _check_line({"name": "t", "command": "x", "blocking": False, "timeout_s": 60}) == \
        "t: x (advisory, 60s)"
