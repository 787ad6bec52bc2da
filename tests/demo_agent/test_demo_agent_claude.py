"""The demo agent speaks Claude Code's hook protocol, driven through a real tmux pane."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support import holds_for, wait_until

pytestmark = pytest.mark.tmux

BASE_FIELDS = {"session_id", "transcript_path", "cwd", "hook_event_name"}


def test_session_start_prompt_and_stop_payloads_in_order(start_agent):
    agent = start_agent("--model", "demo-model-1", "--delay", "0.1")
    agent.submit("hello there")
    stop = agent.wait_event("Stop")
    start, ups = agent.wait_event("SessionStart"), agent.wait_event("UserPromptSubmit")
    assert agent.names() == ["SessionStart", "UserPromptSubmit", "Stop"]

    for ev in (start, ups, stop):
        assert BASE_FIELDS <= ev.keys()
        assert ev["session_id"] == agent.session_id
        assert ev["cwd"] == str(agent.workdir)
    # Claude Code 2.1.332 sends permission_mode with a turn's events, not with SessionStart.
    assert "permission_mode" not in start
    assert ups["permission_mode"] == stop["permission_mode"] == "default"
    assert start["source"] == "startup" and start["model"] == "demo-model-1"
    assert "prompt_id" not in start
    assert ups["prompt"] == "hello there"
    # One prompt_id for every event of a turn (newer Claude Code).
    assert ups["prompt_id"] == stop["prompt_id"]
    assert stop["stop_hook_active"] is False
    assert stop["last_assistant_message"] == "demo: got 11 chars, 1 line; ran 0 commands"

    # The transcript is a real JSONL file holding the turn.
    lines = [json.loads(x) for x in Path(ups["transcript_path"]).read_text().splitlines()]
    assert [x["type"] for x in lines] == ["user", "assistant"]
    assert lines[0]["message"]["content"] == "hello there"
    assert lines[1]["message"]["content"][0]["text"] == stop["last_assistant_message"]

    # Hooks inherit the agent's environment (TMUX_PANE) and have no controlling terminal.
    for pane, tty, _ in agent.records():
        assert pane == agent.pane
        assert tty == "notty"


def test_multiline_paste_is_one_prompt(start_agent):
    agent = start_agent("--delay", "0")
    text = "first line\nsecond line\n\nfourth, after a blank"
    agent.submit(text)
    stop = agent.wait_event("Stop")
    ups = agent.events("UserPromptSubmit")
    assert [u["prompt"] for u in ups] == [text]
    assert stop["last_assistant_message"].startswith(f"demo: got {len(text)} chars, 4 lines")


def test_typed_text_ctrl_j_and_backspace_edit_the_box(start_agent):
    agent = start_agent("--delay", "0")
    agent.type("abcX")
    agent.keys("BSpace", "C-j")
    agent.type("def")
    agent.keys("Enter")
    assert agent.wait_event("UserPromptSubmit")["prompt"] == "abc\ndef"


def test_esc_interrupt_fires_no_hook_and_puts_the_prompt_back(start_agent):
    agent = start_agent()
    agent.submit("long job #delay=1")
    agent.wait_event("UserPromptSubmit")
    agent.keys("Escape")
    screen = agent.wait_screen("Interrupted")
    # The interrupted prompt is back in the input box (REAL_CLIS.md).
    assert "> long job #delay=1" in screen.split("Interrupted")[1]

    # What releases a pane after an interrupt must clear the box: Ctrl-U, then the new prompt.
    agent.keys("C-u")
    agent.submit("fresh prompt\nsecond line #delay=1.5")
    stop = agent.wait_event("Stop")
    # The interrupted turn would have ended (1 s) before this one (1.5 s): it never did.
    assert [u["prompt"] for u in agent.events("UserPromptSubmit")] == [
        "long job #delay=1", "fresh prompt\nsecond line #delay=1.5"]
    assert len(agent.events("Stop")) == 1 and not agent.events("StopFailure")
    assert stop["prompt_id"] == agent.events("UserPromptSubmit")[1]["prompt_id"]


def test_after_esc_a_paste_merges_with_the_restored_prompt(start_agent):
    agent = start_agent()
    agent.submit("old prompt #delay=5")
    agent.wait_event("UserPromptSubmit")
    agent.keys("Escape")
    agent.wait_screen("Interrupted")
    agent.submit("new text")
    ups = agent.wait_event("UserPromptSubmit", count=2)
    # Appended at the cursor, no separator: exactly the merge an injector must avoid.
    assert ups["prompt"] == "old prompt #delay=5new text"


def test_bang_lines_run_in_the_agents_process_tree(start_agent):
    agent = start_agent("--delay", "0")
    chain = agent.workdir / "chain.txt"
    walk = ("!p=$$; while [ \"$p\" -gt 1 ]; do echo $p; "
            "p=$(sed 's/.*) [A-Za-z] //' /proc/$p/stat | cut -d' ' -f1); done > chain.txt")
    agent.submit(f"⟦主控 #3⟧\nplease run these\n{walk}\n!pwd\n!echo oops >&2; exit 3")
    stop = agent.wait_event("Stop")

    ancestors = [int(x) for x in chain.read_text().split()]
    assert agent.pid in ancestors[1:], (agent.pid, ancestors)
    assert agent.names() == ["SessionStart", "UserPromptSubmit",
                             "PreToolUse", "PostToolUse",
                             "PreToolUse", "PostToolUse",
                             "PreToolUse", "PostToolUseFailure", "Stop"]
    pres, posts = agent.events("PreToolUse"), agent.events("PostToolUse")
    assert [p["tool_input"]["command"] for p in pres] == [walk[1:], "pwd",
                                                          "echo oops >&2; exit 3"]
    assert all(p["tool_name"] == "Bash" for p in pres + posts)
    assert [p["tool_use_id"] for p in posts] == [p["tool_use_id"] for p in pres[:2]]
    assert posts[1]["tool_response"]["stdout"] == f"{agent.workdir}\n"
    assert posts[1]["tool_response"]["interrupted"] is False
    fail = agent.events("PostToolUseFailure")[0]
    assert fail["tool_use_id"] == pres[2]["tool_use_id"]
    assert fail["error"].startswith("Exit code 3") and "oops" in fail["error"]
    assert stop["last_assistant_message"].endswith("ran 3 commands")


def test_the_prompt_file_its_commands_read_goes_with_the_agent(start_agent):
    """$DEMO_PROMPT names a file in the system temp folder; an agent that leaves it behind
    fills /tmp over a day of demos (543 of them after one day of test runs)."""
    agent = start_agent("--delay", "0")
    agent.submit("!echo \"$DEMO_PROMPT\" > where.txt")
    agent.wait_event("Stop")
    path = Path((agent.workdir / "where.txt").read_text().strip())
    assert path.is_file() and "where.txt" in path.read_text()
    agent.type("/exit")
    agent.keys("Enter")
    agent.wait_event("SessionEnd", session_id=agent.session_id)
    wait_until(lambda: not agent.alive(), what="agent gone after /exit")
    assert not path.exists()


@pytest.mark.parametrize("answer, ran", [("y", True), ("n", False), ("Escape", False)])
def test_permission_dialog(start_agent, answer, ran):
    agent = start_agent("--delay", "0", "--permission-notify-after", "0.2")
    agent.submit("#ask\n!touch made.txt")
    req = agent.wait_event("PermissionRequest")
    assert req["tool_name"] == "Bash" and req["tool_input"]["command"] == "touch made.txt"
    assert req["permission_suggestions"] and "tool_use_id" not in req
    note = agent.wait_event("Notification", notification_type="permission_prompt")
    assert note["message"] == "Claude needs your permission"  # 2.1.332's words
    assert not (agent.workdir / "made.txt").exists()
    agent.keys(answer)
    stop = agent.wait_event("Stop")
    assert (agent.workdir / "made.txt").exists() is ran
    expected = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest",
                "Notification"] + (["PostToolUse"] if ran else []) + ["Stop"]
    assert agent.names() == expected
    assert stop["last_assistant_message"].endswith("ran 1 command" if ran
                                                   else "ran 0 commands, 1 declined")


def test_ask_permission_flag_asks_for_every_tool(start_agent):
    agent = start_agent("--delay", "0", "--ask-permission", "--permission-notify-after", "60")
    agent.submit("!true\n!true")
    agent.wait_event("PermissionRequest")
    agent.keys("y")
    agent.wait_event("PermissionRequest", count=2)
    agent.keys("y")
    agent.wait_event("Stop")
    assert not agent.events("Notification")
    assert agent.names().count("PostToolUse") == 2


def test_fail_directive_ends_in_stop_failure(start_agent):
    agent = start_agent("--delay", "0")
    agent.submit("this will fail #fail")
    failure = agent.wait_event("StopFailure")
    assert failure["error"] == "rate_limit"
    assert failure["error_details"] and failure["last_assistant_message"]
    assert failure["prompt_id"] == agent.events("UserPromptSubmit")[0]["prompt_id"]
    agent.submit("and this one works")
    agent.wait_event("Stop")
    assert agent.names() == ["SessionStart", "UserPromptSubmit", "StopFailure",
                             "UserPromptSubmit", "Stop"]


def test_fail_flag_fails_every_turn(start_agent):
    agent = start_agent("--delay", "0", "--fail")
    agent.submit("one")
    agent.wait_event("StopFailure")
    agent.submit("two")
    agent.wait_event("StopFailure", count=2)
    assert not agent.events("Stop")


def test_prompts_submitted_while_busy_are_queued_until_after_stop(start_agent):
    agent = start_agent()
    agent.submit("first #delay=0.8")
    agent.wait_event("UserPromptSubmit")
    agent.submit("second")
    agent.submit("third")
    agent.wait_event("Stop", count=3)
    assert [e["hook_event_name"] + ":" + e.get("prompt", "") for e in agent.events()[1:]] == [
        "UserPromptSubmit:first #delay=0.8", "Stop:", "UserPromptSubmit:second", "Stop:",
        "UserPromptSubmit:third", "Stop:"]


def test_exits_end_the_session_with_a_reason(start_agent):
    a = start_agent("--delay", "0")
    a.type("/exit")
    a.keys("Enter")
    assert a.wait_event("SessionEnd", session_id=a.session_id)["reason"] == "prompt_input_exit"
    b = start_agent("--delay", "0")
    b.keys("C-d")
    assert b.wait_event("SessionEnd", session_id=b.session_id)["reason"] == "prompt_input_exit"
    d = start_agent("--delay", "0")
    d.keys("C-c")
    d.wait_screen("Press Ctrl-C again to exit")
    d.keys("C-c")
    assert d.wait_event("SessionEnd", session_id=d.session_id)["reason"] == "prompt_input_exit"
    c = start_agent("--delay", "0")
    c.submit("busy #delay=30")
    c.wait_event("UserPromptSubmit", session_id=c.session_id)
    os.kill(c.pid, 15)
    assert c.wait_event("SessionEnd", session_id=c.session_id)["reason"] == "other"
    wait_until(lambda: not c.alive(), what="agent gone after SIGTERM")
    assert not [e for e in c.events("Stop") if e["session_id"] == c.session_id]


def test_user_prompt_submit_exit_2_blocks_the_prompt(start_agent, tmp_path):
    log = tmp_path / "hooks.log"
    record = tmp_path / "record.sh"
    guard = tmp_path / "guard.sh"
    guard.write_text("#!/bin/sh\nif grep -q forbidden; then echo 'no forbidden words' >&2; "
                     "exit 2; fi\necho 'project rule: be brief'\n")
    guard.chmod(0o755)
    settings = tmp_path / "guard.json"
    hooks = {ev: [{"hooks": [{"type": "command", "command": f"{record} {log}"}]}]
             for ev in ("SessionStart", "UserPromptSubmit", "Stop")}
    hooks["UserPromptSubmit"][0]["hooks"].append({"type": "command", "command": str(guard)})
    settings.write_text(json.dumps({"hooks": hooks}))
    agent = start_agent("--delay", "0", settings=settings)
    agent.submit("say a forbidden thing")
    agent.wait_screen("no forbidden words")
    agent.submit("say a fine thing")
    stop = agent.wait_event("Stop")
    assert [u["prompt"] for u in agent.events("UserPromptSubmit")] == [
        "say a forbidden thing", "say a fine thing"]
    assert len(agent.events("Stop")) == 1
    assert stop["prompt_id"] == agent.events("UserPromptSubmit")[1]["prompt_id"]
    # Plain stdout of a UserPromptSubmit hook is context, shown to the user.
    agent.wait_screen("project rule: be brief")


def test_idle_prompt_fires_once_after_a_turn(start_agent):
    agent = start_agent("--delay", "0", "--idle-notify", "0.5")
    agent.submit("hi")
    agent.wait_event("Stop")
    idle = agent.wait_event("Notification", notification_type="idle_prompt")
    assert idle["message"] == "Claude is waiting for your input"
    assert agent.names()[-2:] == ["Stop", "Notification"]
    # Once per idle period: no repeat however long the pane stays idle...
    holds_for(lambda: len(agent.events("Notification")) == 1, 1.5, "a single idle_prompt")
    # ...until another turn ends.
    agent.submit("again")
    agent.wait_event("Notification", count=2, notification_type="idle_prompt")
    assert agent.names()[-4:] == ["Notification", "UserPromptSubmit", "Stop", "Notification"]


def test_idle_prompt_after_an_interrupt_and_not_after_a_keystroke(start_agent):
    agent = start_agent("--idle-notify", "0.6")
    agent.submit("long #delay=10")
    agent.wait_event("UserPromptSubmit")
    agent.keys("Escape")
    agent.wait_event("Notification", notification_type="idle_prompt")
    assert agent.names() == ["SessionStart", "UserPromptSubmit", "Notification"]
    agent.keys("C-u")
    agent.submit("short #delay=0")
    agent.wait_event("Stop")
    agent.type("x")  # a keystroke right after the turn cancels the pending idle_prompt
    holds_for(lambda: agent.names()[-1] == "Stop", 1.8, "no idle_prompt after a keystroke")


def test_drop_enters_loses_the_first_enters_after_each_paste(start_agent):
    """`--drop-enters N`: the first N Enters after a paste are lost, the text stays in the box
    (as Claude Code under load loses the Enter that follows a paste: FINDINGS.md); the next
    Enter submits it, whole. Each paste arms it again; typed text is not affected."""
    agent = start_agent("--delay", "0", "--drop-enters", "1")
    agent.paste("first line\nsecond line")
    agent.keys("Enter")
    holds_for(lambda: agent.events("UserPromptSubmit") == [], 1.0, "no prompt after Enter")
    agent.wait_screen("second line")
    agent.keys("Enter")
    assert agent.wait_event("UserPromptSubmit")["prompt"] == "first line\nsecond line"
    agent.wait_event("Stop")
    agent.paste("again")
    agent.keys("Enter")
    holds_for(lambda: len(agent.events("UserPromptSubmit")) == 1, 1.0, "the lost Enter")
    agent.keys("Enter")
    assert agent.wait_event("UserPromptSubmit", count=2)["prompt"] == "again"
    agent.wait_event("Stop", count=2)
    agent.type("typed")
    agent.keys("Enter")
    assert agent.wait_event("UserPromptSubmit", count=3)["prompt"] == "typed"
