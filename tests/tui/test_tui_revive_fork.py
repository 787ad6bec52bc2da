"""Revive (v) and fork (f) from the Sessions panel, with real tmux and a demo agent, the
orchestrator hosted by the app: the demo agent keeps no conversation, so a revive starts it
afresh and says so, and a fork is refused with its reason; each is the user's input from the TUI.
On the real CLIs' own conversations: tests/real_cli/test_real_session_revive.py."""

from __future__ import annotations

import pytest

from a2a_tui.tui.messages import SessionForked, SessionRevived, UserActionRefused
from a2a_tui.tui.panels.sessions import SessionsPanel
from tests.support import a2a, events, rows
from tests.tui.tui_support import of_type, run, until, workbench

pytestmark = pytest.mark.tmux


def test_v_revives_an_exited_session_afresh_where_the_cli_cannot_resume_and_f_says_why_not(
        repo, tmux_socket):
    r = a2a("spawn", "worker", "--cli", "demo", "--tmux-socket", tmux_socket, "--json", "--",
            "--delay", "0.05", cwd=repo)
    assert r.code == 0, r.err
    sid = r.json["session"]
    assert a2a("session", "end", sid, "--yes", cwd=repo).code == 0

    async def scenario():
        async with workbench(repo, tmux_socket=tmux_socket, host=True) as (app, pilot, seen):
            panel = app.query_one(SessionsPanel)
            await until(pilot, lambda: sid in panel.rows and panel.rows[sid].state == "exited",
                        what=f"{sid} exited")
            panel.table.focus()
            panel.select(sid)
            await pilot.press("v")
            [done] = await until(pilot, lambda: of_type(seen, SessionRevived), timeout=30,
                                 what="revived")
            assert "started afresh: the demo agent cannot resume" in done.summary
            await until(pilot, lambda: panel.rows[sid].state == "idle", timeout=20,
                        what="the revived session idle")
            await pilot.press("f")
            [refused] = await until(pilot, lambda: of_type(seen, UserActionRefused),
                                    timeout=20, what="the fork refused")
            assert refused.code == "cannot_fork" and not of_type(seen, SessionForked)

    run(scenario())
    assert [u["text"] for u in rows(repo, "SELECT text FROM user_inputs WHERE source = 'tui'"
                                          " ORDER BY n")] == [f"revive {sid}"]
    first, again = events(repo, "session_launching", session=sid)
    assert again.payload["restarts"] == first.seq and "revive_refused" in again.payload
