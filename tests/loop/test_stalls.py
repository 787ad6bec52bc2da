"""Stalls escalate, never kill: a demo agent thinks for 9 s without a signal; with the config's
thresholds for its CLI at 1.5 s and 4 s, the pane gets a hint at the first, a `pane_stalled`
event and a board finding at the second, and nothing touches the pane: its turn ends on its own
and the prompt it was given is the only one it ever took."""

from __future__ import annotations

import pytest

from tests.support import (
    dispatch,
    events,
    inject,
    prompts,
    rows,
    session,
    spawn,
    wait_state,
    wait_until,
    write_user_config,
)

pytestmark = pytest.mark.tmux

HINT_S, BOARD_S = 1.5, 4.0


def test_a_silent_busy_pane_gets_a_hint_then_a_board_item_and_is_left_alone(
        world, repo, tmux_socket, serve):
    write_user_config(world, f"[stall.demo]\nhint_after_s = {HINT_S}\n"
                             f"board_after_s = {BOARD_S}\n"
                             "[stall.claude]\nhint_after_s = 0.1\nboard_after_s = 0.2\n")
    serve()
    s = spawn(repo, tmux_socket)
    sid = s["session"]
    wait_state(repo, sid, "idle")
    n = inject(repo, sid, "think for a long time #delay=9")
    wait_until(lambda: dispatch(repo, n)["state"] == "delivered", what="the prompt taken")
    silent_from = session(repo, sid)["last_signal_ns"]

    [hint] = wait_until(lambda: events(repo, "pane_hint", session=sid), timeout=10,
                        what="the hint")
    assert hint.payload["why"] == "busy with no signal" and hint.payload["after_s"] == HINT_S
    assert hint.ts_ns - silent_from >= HINT_S * 1e9
    assert "no signal for 1.5 s" in session(repo, sid)["hint"]
    assert not events(repo, "pane_stalled")  # the demo CLI's thresholds, not Claude's

    [stall] = wait_until(lambda: events(repo, "pane_stalled", session=sid), timeout=10,
                         what="the stall")
    assert stall.ts_ns - silent_from >= BOARD_S * 1e9
    item = stall.payload["item"]
    [finding] = rows(repo, "SELECT kind, title, actor FROM board_items WHERE id = ?", (item,))
    assert finding == {"kind": "finding", "actor": "orchestrator",
                       "title": f"{sid} is busy with no signal for 4 s"}
    assert item in session(repo, sid)["hint"]

    # Untouched: the turn runs to its end, no key or text was sent, the stall is not repeated.
    wait_until(lambda: dispatch(repo, n)["state"] == "done", timeout=20,
               what="the turn ending on its own")
    assert prompts(repo, sid) == [dispatch(repo, n)["text"]]
    kinds = [e.kind for e in events(repo, session=sid)]
    assert kinds.count("dispatch_sending") == 1 and "pane_released" not in kinds
    assert len(events(repo, "pane_stalled")) == 1 and session(repo, sid)["hint"] is None
    assert session(repo, sid)["pane_pid"] == s["pid"]
