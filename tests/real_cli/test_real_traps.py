"""Three traps of the real CLIs (issue 12), each shown against the pinned CLI through a2a.

- Codex runs its tools' commands in a login shell whose system profile resets PATH: `a2a` would
  not be found in a Codex worker's shell.
- A pane started in a running tmux server gets the server's environment: provider settings the
  user set afterwards would never reach the CLI.
- Claude Code's auto mode, unable to reach its safety check through a custom base URL, asks the
  user for a choice with a `Notification` of type `agent_needs_input`: the pane is waiting.
"""

from __future__ import annotations

import json
import stat

import pytest

from a2a_tui import __version__
from tests.real_cli.fakemodel import Reply
from tests.real_cli.harness import mark, shell_call
from tests.real_cli.isolation import DUMMY_KEY, require
from tests.real_cli.test_real_gate import claim

require()
pytestmark = pytest.mark.real_cli


def test_codex_tool_commands_find_a2a(world, panes):
    m = mark("PATH")
    world.fm.script(m, Reply(text="checking", tool=shell_call("codex", "a2a --version")),
                    Reply(text="done"))
    # A worker in its attempt's clone: with no attempt its folder (the repository) is
    # read-only, and so is its Codex sandbox (permissions.py), where `a2a` asks first.
    att = claim(world, "T-9", "codex")
    s = world.spawn("codex", f"check the tools {m}", attempt=att["attempt"])
    panes.append(s["pane"])
    req = world.fm.wait_for(lambda r: m in r.text and r.tool_results, timeout=40,
                            what=f"the tool's result for {m} in a model request")
    out = req.tool_results[-1]
    assert "command not found" not in out
    assert f"a2a {__version__}" in out, out


def test_a_pane_gets_the_spawners_provider_settings_not_the_tmux_servers(fresh_world):
    w = fresh_world
    # The tmux server was started before the user set the provider up (another URL, and a model
    # they have since unset): a session of their own, not a2a's.
    stale = {**w.env, "ANTHROPIC_BASE_URL": "http://127.0.0.1:9",
             "ANTHROPIC_MODEL": "stale-model-of-the-server"}
    w.tmux("new-session", "-d", "-s", "the-users-own", "sleep 600", env=stale)
    s = w.start([], "claude")
    sid = s["session"]
    m = mark("ENV")
    n = w.inject(sid, f"are you there {m}")
    w.wait_dispatch(n, "done", timeout=40)
    turn = w.fm.wait_for(lambda r: m in r.text and r.side is None,
                         what=f"the model request holding {m}")
    assert turn.body["model"] != "stale-model-of-the-server"

    record = w.events("session_launching", session=sid)[0].payload
    assert {"ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"} <= set(record["env_passed"])
    assert "ANTHROPIC_MODEL" not in record["env_passed"]
    # The key travelled by the launch script, readable by the user only; never into the store.
    run_dir = w.repo / ".a2a" / "run" / sid
    assert stat.S_IMODE(run_dir.stat().st_mode) == 0o700
    script = run_dir / "launch.sh"
    assert stat.S_IMODE(script.stat().st_mode) == 0o600 and DUMMY_KEY in script.read_text()
    assert all(DUMMY_KEY not in json.dumps(e.payload) for e in w.events())


def test_claude_auto_mode_asking_for_a_choice_makes_the_pane_waiting(world, panes):
    # Auto mode, as Claude Code 2.1.332 starts by default; its safety check cannot pass the
    # custom base URL, so an action that needs it waits for the user's choice.
    s = world.start(panes, "claude", "--permission-mode", "auto")
    sid = s["session"]
    m = mark("AUTO")
    world.fm.script(m, Reply(text="Committing.", tool=shell_call(
        "claude", "git commit --allow-empty -m probe")), Reply(text="done"))
    n = world.inject(sid, f"commit please {m}")
    waiting = world.wait_state(sid, "waiting", timeout=30)
    assert waiting["in_flight"] == n
    notes = world.signals(sid, "Notification")
    assert [p["detail"]["notification_type"] for p in notes] == ["agent_needs_input"]
    assert notes[0]["to"] == "waiting"
    assert world.signals(sid, "PermissionRequest") == []  # nothing else said so
    assert world.sessions()[sid]["state"] == "waiting"
