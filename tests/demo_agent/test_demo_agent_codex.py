"""Codex mode: the notify program gets one JSON argv argument per completed turn."""

from __future__ import annotations

import json

import pytest

from tests.support import holds_for, wait_until

pytestmark = pytest.mark.tmux

NOTIFY = """#!/bin/sh
# Record one notify call: argument count, TMUX_PANE as seen, whether stdin is null, the JSON.
if [ -c /dev/stdin ] && [ "$(readlink /proc/self/fd/0)" = /dev/null ]; then s=null; else s=other; fi
printf '%s\\t%s\\t%s\\t%s\\n' "$#" "${TMUX_PANE:-unset}" "$s" "$2" >> "$1"
"""


@pytest.fixture
def notify(tmp_path):
    script = tmp_path / "notify.sh"
    script.write_text(NOTIFY)
    script.chmod(0o755)
    log = tmp_path / "notify.log"

    def calls():
        if not log.exists():
            return []
        out = []
        for line in log.read_text().splitlines():
            argc, pane, stdin, payload = line.split("\t", 3)
            out.append((int(argc), pane, stdin, json.loads(payload)))
        return out
    return [str(script), str(log)], calls


def test_the_first_turn_also_notifies_a_title_turn_with_another_thread_id(start_agent, notify):
    argv, calls = notify
    agent = start_agent("--delay", "0", "--notify", json.dumps(argv), protocol="codex")
    prompt = "⟦主控 #1⟧ write the thing\n!echo done"
    agent.submit(prompt)
    wait_until(lambda: len(calls()) == 2, what="two notifies")
    agent.wait_screen("ran 1 command")

    payloads = [c[3] for c in calls()]
    assert all(c[0] == 2 for c in calls())  # the configured arg + ONE JSON argument
    assert all(c[2] == "null" for c in calls())
    assert all(c[1] == "unset" for c in calls())  # process-only vars stripped
    assert {p["type"] for p in payloads} == {"agent-turn-complete"}
    mine = [p for p in payloads if p["thread-id"] == agent.session_id]
    title = [p for p in payloads if p["thread-id"] != agent.session_id]
    assert len(mine) == 1 and len(title) == 1
    main = mine[0]
    assert main["input-messages"] == [prompt]
    assert main["last-assistant-message"] == (
        f"demo: got {len(prompt)} chars, 2 lines; ran 1 command")
    assert main["cwd"] == str(agent.workdir) and main["client"] == "codex-tui"
    assert list(main) == ["type", "thread-id", "turn-id", "cwd", "client", "input-messages",
                          "last-assistant-message"]
    assert title[0]["input-messages"][0].startswith("Generate a concise, single-line task title")
    assert title[0]["turn-id"] != main["turn-id"]

    agent.submit("again")
    wait_until(lambda: len(calls()) == 3, what="the second turn's notify")
    agent.wait_screen("got 5 chars")
    assert len(calls()) == 3  # no title turn after the first (FINDINGS.md)
    second = calls()[2][3]
    assert second["thread-id"] == agent.session_id and second["turn-id"] != main["turn-id"]
    # Codex lists every user message of the thread so far, the turn's own last.
    assert second["input-messages"] == [prompt, "again"]


def test_esc_and_failures_notify_nothing(start_agent, notify):
    argv, calls = notify
    agent = start_agent("--notify", json.dumps(argv), protocol="codex")
    agent.submit("long #delay=1")
    agent.wait_screen("Thinking")
    agent.keys("Escape")
    agent.wait_screen("Conversation interrupted")
    agent.submit("broken #fail #delay=0")
    agent.wait_screen("Rate limit")
    holds_for(lambda: not calls(), 1.5, "no notify for an interrupted or failed turn")
    agent.submit("fine #delay=0")
    wait_until(lambda: len(calls()) == 2, what="notifies of the completed turn")
    assert [c[3]["input-messages"] for c in calls()
            if c[3]["thread-id"] == agent.session_id] == [["fine #delay=0"]]


def test_missing_notify_program_does_not_stop_the_agent(start_agent, tmp_path):
    agent = start_agent("--delay", "0", "--notify", json.dumps([str(tmp_path / "nope")]),
                        protocol="codex")
    agent.submit("one")
    agent.wait_screen("notify failed to start")
    agent.submit("two")
    agent.wait_screen("got 3 chars")
    assert agent.alive()
