"""The pure state machine and signal normalization, case by case."""

from __future__ import annotations

import pytest

from a2a_tui.panes import machine
from a2a_tui.panes.machine import PROBABLY_IDLE, Pane
from a2a_tui.panes.signals import MalformedSignal, normalize, parse


def sig(payload, ts=100, source="claude"):
    return normalize(source, payload, ts_ns=ts, session="w1")


@pytest.mark.parametrize("payload,kind", [
    ({"hook_event_name": "SessionStart", "source": "startup"}, "start"),
    ({"hook_event_name": "UserPromptSubmit", "prompt": "x"}, "prompt"),
    ({"hook_event_name": "BeforeAgent", "prompt": "x"}, "prompt"),
    ({"hook_event_name": "PreToolUse"}, "tool"),
    ({"hook_event_name": "AfterTool"}, "tool"),
    ({"hook_event_name": "PermissionRequest"}, "waiting"),
    ({"hook_event_name": "Notification", "notification_type": "permission_prompt"}, "waiting"),
    ({"hook_event_name": "Notification", "notification_type": "ToolPermission"}, "waiting"),
    ({"hook_event_name": "Notification", "notification_type": "idle_prompt"}, "idle_hint"),
    ({"hook_event_name": "Notification", "notification_type": "auth_success"}, "other"),
    ({"hook_event_name": "Interrupt"}, "idle_hint"),
    ({"hook_event_name": "Stop"}, "stop"),
    ({"hook_event_name": "StopFailure", "error": "rate_limit"}, "stop"),
    ({"hook_event_name": "AfterAgent"}, "stop"),
    ({"hook_event_name": "SubagentStop"}, "other"),
    ({"hook_event_name": "SessionEnd", "reason": "other"}, "end"),
    ({"type": "agent-turn-complete", "thread-id": "t", "input-messages": ["hi"]}, "stop"),
])
def test_events_map_to_kinds(payload, kind):
    assert sig(payload).kind == kind


def test_parse_rejects_what_is_not_a_signal():
    for raw in (b"[]", b'{"ts_ns":1,"session":"w1","source":"x","payload":{}}',
                b'{"ts_ns":"1","session":"w1","source":"claude","payload":{}}',
                b'{"ts_ns":1,"session":"w1","source":"claude","payload":{"no":"event"}}'):
        with pytest.raises(MalformedSignal):
            parse(raw)


def test_stop_older_than_the_enter_does_not_release():
    busy = machine.sent(Pane(state="idle"), 7, enter_ns=1000)
    assert machine.apply(busy, sig({"hook_event_name": "Stop"}, ts=999), {7}).pane.state == "busy"
    out = machine.apply(busy, sig({"hook_event_name": "Stop"}, ts=1001), {7})
    assert (out.pane.state, out.finished) == ("idle", 7)


def test_a_hint_never_releases_and_release_clears_the_box_next_time():
    busy = machine.sent(Pane(state="idle"), 1, enter_ns=10)
    hinted = machine.apply(busy, sig({"hook_event_name": "Notification",
                                      "notification_type": "idle_prompt"}, ts=20), {1}).pane
    assert (hinted.state, hinted.hint) == ("busy", PROBABLY_IDLE)
    assert not machine.can_deliver(hinted)
    released = machine.release(hinted)
    assert machine.can_deliver(released) and released.needs_clear
    assert not machine.sent(released, 2, 30).needs_clear


def test_session_end_for_clear_goes_on_and_compact_start_does_not_idle():
    busy = machine.sent(Pane(state="idle"), 1, enter_ns=10)
    assert machine.apply(busy, sig({"hook_event_name": "SessionEnd", "reason": "clear"}, 20),
                         {1}).pane.state == "busy"
    assert machine.apply(busy, sig({"hook_event_name": "SessionStart", "source": "compact"}, 20),
                         {1}).pane.state == "busy"
    assert machine.apply(busy, sig({"hook_event_name": "SessionEnd", "reason": "logout"}, 20),
                         {1}).pane.state == "exited"


def test_codex_thread_is_learned_from_the_first_genuine_turn():
    title = sig({"type": "agent-turn-complete", "thread-id": "T",
                 "input-messages": ["Generate a concise, single-line task title for: x"]})
    p = Pane(state="busy", busy_since_ns=1)
    assert machine.apply(p, title, set()).ignored == "codex title-generation turn"
    out = machine.apply(p, sig({"type": "agent-turn-complete", "thread-id": "A",
                                "input-messages": ["⟦主控 #4⟧ go"]}), {4})
    assert (out.pane.thread_id, out.pane.state, out.confirmed) == ("A", "idle", 4)
    other = sig({"type": "agent-turn-complete", "thread-id": "B", "input-messages": ["y"]})
    assert machine.apply(out.pane, other, set()).ignored == "another codex thread (B)"


def test_a_prompt_with_someone_elses_marker_is_the_users():
    out = machine.apply(Pane(state="idle"), sig({"hook_event_name": "UserPromptSubmit",
                                                 "prompt": "⟦主控 #99⟧ copied"}), {1})
    assert out.user_input == "⟦主控 #99⟧ copied" and out.confirmed is None


def test_a_codex_notify_records_no_user_input_when_its_prompt_was_signalled():
    """Codex with a UserPromptSubmit hook: the typed prompt was recorded when it was submitted;
    the notify that ends its turn (its input again) must not record it a second time."""
    typed = sig({"type": "agent-turn-complete", "thread-id": "A", "input-messages": ["hi"]})
    busy = Pane(state="busy", busy_since_ns=1, thread_id="A")
    assert machine.apply(busy, typed, set()).user_input == "hi"
    out = machine.apply(busy, typed, set(), prompts_signalled=True)
    assert out.user_input is None and out.pane.state == "idle"
    ours = sig({"type": "agent-turn-complete", "thread-id": "A", "input-messages": ["⟦主控 #4⟧"]})
    assert machine.apply(busy, ours, {4}, prompts_signalled=True).confirmed == 4
