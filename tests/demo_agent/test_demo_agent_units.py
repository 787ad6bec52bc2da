"""Pure parts of the demo agent: key decoding, matchers, settings, hook results, turns."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a2a_tui.demo_agent.codex import notify_payload
from a2a_tui.demo_agent.hooks import Handler, HookConfig, HookResult, HookRunner, interpret, matches
from a2a_tui.demo_agent.keys import Key, KeyDecoder
from a2a_tui.demo_agent.options import Options
from a2a_tui.demo_agent.screen import sanitize, wrap
from a2a_tui.demo_agent.turn import commands_in, new_turn, reply_text
from a2a_tui.errors import A2AError
from tests.support import wait_until


def decode(*chunks: bytes, flush: bool = True) -> list[Key]:
    d = KeyDecoder()
    keys = [k for c in chunks for k in d.feed(c)]
    return keys + (d.flush() if flush else [])


# ---- keys ------------------------------------------------------------------------------------

def test_paste_is_one_key_with_newlines_even_split_mid_marker():
    keys = decode(b"\x1b[20", b"0~one\rtwo\x1b[2", b"01~", b"\r")
    assert keys == [Key("paste", "one\rtwo"), Key("enter")]


def test_lone_esc_waits_for_more_bytes_then_is_esc():
    d = KeyDecoder()
    assert d.feed(b"\x1b") == [] and d.waiting_for_escape
    assert d.flush() == [Key("esc")]
    assert decode(b"\x1b\x1b[200~x\x1b[201~") == [Key("esc"), Key("paste", "x")]
    assert decode(b"\x1bx") == [Key("esc"), Key("text", "x")]


def test_control_keys_and_sequences():
    keys = decode(b"ab\x7f\x15\n\r\x04\x03\t\x1b[A\x1bOP\x01")
    assert [k.name for k in keys] == ["text", "backspace", "ctrl-u", "newline", "enter",
                                      "ctrl-d", "ctrl-c", "tab", "seq", "seq", "other"]


def test_invalid_utf8_becomes_replacement_chars_and_split_utf8_is_joined():
    assert decode(b"\xff") == [Key("text", "\ufffd")]
    assert decode("主".encode()[:2], "主".encode()[2:]) == [Key("text", "主")]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=8),
                          st.sampled_from([b"\x1b", b"\x1b[200~", b"\x1b[201~", b"\r", b"\n",
                                           b"\x1b[", b"\x1bO", "⟦主".encode()])),
                max_size=20),
       st.data())
def test_decoder_never_raises_and_read_boundaries_never_change_the_keys(parts, data):
    stream = b"".join(parts)
    whole = decode(stream)
    cut = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=5)))
    pieces = [stream[a:b] for a, b in zip([0, *cut], [*cut, len(stream)], strict=True)]
    split = decode(*pieces)
    # Text may be chunked differently; pastes and keys must be identical.
    def norm(keys):
        out = []
        for k in keys:
            if k.name == "text" and out and out[-1].name == "text":
                out[-1] = Key("text", out[-1].text + k.text)
            else:
                out.append(k)
        return out
    assert norm(split) == norm(whole)


# ---- matchers and settings ------------------------------------------------------------------

@pytest.mark.parametrize("matcher, value, expected", [
    (None, "Bash", True), ("", "Bash", True), ("*", "Bash", True),
    ("Bash", "Bash", True), ("Bash", "BashOutput", False),  # exact list, not a prefix
    ("Edit|Write", "Write", True), ("Edit, Bash", "Bash", True), ("Edit|Write", "Bash", False),
    ("Ba.*", "Bash", True), ("^Ba$", "Bash", False), ("sh", "Bash", False), ("s.$", "Bash", True),
    ("mcp__.*", "mcp__github__x", True), ("[", "Bash", False),  # bad regex matches nothing
    ("idle_prompt", "idle_prompt", True), ("idle_prompt", "permission_prompt", False),
])
def test_matcher_rules(matcher, value, expected):
    assert matches(matcher, value) is expected


def test_settings_parse_and_handler_selection():
    cfg = HookConfig.parse({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}]},
                       {"matcher": "Edit", "hooks": [{"type": "command", "command": "b"}]},
                       {"hooks": [{"type": "command", "command": "a"},
                                  {"type": "http", "url": "x"}]}],
        "Stop": [{"matcher": "ignored", "hooks": [{"type": "command", "command": "s",
                                                   "timeout": 5, "async": True}]}]}})
    assert [h.command for h in cfg.handlers_for("PreToolUse", {"tool_name": "Bash"})] == ["a"]
    assert [h.command for h in cfg.handlers_for("PreToolUse", {"tool_name": "Edit"})] == \
        ["b", "a"]
    stop = cfg.handlers_for("Stop", {})
    assert stop == [Handler("s", None, 5.0, True, False)]
    assert cfg.notes == ["PreToolUse: 'http' hooks are not run by the demo agent"]
    assert HookConfig.parse({"disableAllHooks": True, "hooks": {"Stop": []}}).groups == {}


@pytest.mark.parametrize("data", [
    [], {"hooks": []}, {"hooks": {"Stop": {}}}, {"hooks": {"Stop": [{"matcher": "x"}]}},
    {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": ""}]}]}},
    {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": -1}]}]}},
    {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "args": "y"}]}]}},
])
def test_bad_settings_are_refused(data):
    with pytest.raises(A2AError) as err:
        HookConfig.parse(data)
    assert err.value.code == "bad_settings"


def test_settings_inline_json_like_claude(tmp_path):
    cfg = HookConfig.load('{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}')
    assert [h.command for h in cfg.handlers_for("Stop", {})] == ["x"]


# ---- hook results -----------------------------------------------------------------------------

def res(code, out="", err="", error=None):
    return HookResult(Handler("h"), code, out, err, error)


def test_exit_codes_follow_claude_code():
    o = interpret("UserPromptSubmit", [res(0, "some context\n"), res(2, err="no\n")])
    assert o.blocked and o.reason == "no" and o.context == ["some context"]
    o = interpret("Notification", [res(2, err="why")])  # cannot block
    assert not o.blocked and o.notices == ["Notification hook: why"]
    o = interpret("Stop", [res(1, err="boom\nmore"), res(None, error="timed out after 1s")])
    assert not o.blocked
    assert o.notices == ["Stop hook error: h: boom", "Stop hook error: h: timed out after 1s"]
    assert interpret("Stop", [res(0, "plain text")]).context == []  # only UPS/SessionStart


def test_json_output():
    o = interpret("UserPromptSubmit", [res(0, json.dumps(
        {"decision": "block", "reason": "r",
         "hookSpecificOutput": {"additionalContext": "ctx"}}))])
    assert o.blocked and o.reason == "r" and o.context == ["ctx"]
    o = interpret("PreToolUse", [res(0, json.dumps(
        {"hookSpecificOutput": {"permissionDecision": "deny",
                                "permissionDecisionReason": "nope"}}))])
    assert o.blocked and o.reason == "nope"
    o = interpret("PermissionRequest", [res(0, json.dumps(
        {"hookSpecificOutput": {"decision": {"behavior": "allow"}}}))])
    assert o.decision == "allow" and not o.blocked
    assert interpret("Stop", [res(0, "{bad")]).notices == ["Stop hook printed invalid JSON"]


def test_async_hooks_do_not_block_and_sync_ones_get_stdin(tmp_path):
    done, seen = tmp_path / "async-done", tmp_path / "seen.json"
    cfg = HookConfig.parse({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": f"sleep 1; touch {done}", "async": True},
        {"type": "command", "command": f"cat > {seen}; pwd >> {seen}.cwd"}]}]}})
    runner = HookRunner(cfg, str(tmp_path), env={"PATH": "/usr/bin:/bin"})
    assert runner.run("Stop", {"hook_event_name": "Stop", "x": "ü"}).notices == []
    assert json.loads(seen.read_text()) == {"hook_event_name": "Stop", "x": "ü"}
    assert (tmp_path / "seen.json.cwd").read_text().strip() == str(tmp_path)
    assert not done.exists()  # the async hook is still running: run() did not wait for it
    wait_until(done.exists, what="the async hook finishes in the background")


# ---- turns ------------------------------------------------------------------------------------

def test_commands_skip_the_marker_and_take_every_bang_line():
    prompt = "⟦主控 #3⟧ !first\ntext\n  !second --x\n!\nnot !this"
    assert commands_in(prompt) == ["first", "second --x"]
    assert commands_in("⟦门禁 #12⟧\n!a") == ["a"]


def test_directives_override_flags():
    opts = Options(delay=0.3)
    t = new_turn("do it #delay=2.5 #ask", opts)
    assert (t.delay, t.ask, t.fail) == (2.5, True, False)
    t = new_turn("x#fail #failure", opts)  # words only
    assert (t.delay, t.fail) == (0.3, False)
    assert new_turn("a\n#fail", Options(ask_permission=True)).ask is True
    assert new_turn("a", opts).prompt_id != new_turn("a", opts).prompt_id


def test_reply_is_deterministic():
    t = new_turn("ab\ncd", Options())
    t.ran, t.declined = 2, 1
    assert reply_text(t) == "demo: got 5 chars, 2 lines; ran 2 commands, 1 declined"


def test_notify_payload_shape():
    p = json.loads(notify_payload("th", "tu", "/w", ["hi"], None))
    assert p == {"type": "agent-turn-complete", "thread-id": "th", "turn-id": "tu",
                 "cwd": "/w", "client": "codex-tui", "input-messages": ["hi"],
                 "last-assistant-message": None}


# ---- screen -----------------------------------------------------------------------------------

def test_sanitize_and_wrap():
    assert sanitize("a\x1b[2Jb\tc\x7f") == "a^[[2Jb c^?"  # tab stop counts what is shown
    assert wrap("主控主控", 5) == ["主控", "主控"]
    assert wrap("", 5) == [""]
