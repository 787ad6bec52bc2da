"""Sessions panel and its keys; each action is checked in the store (user input recorded, pause
flag set, dispatch queued), not only on the screen."""

from __future__ import annotations

from textual.notifications import Notify
from textual.widgets import TextArea

from a2a_tui.tui.messages import InjectionQueued, PaneJumped, PaneReleased, PanesPaused
from a2a_tui.tui.panels.sessions import SessionsPanel
from a2a_tui.tui.screens.editor import EditorScreen
from tests.support import enqueue, register_session, rows
from tests.support import tmux as tmux_on
from tests.tui.tui_support import of_type, run, until, workbench

NOW = 1_800_000_000 * 10**9


def inputs(repo) -> list[dict]:
    return rows(repo, "SELECT id, kind, text, source, to_session FROM user_inputs ORDER BY n")


def test_state_age_queue_and_hint_are_shown(repo):
    register_session(repo, "w1", state="busy", since_ns=NOW - 75 * 10**9,
                     hint="probably idle — release?")
    register_session(repo, "w2", state="waiting", since_ns=NOW - 5 * 10**9, paused=True)
    for i in range(2):
        enqueue(repo, "w2", f"prompt {i}")

    async def scenario():
        async with workbench(repo, now=lambda: NOW) as (app, _pilot, _seen):
            panel = app.query_one(SessionsPanel)
            table = panel.table
            assert str(table.get_cell("w1", "state")) == "busy 1m ?"
            assert str(table.get_cell("w2", "state")) == "waiting 5s"
            assert str(table.get_cell("w2", "flags")) == "⏸2"
            assert panel.rows["w2"].queue == 2
            assert "probably idle — release? (r releases)" in str(panel.detail(panel.rows["w1"]))

    run(scenario())


def test_p_pauses_and_resumes_the_selected_pane(repo):
    register_session(repo, "w1")
    register_session(repo, "w2")

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            panel = app.query_one(SessionsPanel)
            panel.select("w2")
            await pilot.press("p")
            await until(pilot, lambda: panel.rows["w2"].paused, what="w2 shown paused")
            assert rows(repo, "SELECT id, paused FROM sessions ORDER BY id") == [
                {"id": "w1", "paused": 0}, {"id": "w2", "paused": 1}]
            assert [e["kind"] for e in rows(repo, "SELECT kind FROM events WHERE kind LIKE"
                                            " 'pane_%'")] == ["pane_paused"]
            await pilot.press("p")
            await until(pilot, lambda: not panel.rows["w2"].paused, what="w2 resumed")
            assert [(u["kind"], u["text"], u["source"], u["to_session"]) for u in inputs(repo)] \
                == [("action", "pause w2", "tui", "w2"), ("action", "resume w2", "tui", "w2")]
            assert len(of_type(seen, PanesPaused)) == 2

    run(scenario())


def test_shift_p_pauses_every_pane_then_resumes_them_all(repo):
    register_session(repo, "w1")
    register_session(repo, "w2", paused=True)
    register_session(repo, "gone", state="exited")

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            panel = app.query_one(SessionsPanel)
            await pilot.press("P")
            await until(pilot, lambda: panel.rows["w1"].paused, what="all paused")
            assert {r["id"]: r["paused"] for r in rows(repo, "SELECT * FROM sessions")} == {
                "w1": 1, "w2": 1, "gone": 0}
            await pilot.press("P")
            await until(pilot, lambda: not panel.rows["w2"].paused, what="all resumed")
            assert {r["id"]: r["paused"] for r in rows(repo, "SELECT * FROM sessions")} == {
                "w1": 0, "w2": 0, "gone": 0}
            assert [u["text"] for u in inputs(repo)] == ["pause all", "resume all"]

    run(scenario())


def test_r_releases_a_busy_pane_and_refuses_an_idle_one(repo):
    register_session(repo, "w1", state="busy")
    register_session(repo, "w2", state="idle")

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            panel = app.query_one(SessionsPanel)
            await pilot.press("r")
            await until(pilot, lambda: panel.rows["w1"].state == "idle", what="w1 released")
            assert of_type(seen, PaneReleased)
            released = rows(repo, "SELECT session, payload FROM events WHERE kind ="
                            " 'pane_released'")
            assert [r["session"] for r in released] == ["w1"]
            assert [(u["kind"], u["text"]) for u in inputs(repo)] == [
                ("action", "release w1 (was busy)")]
            # An idle pane: the key is dimmed; pressed anyway, it says why and changes nothing.
            panel.select("w2")
            assert panel.check_action("release", ()) is None
            await pilot.press("r")
            note = await until(pilot, lambda: of_type(seen, Notify)[-1:], what="a notice")
            assert "w2 is already idle" in note[0].notification.message
            assert len(rows(repo, "SELECT * FROM events WHERE kind = 'pane_released'")) == 1
            assert len(inputs(repo)) == 1

    run(scenario())


def test_i_injects_a_multiline_prompt_recorded_as_the_users_message(repo):
    register_session(repo, "w1", state="busy")
    text = "first line\n\nthird line after a blank"

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            await pilot.press("i")
            editor = await until(pilot, lambda: isinstance(app.screen, EditorScreen)
                                 and app.screen, what="the editor")
            area = editor.query_one(TextArea)
            assert area.has_focus
            await pilot.press(*"first line", "enter", "enter", *"third line after a blank")
            assert area.text == text  # Enter is a new line, not "send"
            await pilot.press("ctrl+s")
            await until(pilot, lambda: of_type(seen, InjectionQueued), what="queued")
        [d] = rows(repo, "SELECT n, session, text, source, state FROM dispatches")
        assert d["session"] == "w1" and d["source"] == "user" and d["state"] == "queued"
        assert d["text"] == f"⟦主控 #{d['n']} · 用户⟧ {text}"
        [u] = inputs(repo)
        assert (u["kind"], u["text"], u["to_session"], u["source"]) == ("message", text, "w1",
                                                                       "tui")
        assert rows(repo, "SELECT record, dispatch FROM deliveries") == [
            {"record": u["id"], "dispatch": d["n"]}]

    run(scenario())


def test_escape_in_the_editor_sends_nothing(repo):
    register_session(repo, "w1")

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            await pilot.press("i")
            await until(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")
            await pilot.press(*"never mind", "escape")
            await until(pilot, lambda: not isinstance(app.screen, EditorScreen), what="closed")
        assert rows(repo, "SELECT * FROM dispatches") == [] and inputs(repo) == []

    run(scenario())


def test_enter_jumps_to_the_sessions_pane_in_tmux(repo, tmux_socket):
    def tmux(*args: str) -> str:
        return tmux_on(tmux_socket, *args).strip()

    tmux("new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sh")
    target = tmux("new-window", "-d", "-t", "s:", "-P", "-F", "#{pane_id}", "sh")
    assert tmux("display", "-p", "-t", "=s:", "#{pane_id}") != target
    register_session(repo, "w1", pane_id=target, socket=tmux_socket)

    async def scenario():
        async with workbench(repo, tmux_socket=tmux_socket) as (app, pilot, seen):
            await pilot.press("enter")
            await until(pilot, lambda: of_type(seen, PaneJumped), what="the jump")
        assert tmux("display", "-p", "-t", "=s:", "#{pane_id}") == target
        assert inputs(repo) == []  # navigation, not a decision: nothing recorded

    run(scenario())
