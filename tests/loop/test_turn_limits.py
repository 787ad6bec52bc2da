"""Rule 5 (seed 000 07, "运行 300 秒给出软提醒；连续 360 秒没有 Cursor 事件就停止 ... 1800 秒是绝对
上限"): a turn busy `remind_after_s` gets a reminder on the board, once; a turn with no signal
from its CLI for `stop_after_s`, or busy `cap_s` whatever it signals, is stopped with the CLI's
interrupt key (the demo agent: Esc, as Claude Code) and recorded, without recording an end
a2a did not see: the pane stays busy until a signal or the user says otherwise. The demo agent
with small limits, on the test's private tmux server."""

from __future__ import annotations

import pytest

from tests.support import (
    dispatch,
    events,
    holds_for,
    inject,
    rows,
    session,
    spawn,
    tmux,
    wait_state,
    wait_until,
    write_user_config,
)

pytestmark = pytest.mark.tmux


def started(world, repo, tmux_socket, serve, limits: str, prompt: str):
    write_user_config(world, f"[stall.demo]\n{limits}")
    serve()
    s = spawn(repo, tmux_socket)
    wait_state(repo, s["session"], "idle")
    n = inject(repo, s["session"], prompt)
    wait_until(lambda: dispatch(repo, n)["state"] == "delivered", what="the prompt taken")
    return s, n


def shown(tmux_socket, pane) -> str:
    return tmux(tmux_socket, "capture-pane", "-p", "-t", pane)


def test_a_silent_turn_is_reminded_then_stopped_with_its_clis_key(
        world, repo, tmux_socket, serve):
    s, n = started(world, repo, tmux_socket, serve, "remind_after_s = 0.5\nstop_after_s = 1.5\n",
                   "think for a long time #delay=30")
    sid, pane = s["session"], s["pane"]
    busy_since = session(repo, sid)["busy_since_ns"]
    [reminded] = wait_until(lambda: events(repo, "turn_reminded", session=sid), timeout=10,
                            what="the reminder")
    assert reminded.ts_ns - busy_since >= 0.5e9 and reminded.payload["after_s"] == 0.5
    [item] = rows(repo, "SELECT kind, title FROM board_items WHERE id = ?",
                  (reminded.payload["item"],))
    assert item["kind"] == "finding" and sid in item["title"]
    [stopped] = wait_until(lambda: events(repo, "turn_stopped", session=sid), timeout=10,
                           what="the stop")
    p = stopped.payload
    assert (p["why"], p["keys"], p["sent"], p["limit_s"]) == ("silent", ["Escape"], True, 1.5)
    assert stopped.ts_ns - max(busy_since, session(repo, sid)["last_signal_ns"]) >= 1.5e9
    assert p["ended"] is None and "revive" in p["resume"]   # not observed, never claimed
    wait_until(lambda: "Interrupted" in shown(tmux_socket, pane), what="the demo interrupted")
    assert session(repo, sid)["state"] == "busy" and dispatch(repo, n)["state"] == "delivered"
    assert "stopped" in session(repo, sid)["hint"]
    holds_for(lambda: len(events(repo, "turn_stopped", "turn_reminded")) == 2, 1.0,
              what="one stop and one reminder per turn")


def test_a_turn_that_keeps_signalling_is_stopped_at_its_cap(world, repo, tmux_socket, serve):
    tools = "\n".join(["!sleep 0.3"] * 40)
    s, _ = started(world, repo, tmux_socket, serve, "stop_after_s = 5\ncap_s = 2\n",
                   f"run the tools\n{tools}")
    sid, pane = s["session"], s["pane"]
    [stopped] = wait_until(lambda: events(repo, "turn_stopped", session=sid), timeout=15,
                           what="the cap")
    assert stopped.payload["why"] == "cap" and stopped.payload["limit_s"] == 2
    tool_signals = [e for e in events(repo, "signal", session=sid)
                    if e.payload["event"] == "PreToolUse"]
    assert len(tool_signals) >= 3   # it was signalling all along: the cap, not the silence
    wait_until(lambda: "Interrupted" in shown(tmux_socket, pane), what="the demo interrupted")
    assert not events(repo, "turn_reminded")   # no reminder asked for


def test_without_limits_nothing_touches_the_turn(world, repo, tmux_socket, serve):
    s, n = started(world, repo, tmux_socket, serve, "", "think a while #delay=1")
    wait_until(lambda: dispatch(repo, n)["state"] == "done", timeout=15, what="its own end")
    assert not events(repo, "turn_stopped", "turn_reminded")
    assert "Interrupted" not in shown(tmux_socket, s["pane"])
