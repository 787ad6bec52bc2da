"""Which CLI notifications mean the pane waits for the user (pure)."""

from __future__ import annotations

import pytest

from a2a_tui.panes.machine import Pane, apply
from a2a_tui.panes.signals import normalize


def note(ntype: str, source: str = "claude"):
    payload = {"session_id": "s", "hook_event_name": "Notification", "message": "m",
               "notification_type": ntype}
    return normalize(source, payload, ts_ns=10, session="w1")


@pytest.mark.parametrize("ntype", ["permission_prompt", "agent_needs_input",
                                   "elicitation_dialog", "elicitation_url_dialog",
                                   "worker_permission_prompt"])
def test_claude_notifications_that_need_the_user_make_a_busy_pane_waiting(ntype):
    out = apply(Pane(state="busy", busy_since_ns=5, in_flight=3), note(ntype), {3})
    assert out.pane.state == "waiting" and out.pane.in_flight == 3


def test_geminis_tool_permission_is_waiting_too():
    assert note("ToolPermission", "gemini").kind == "waiting"


@pytest.mark.parametrize("ntype", ["auth_success", "agent_completed", "elicitation_complete",
                                   "elicitation_response", None])
def test_informing_notifications_move_nothing(ntype):
    busy = Pane(state="busy", busy_since_ns=5, in_flight=3)
    out = apply(busy, note(ntype), {3})
    assert out.pane == busy and out.ignored
