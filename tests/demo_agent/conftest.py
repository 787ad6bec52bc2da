"""Fixtures: a settings file whose hooks record their input; a demo agent in a tmux pane."""

from __future__ import annotations

import json
import os
import sys
import uuid
from pathlib import Path

import pytest

from tests.demo_agent.demo_agent_harness import ALL_EVENTS, RECORD_HOOK, AgentPane
from tests.support import tmux


@pytest.fixture
def record_settings(tmp_path) -> tuple[Path, Path]:
    """A settings file whose hooks (every event) append their input to a log."""
    hook = tmp_path / "record.sh"
    hook.write_text(RECORD_HOOK)
    hook.chmod(0o755)
    log = tmp_path / "hooks.log"
    settings = {"hooks": {ev: [{"hooks": [{"type": "command",
                                           "command": f"{hook} {log}"}]}]
                          for ev in ALL_EVENTS}}
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(settings))
    return path, log


@pytest.fixture
def start_agent(tmux_socket, tmp_path, record_settings):
    """Start a demo agent in a private tmux pane; wait until it is ready (SessionStart)."""
    settings_path, log = record_settings
    work = tmp_path / "work"
    work.mkdir()
    started: list[AgentPane] = []

    def start(*args: str, settings: Path | None | str = "default", protocol: str = "claude",
              ready: bool = True) -> AgentPane:
        session_id = str(uuid.uuid4())
        argv = [sys.executable, "-m", "a2a_tui.demo_agent", "--session-id", session_id,
                "--transcript-dir", str(tmp_path / "transcripts")]
        if protocol == "claude":
            chosen = settings_path if settings == "default" else settings
            if chosen is not None:
                argv += ["--settings", str(chosen)]
        else:
            argv += ["--protocol", "codex"]
        argv += list(args)
        verb = "new-window" if started else "new-session"
        extra = ["-d", "-x", "120", "-y", "40"] if verb == "new-session" else ["-d"]
        out = tmux(tmux_socket, verb, *extra, "-P", "-F", "#{pane_id} #{pane_pid}",
                   "-c", str(work), *argv)
        pane, pid = out.split()
        tmux(tmux_socket, "set-option", "-g", "remain-on-exit", "on")
        agent = AgentPane(tmux_socket, work, log, pane, int(pid), session_id)
        started.append(agent)
        if ready:
            if protocol == "claude" and settings is not None:
                agent.wait_event("SessionStart", session_id=session_id)
            else:
                agent.wait_screen("session " + session_id)
        return agent

    yield start
    for a in started:
        if a.alive():
            try:
                os.kill(a.pid, 15)
            except ProcessLookupError:
                pass
