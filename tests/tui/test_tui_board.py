"""Board panel and its keys: answers are user inputs; two or more answers to one asker go back
as ONE prompt (s sends a batch early); a single answer goes at once."""

from __future__ import annotations

from textual.notifications import Notify
from textual.widgets import TextArea

from a2a_tui.collab import board
from a2a_tui.tui.messages import BoardAnswersSent, BoardItemAnswered
from a2a_tui.tui.panels.board import BoardPanel
from a2a_tui.tui.screens.detail import QuestionScreen
from a2a_tui.tui.screens.editor import EditorScreen
from tests.support import register_session, rows
from tests.tui.tui_support import of_type, run, until, workbench


def ask(as_, title: str, session: str = "exec1", *options: str) -> str:
    c = as_(session, "executive")
    opts = list(options) or ["a=Keep it small", "b=Do it all now"]
    return board.ask(c, title, opts, opts[0].split("=")[0], f"why {title}").id


def dispatches(repo, session: str = "exec1") -> list[dict]:
    return rows(repo, "SELECT n, text, source FROM dispatches WHERE session = ? ORDER BY n",
                (session,))


def answers(repo) -> list[dict]:
    return rows(repo, "SELECT u.id, u.kind, u.text, u.option_key, u.ref, u.source FROM"
                " user_inputs u JOIN board_records r ON r.user_input = u.id ORDER BY u.n")


def test_a_question_shows_its_options_recommendation_and_why(repo, as_):
    register_session(repo, "exec1", "executive")
    q = ask(as_, "Which style?", "exec1", "a=Short", "b=Long", "c=Both")
    board.report(as_("w1", "worker"), "Flaky test", "tests/x fails one run in ten")

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            panel = app.query_one(BoardPanel)
            assert list(panel.rows) == [q, "F-1"]  # questions first
            await pilot.press("tab")
            text = str(panel.detail(panel.rows[q]))
            for line in (" 1  a: Short  ★ recommended", " 2  b: Long", " 3  c: Both",
                         "why: why Which style?"):
                assert line in text
            await pilot.press("enter")
            screen = await until(pilot, lambda: isinstance(app.screen, QuestionScreen)
                                 and app.screen, what="the question")
            assert screen.box_title.startswith(f"{q} · ") and str(screen.content) == text
            await pilot.press("escape")

    run(scenario())


def test_a_single_open_question_answered_with_a_digit_goes_at_once(repo, as_):
    register_session(repo, "exec1", "executive")
    q = ask(as_, "Ship it?")

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            await pilot.press("tab", "2")
            await until(pilot, lambda: of_type(seen, BoardItemAnswered), what="the answer")
            await until(pilot, lambda: app.query_one(BoardPanel).rows[q].status == "answered",
                        what="Q shown answered")
        [u] = answers(repo)
        assert (u["kind"], u["option_key"], u["ref"], u["source"]) == ("choice", "b", q, "tui")
        [d] = dispatches(repo)
        assert d["source"] == "board" and u["id"] in d["text"] and q in d["text"]

    run(scenario())


def test_two_answers_to_one_asker_go_back_as_one_prompt(repo, as_):
    register_session(repo, "exec1", "executive")
    q1, q2 = ask(as_, "First?"), ask(as_, "Second?")

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            panel = app.query_one(BoardPanel)
            await pilot.press("tab")
            panel.select(q1)
            await pilot.press("a")  # adopt the recommendation: held, Q2 still open
            await until(pilot, lambda: panel.rows[q1].held, what="Q1 held")
            assert dispatches(repo) == []
            panel.select(q2)
            await pilot.press("1")  # the last open one: the batch goes
            await until(pilot, lambda: len(of_type(seen, BoardItemAnswered)) == 2, what="Q2")
            await until(pilot, lambda: not panel.rows[q1].held, what="the batch sent")
        a1, a2 = answers(repo)
        assert a1["kind"] == "choice" and a1["text"].endswith("(the recommendation)")
        [d] = dispatches(repo)  # ONE prompt carrying both answers
        assert a1["id"] in d["text"] and a2["id"] in d["text"]
        assert rows(repo, "SELECT record, dispatch FROM deliveries ORDER BY record") == [
            {"record": a1["id"], "dispatch": d["n"]}, {"record": a2["id"], "dispatch": d["n"]}]

    run(scenario())


def test_s_sends_the_held_answers_once_before_every_question_is_answered(repo, as_):
    register_session(repo, "exec1", "executive")
    q1, q2, q3 = ask(as_, "One?"), ask(as_, "Two?"), ask(as_, "Three?")

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            panel = app.query_one(BoardPanel)
            await pilot.press("tab")
            assert panel.check_action("send", ()) is None  # nothing held yet
            for q in (q1, q2):
                panel.select(q)
                await pilot.press("1")
                await until(pilot, lambda q=q: panel.rows[q].held, what=f"{q} held")
            assert dispatches(repo) == []
            await pilot.press("s")
            await until(pilot, lambda: of_type(seen, BoardAnswersSent), what="the batch")
            await until(pilot, lambda: not panel.rows[q2].held, what="nothing held")
            [batch] = dispatches(repo)
            await pilot.press("s")  # nothing left to send: says so, sends nothing
            await until(pilot, lambda: any("no answers are held" in n.notification.message
                                           for n in of_type(seen, Notify)), what="a notice")
            panel.select(q3)
            await pilot.press("2")  # the last one alone: at once, its own prompt
            await until(pilot, lambda: len(dispatches(repo)) == 2, what="Q3 sent")
        a1, a2, a3 = answers(repo)
        batch, single = dispatches(repo)
        assert a1["id"] in batch["text"] and a2["id"] in batch["text"]
        assert a3["id"] not in batch["text"] and a3["id"] in single["text"]
        assert a1["id"] not in single["text"]

    run(scenario())


def test_t_writes_a_free_answer_and_disabled_picks_say_why(repo, as_):
    register_session(repo, "exec1", "executive")
    q = ask(as_, "Anything else?")
    board.report(as_("w1", "worker"), "Docs out of date", "README mentions a removed flag")

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            panel = app.query_one(BoardPanel)
            await pilot.press("tab")
            await pilot.press("3")  # only two options
            note = await until(pilot, lambda: of_type(seen, Notify), what="a notice")
            assert f"{q} has 2 options" in note[0].notification.message
            panel.select("F-1")
            await pilot.press("a")
            await until(pilot, lambda: len(of_type(seen, Notify)) == 2, what="a notice")
            assert "F-1 is a finding" in of_type(seen, Notify)[1].notification.message
            assert answers(repo) == []
            panel.select(q)
            await pilot.press("t")
            editor = await until(pilot, lambda: isinstance(app.screen, EditorScreen)
                                 and app.screen, what="the editor")
            editor.query_one(TextArea).insert("Neither: wait for the release")
            await pilot.press("ctrl+s")
            await until(pilot, lambda: of_type(seen, BoardItemAnswered), what="answered")
        [u] = answers(repo)
        assert (u["kind"], u["text"], u["option_key"]) == ("answer",
                                                           "Neither: wait for the release", None)
        assert len(dispatches(repo)) == 1

    run(scenario())


def test_digits_answer_from_the_open_question_too(repo, as_):
    register_session(repo, "exec1", "executive")
    q = ask(as_, "Pick one", "exec1", "x=Ex", "y=Why")

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            await pilot.press("tab", "enter")
            await until(pilot, lambda: isinstance(app.screen, QuestionScreen), what="opened")
            await pilot.press("2")
            await until(pilot, lambda: of_type(seen, BoardItemAnswered), what="answered")
            assert not isinstance(app.screen, QuestionScreen)
        [u] = answers(repo)
        assert (u["ref"], u["option_key"]) == (q, "y")

    run(scenario())
