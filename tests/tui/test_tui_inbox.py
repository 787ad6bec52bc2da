"""Inbox panel (newest first, status words as written) and `m`, the message to the ideation
controller (a user input of kind message, approval or refusal, queued to its pane)."""

from __future__ import annotations

from textual.widgets import RadioButton, TextArea

from a2a_tui.collab import inbox
from a2a_tui.tui.messages import UserSaid
from a2a_tui.tui.panels.inbox import InboxPanel
from a2a_tui.tui.screens.detail import TextScreen
from a2a_tui.tui.screens.editor import EditorScreen
from tests.support import a2a, register_session, rows, write_card
from tests.tui.tui_support import of_type, run, until, workbench


def test_inbox_lists_entries_newest_first_with_their_status_words(repo, as_):
    assert a2a("card", "add", str(write_card(repo, "T-1")), cwd=repo).code == 0
    register_session(repo, "idea1", "ideation")
    register_session(repo, "exec1", "executive")
    idea, exe = as_("idea1", "ideation"), as_("exec1", "executive")
    inbox.post(idea, "assign", "Please run T-1", card="T-1")
    inbox.post(exe, "ack", "On it", ref="I-1")
    inbox.post(exe, "report", "T-1 integrated", card="T-1", status="BLOCKED", ref="I-1")

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            panel = app.query_one(InboxPanel)
            assert list(panel.rows) == ["I-3", "I-2", "I-1"]
            table = panel.table
            assert str(table.get_cell("I-3", "status")) == "BLOCKED"  # as written, never raised
            assert str(table.get_cell("I-1", "status")) == "acked"
            assert str(table.get_cell("I-1", "from")) == "ideation (idea1)"
            # A new entry appears on top while the app runs.
            inbox.post(idea, "revise", "Keep the change small", card="T-1")
            await until(pilot, lambda: list(panel.rows)[:1] == ["I-4"], what="I-4 on top")
            await pilot.press("tab", "tab")
            assert app.focused is table
            assert panel.selected_key == "I-3"  # the cursor stays on the entry it was on
            await pilot.press("k", "enter")
            screen = await until(pilot, lambda: isinstance(app.screen, TextScreen)
                                 and app.screen, what="the entry")
            assert "Keep the change small" in str(screen.text)

    run(scenario())


def test_m_sends_an_approval_to_the_ideation_controller(repo):
    register_session(repo, "idea1", "ideation")

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            await pilot.press("m")
            # The editor with its kinds drawn (on a busy machine the screen is there first).
            editor = await until(pilot, lambda: isinstance(app.screen, EditorScreen)
                                 and app.screen.query("#kind-approval") and app.screen,
                                 what="the editor")
            editor.query_one("#kind-approval", RadioButton).value = True
            editor.query_one(TextArea).insert("Yes, go ahead with T-1")
            await pilot.press("ctrl+s")
            await until(pilot, lambda: of_type(seen, UserSaid), what="said")
        [u] = rows(repo, "SELECT id, kind, text, source, to_session FROM user_inputs")
        assert (u["kind"], u["text"], u["source"], u["to_session"]) == (
            "approval", "Yes, go ahead with T-1", "tui", "idea1")
        [d] = rows(repo, "SELECT session, text FROM dispatches")
        assert d["session"] == "idea1" and u["id"] in d["text"] and "Yes, go ahead" in d["text"]

    run(scenario())


def test_m_without_a_live_ideation_session_records_the_message_only(repo):
    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            await pilot.press("m")
            editor = await until(pilot, lambda: isinstance(app.screen, EditorScreen)
                                 and app.screen, what="the editor")
            editor.query_one(TextArea).insert("Note to self")
            await pilot.press("ctrl+s")
            said = await until(pilot, lambda: of_type(seen, UserSaid), what="said")
            assert "no live ideation session" in said[0].summary
        assert [(u["kind"], u["to_session"]) for u in
                rows(repo, "SELECT kind, to_session FROM user_inputs")] == [("message", None)]
        assert rows(repo, "SELECT * FROM dispatches") == []

    run(scenario())
