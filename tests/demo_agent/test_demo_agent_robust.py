"""The demo agent survives odd input and broken hooks, and refuses bad flags clearly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from tests.support import a2a, tmux, wait_until

pytestmark = pytest.mark.tmux


def test_odd_bytes_do_not_crash_the_agent(start_agent):
    agent = start_agent("--delay", "0")
    # Invalid UTF-8, a lone continuation byte, NUL, unknown CSI/SS3 sequences, Alt-x, arrows.
    for hexes in (["ff", "fe", "80", "00"], ["1b", "5b", "39", "39", "7a"],
                  ["1b", "4f", "50"], ["1b", "78"], ["1b", "5b", "41"], ["c3"]):
        agent.keys("-H", *hexes)
    agent.keys("C-u")
    agent.submit("still here")
    assert agent.wait_event("UserPromptSubmit")["prompt"] == "still here"
    agent.wait_event("Stop")
    assert agent.alive()


def test_a_paste_split_across_reads_is_still_one_prompt(start_agent):
    agent = start_agent("--delay", "0")
    # Send the bracketed paste in pieces, cutting through both markers.
    for piece in (["1b", "5b", "32"], ["30", "30", "7e", "61", "0d", "62", "1b"],
                  ["5b", "32", "30"], ["31", "7e"]):
        agent.keys("-H", *piece)
    agent.keys("Enter")
    assert agent.wait_event("UserPromptSubmit")["prompt"] == "a\nb"


def test_broken_hooks_never_stop_the_agent(start_agent, tmp_path):
    log = tmp_path / "hooks.log"
    record = f"{tmp_path / 'record.sh'} {log}"
    settings = tmp_path / "broken.json"
    settings.write_text(json.dumps({"hooks": {
        "SessionStart": [{"hooks": [{"type": "command", "command": record}]}],
        "UserPromptSubmit": [{"hooks": [
            {"type": "command", "command": "sleep 30", "timeout": 0.5},
            {"type": "command", "command": "/no/such/program"},
            {"type": "command", "command": "echo '{not json'"},
            {"type": "command", "command": record}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "echo bad >&2; exit 1"},
                            {"type": "command", "command": "sleep 5", "async": True},
                            {"type": "command", "command": record}]}],
        "Notification": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9/"}]}],
    }}))
    agent = start_agent("--delay", "0", settings=settings)
    agent.submit("go")
    agent.wait_event("Stop")
    screen = agent.wait_screen("Stop hook error")
    assert "timed out" in screen and "bad" in screen
    assert "'http' hooks are not run" in screen
    agent.submit("go again")
    agent.wait_event("Stop", count=2)
    assert agent.alive()


def test_matchers_select_hooks(start_agent, tmp_path):
    log = tmp_path / "hooks.log"
    record = tmp_path / "record.sh"

    def group(matcher, tag):
        return {"matcher": matcher, "hooks": [{"type": "command",
                                               "command": f"TAG={tag} {record} {log}"}]}
    settings = tmp_path / "matchers.json"
    settings.write_text(json.dumps({"hooks": {
        "SessionStart": [group("startup", "ss")],
        "PreToolUse": [group("Bash", "exact"), group("Edit|Write", "other"),
                       group("Ba.*", "regex"), group("^Edit$", "anchored"), group("*", "all"),
                       group("", "empty")],
        "Notification": [group("idle_prompt", "idle"), group("permission_prompt", "perm")],
        "Stop": [group("whatever", "stop")],  # Stop has no matcher: the group always runs
    }}))
    record.write_text("#!/bin/sh\npayload=$(cat)\nprintf '%s\\t%s\\t%s\\n' \"$TAG\" x "
                      "\"$payload\" >> \"$1\"\n")
    record.chmod(0o755)
    agent = start_agent("--delay", "0", "--idle-notify", "0.3", settings=settings)
    agent.submit("!true")
    agent.wait_event("Notification")
    tags = [(p["hook_event_name"], tag) for tag, _, p in agent.records()]
    assert sorted(t for e, t in tags if e == "PreToolUse") == ["all", "empty", "exact", "regex"]
    assert ("Stop", "stop") in tags and ("Notification", "idle") in tags
    assert ("Notification", "perm") not in tags


def test_sighup_ends_the_session(start_agent):
    agent = start_agent("--delay", "0")
    os.kill(agent.pid, signal.SIGHUP)
    assert agent.wait_event("SessionEnd")["reason"] == "other"
    wait_until(lambda: not agent.alive(), what="agent exits on SIGHUP")


def test_killing_the_pane_ends_the_session(start_agent):
    agent = start_agent("--delay", "0")
    tmux(agent.sock, "kill-pane", "-t", agent.pane)
    assert agent.wait_event("SessionEnd")["reason"] == "other"


def test_default_transcript_lives_outside_claude_home(start_agent, tmp_path):
    home = os.environ["HOME"]
    agent = start_agent("--delay", "0")
    path = agent.wait_event("SessionStart")["transcript_path"]
    assert "/.claude" not in path
    # Without --transcript-dir: the state dir under (test) HOME, Claude's layout inside.
    code = ("from a2a_tui.demo_agent.transcript import transcript_path;"
            "print(transcript_path(None, '/w/x.y', 's'))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert res.stdout.strip() == f"{home}/.local/state/a2a/demo-agent/projects/-w-x-y/s.jsonl"


@pytest.mark.parametrize("args, code", [
    (["--settings", "/no/such/file.json"], "bad_settings"),
    (["--settings", "{not json"], "bad_settings"),
    (["--settings", '{"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}'],
     "bad_settings"),
    (["--session-id", "not-a-uuid"], "bad_session_id"),
    (["--protocol", "codex", "--notify", "prog"], "bad_notify"),
    (["--notify", '["prog"]'], "bad_option"),
    (["--role-card", "/no/such/card.md"], "bad_role_card"),
])
def test_bad_flags_are_one_clear_error(tmp_path, args, code):
    res = a2a("demo-agent", *args, cwd=tmp_path, input="")
    assert res.code != 0
    lines = res.err.strip().splitlines()
    assert len(lines) == 1 and f"[{code}]" in lines[0], res.err
    res = a2a("demo-agent", "--json", *args, cwd=tmp_path, input="")
    assert res.code != 0 and json.loads(res.out)["error"]["code"] == code


def test_role_card_heading_is_shown(start_agent, tmp_path):
    card = tmp_path / "worker.md"
    card.write_text("Intro text\n\n# Worker — writes the code\n\n## Rules\n")
    agent = start_agent("--role-card", str(card), "--effort", "high")
    screen = agent.wait_screen("Worker — writes the code")
    assert "effort high" in screen
