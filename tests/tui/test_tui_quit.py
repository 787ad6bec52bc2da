"""Leaving the workbench: outside a2a's tmux session `q` has nothing to detach and asks to quit;
quitting for good asks first, says what stops, and stops the hosted orchestrator. `!` lists
what waits for the user and marks rejections as seen. An Esc and a key typed within tmux's
escape-time (one Alt-key) act as the two keys."""

from __future__ import annotations

import json

from textual.notifications import Notify

from a2a_tui.panes.orchestrator import lock_holder
from a2a_tui.payloads.sessions import UserCalled
from a2a_tui.payloads.verify import Rejected
from a2a_tui.repo import Repo
from a2a_tui.tui.panels.sessions import SessionsPanel
from a2a_tui.tui.screens.confirm import ConfirmScreen
from a2a_tui.tui.screens.editor import EditorScreen
from a2a_tui.tui.screens.waiting import WaitingScreen
from tests.support import events, register_session, rows, store
from tests.tui.tui_support import of_type, run, until, workbench


def test_q_outside_tmux_asks_and_quit_stops_the_hosted_orchestrator(repo, tmux_socket):
    async def scenario():
        async with workbench(repo, tmux_socket=tmux_socket, host=True) as (app, pilot, _seen):
            await until(pilot, lambda: lock_holder(Repo(repo)) is not None, what="hosting")
            await pilot.press("q")
            confirm = await until(pilot, lambda: isinstance(app.screen, ConfirmScreen)
                                  and app.screen, what="asked")
            text = str(confirm.text)
            assert "Stops: this workbench and the orchestrator hosted here" in text
            assert "Keeps running: the agents" in text
            await pilot.press("n")
            await until(pilot, lambda: not isinstance(app.screen, ConfirmScreen), what="kept")
            assert app.is_running and lock_holder(Repo(repo)) is not None
            await pilot.press("Q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asked")
            await pilot.press("y")
            await until(pilot, lambda: not app.is_running, what="the app gone")
        assert lock_holder(Repo(repo)) is None
        assert [e.payload["pid"] for e in events(repo, "orchestrator_stopped")]

    run(scenario())


def test_bang_lists_what_waits_and_marks_rejections_seen(repo):
    register_session(repo, "w1", state="waiting")
    with store(repo) as s, s.write() as tx:
        tx.append("rejected", actor="gate", attempt="T-1-a1",
                  payload=Rejected(first_failure="tests", passed=False))

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            await until(pilot, lambda: len(app.waiting) == 2, what="two things waiting")
            status = str(app.query_one("#status").render())
            assert "⚑ 1 pane, 1 rejection (!)" in status
            await pilot.press("exclamation_mark")
            shown = await until(pilot, lambda: isinstance(app.screen, WaitingScreen)
                                and app.screen, what="the list")
            texts = [w.text for w in shown.waiting]
            assert texts == ["w1 waits for you in its pane", "T-1-a1 rejected at tests"]
            await until(pilot, lambda: len(app.waiting) == 1, what="the rejection seen")
        [seen] = events(repo, "attention_seen")
        assert seen.payload["upto"] >= rows(repo, "SELECT MAX(seq) AS m FROM events"
                                            " WHERE kind = 'rejected'")[0]["m"]

    run(scenario())


def test_an_alt_key_from_tmux_is_esc_then_the_key(repo):
    register_session(repo, "w1")
    register_session(repo, "w2")

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            panel = app.query_one(SessionsPanel)
            await pilot.press("i")
            await until(pilot, lambda: isinstance(app.screen, EditorScreen), what="editor")
            await pilot.press("alt+j")  # Esc (closes the editor), then j (next row)
            await until(pilot, lambda: panel.selected_key == "w2", what="w2 selected")
            assert not isinstance(app.screen, EditorScreen)
        assert rows(repo, "SELECT * FROM dispatches") == []

    run(scenario())


def test_user_called_rings_once_per_call(repo):
    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            rung = []
            app.bell = lambda: rung.append(1)  # type: ignore[method-assign]
            with store(repo) as s, s.write() as tx:
                tx.append("user_called", actor="orchestrator", payload=UserCalled(
                    new=[{"key": "Q-1", "kind": "question", "ref": "Q-1",
                          "text": "Q-1 from exec1: Ship it?"}], count=1, called=["Q-1"]))
            await until(pilot, lambda: rung, what="the bell")
            with store(repo) as s, s.write() as tx:
                tx.append("note", actor="user", payload={"text": json.dumps({})})
            await until(pilot, lambda: app.last_seq == rows(
                repo, "SELECT MAX(seq) AS m FROM events")[0]["m"], what="the next read")
            assert rung == [1]

    run(scenario())


def test_ctrl_c_names_a2as_own_keys_for_leaving(repo):
    """Ctrl-C, pressed out of habit, says q detaches and Q quits (not Textual's ctrl+q)."""
    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            await pilot.press("ctrl+c")
            [note] = await until(pilot, lambda: of_type(seen, Notify), what="a notice")
            said = note.notification.message
            assert "q detaches" in said and "Q quits" in said and "ctrl+q" not in said, said
            assert app.is_running

    run(scenario())
