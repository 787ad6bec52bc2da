"""Events panel: a live tail of the log; the store is read again only where it changed."""

from __future__ import annotations

import json

from textual.widgets import Static

from a2a_tui.payloads.dispatch import DispatchQueued, DispatchSent
from a2a_tui.payloads.sessions import Signal
from a2a_tui.tui.messages import StoreRead
from a2a_tui.tui.panels.events import EventsPanel
from a2a_tui.tui.queries import EVENTS_TAIL
from a2a_tui.tui.screens.detail import TextScreen
from tests.support import a2a, store, write_card
from tests.tui.tui_support import of_type, run, until, workbench


def append(repo, n: int, kind: str = "test_note") -> list[int]:
    with store(repo) as s, s.write() as tx:
        return [tx.append(kind, actor="test", payload={"i": i}) for i in range(n)]


def test_events_tail_follows_new_events_and_keeps_the_last_ones(repo):
    append(repo, EVENTS_TAIL + 50)

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            panel = app.query_one(EventsPanel)
            with store(repo) as s:
                last = s.last_seq()
            # The tail only: the first frame does not read the whole log.
            assert len(panel.rows) == EVENTS_TAIL
            assert list(panel.rows)[-1] == str(last)
            panel.table.focus()
            assert panel.selected_key == str(last)  # the cursor sits on the newest
            new = append(repo, 3)
            await until(pilot, lambda: str(new[-1]) in panel.rows, what="new events shown")
            assert len(panel.rows) == EVENTS_TAIL
            assert panel.selected_key == str(new[-1])  # and it followed them
            # Moved away from the tail, the cursor stays where the user put it.
            await pilot.press("k", "k")
            held = panel.selected_key
            more = append(repo, 2)
            await until(pilot, lambda: str(more[-1]) in panel.rows, what="more events shown")
            assert panel.selected_key == held
            # Enter shows the whole event.
            await pilot.press("enter")
            screen = await until(pilot, lambda: isinstance(app.screen, TextScreen)
                                 and app.screen, what="the event screen")
            shown = str(screen.query_one(Static).render())
            assert json.loads(shown)["seq"] == int(held)

    run(scenario())


def test_a_change_rereads_only_the_panels_it_can_touch(repo):
    card = write_card(repo, "T-1")
    assert a2a("card", "add", str(card), cwd=repo).code == 0

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            before = len(of_type(seen, StoreRead))
            assert a2a("card", "ready", "T-1", cwd=repo).code == 0
            reads = await until(pilot, lambda: of_type(seen, StoreRead)[before:],
                                what="a read after the change")
            snap = reads[0].snapshot
            assert [e.kind for e in snap.events] == ["card_ready"]
            assert snap.gate is not None and snap.gate[0].card_state == "ready"
            assert (snap.sessions, snap.board, snap.inbox) == (None, None, None)

    run(scenario())


def test_c_confirms_text_typed_into_a_pane_as_the_users(repo):
    # Pane input (what the orchestrator records when a prompt no dispatch matches is
    # submitted) authorizes nothing until the user confirms it (collab/authorization.py).
    from a2a_tui.collab.user_input import record_user_input_in_tx
    from a2a_tui.tui.messages import PaneInputConfirmed

    with store(repo) as s, s.write() as tx:
        uid = record_user_input_in_tx(tx, "message", "go ahead", source="pane",
                                      to_session="w1")
    append(repo, 1)          # the cursor starts on a note: nothing to confirm there

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            panel = app.query_one(EventsPanel)
            panel.table.focus()
            assert panel.why_disabled("confirm_input", ()) is not None
            await pilot.press("k")
            assert panel.selected.kind == "user_input"
            assert panel.why_disabled("confirm_input", ()) is None
            await pilot.press("c")
            await until(pilot, lambda: of_type(seen, PaneInputConfirmed), what="confirmed")

    run(scenario())
    with store(repo) as s:
        row = s.one("SELECT * FROM user_inputs WHERE ref = ?", (uid,))
    assert (row["kind"], row["source"]) == ("action", "tui")


def test_a_prompts_steps_are_folded_into_sentences_and_a_shows_them(repo):
    """Seven rows a prompt used to make: queued and finished are said as sentences, the steps
    between are folded until `a`; Enter still opens the event itself."""
    with store(repo) as s, s.write() as tx:
        queued = tx.append("dispatch_queued", actor="user", session="w1",
                           payload=DispatchQueued(n=14, source="user", text="hi"))
        steps = [tx.append("dispatch_sent", actor="orchestrator", session="w1",
                           payload=DispatchSent(n=14, pane="%0",
                                                enter_ns=1796527418050214218)),
                 tx.append("signal", actor="session:w1", session="w1",
                           payload=Signal(kind="tool", event="PreToolUse",
                                          detail={"tool_name": "Bash"}))]
        done = tx.append("signal", actor="session:w1", session="w1",
                         payload=Signal(kind="stop", finished=14, event="Stop"))

    async def scenario():
        async with workbench(repo) as (app, pilot, _seen):
            panel = app.query_one(EventsPanel)
            await until(pilot, lambda: str(done) in panel.shown, what="the events")
            assert {str(q) for q in (queued, done)} <= panel.shown
            assert not {str(q) for q in steps} & panel.shown
            said = [str(panel.table.get_row(str(done))[-1])]
            assert said == ["w1 finished prompt #14"], said
            assert "enter_ns" not in "".join(str(c) for k in panel.shown
                                             for c in panel.table.get_row(k))
            panel.table.focus()
            await pilot.press("a")
            await until(pilot, lambda: {str(q) for q in steps} <= panel.shown,
                        what="the steps shown")
            await pilot.press("a")
            await until(pilot, lambda: not {str(q) for q in steps} & panel.shown,
                        what="folded again")
            await pilot.press("end", "enter")
            screen = await until(pilot, lambda: isinstance(app.screen, TextScreen)
                                 and app.screen, what="the event itself")
            assert json.loads(str(screen.query_one(Static).render()))["payload"]["finished"] == 14

    run(scenario())
