"""The real CLIs' traps of issue 12, shown with the demo agent launched by `a2a spawn`.

Each mirrors a test in tests/real_cli/test_real_traps.py: the demo agent reproduces the CLI's
behaviour (Codex's login shell, Claude Code's `agent_needs_input` payload byte for byte) and
a2a handles it the same way.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from a2a_tui import __version__
from a2a_tui.store import Store
from tests.support import a2a, tmux, wait_until

pytestmark = pytest.mark.tmux

# Claude Code 2.1.332's stdin for this notification, as a hook received it (measured against the
# real CLI in auto mode behind a custom ANTHROPIC_BASE_URL; tests/real_cli/FINDINGS.md).
MEASURED_NEEDS_INPUT = (
    '{{"session_id":"{sid}","transcript_path":"{tp}","cwd":"{cwd}","prompt_id":"{pid}",'
    '"hook_event_name":"Notification","message":"Auto mode can\'t check actions in this session'
    ' and needs your choice","notification_type":"agent_needs_input"}}\n')


def spawn(repo: Path, sock: str, *demo_args: str, env: dict[str, str] | None = None) -> dict:
    r = a2a("spawn", "worker", "--cli", "demo", "--tmux-socket", sock, "--json", "--",
            *demo_args, cwd=repo, env=env)
    assert r.code == 0, r.err
    return r.json


@pytest.fixture
def serve(repo, tmux_socket):
    proc = subprocess.Popen([sys.executable, "-m", "a2a_tui", "serve", "--tmux-socket",
                             tmux_socket], cwd=repo, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    lock = repo / ".a2a" / "locks" / "orchestrator.lock"
    wait_until(lambda: lock.exists() and lock.read_text().strip() == str(proc.pid),
               what="a2a serve to take its lock")
    yield proc
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=15)


def session(repo: Path, sid: str) -> dict:
    with Store(repo / ".a2a" / "a2a.db") as st:
        return dict(st.one("SELECT * FROM sessions WHERE id = ?", (sid,)) or {})


def test_codex_mode_tool_commands_find_a2a(repo, tmux_socket, serve):
    # `serve`: the pane's `a2a` is its broker's client, and the orchestrator answers it.
    s = spawn(repo, tmux_socket, "--protocol", "codex")
    assert "allow_login_shell=false" in s["argv"]
    # Written in the session's output folder: a session with no attempt sees the repository
    # read-only (a2a_tui/confine).
    found = repo / ".a2a" / "run" / s["session"] / "out" / "found.txt"
    wait_until(lambda: "protocol codex" in tmux(tmux_socket, "capture-pane", "-p", "-t",
                                                s["pane"]), what="the demo agent on screen")
    tmux(tmux_socket, "send-keys", "-t", s["pane"], "-l", f"!a2a --version > {found} 2>&1")
    tmux(tmux_socket, "send-keys", "-t", s["pane"], "Enter")
    wait_until(lambda: found.exists() and found.read_text(), what="the command's output")
    assert found.read_text().strip() == f"a2a {__version__}"


def test_a_pane_gets_the_spawners_provider_settings_not_the_tmux_servers(repo, tmux_socket):
    stale = dict(os.environ, ANTHROPIC_BASE_URL="http://127.0.0.1:9",
                 ANTHROPIC_MODEL="stale-model")
    subprocess.run(["tmux", "-L", tmux_socket, "new-session", "-d", "-s", "the-users-own",
                    "sleep 600"], env=stale, check=True)
    fresh = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_MODEL"}
    fresh.update(ANTHROPIC_BASE_URL="http://127.0.0.1:4000", ANTHROPIC_API_KEY="sk-fresh")
    s = spawn(repo, tmux_socket, env=fresh)
    environ = wait_until(lambda: _environ(s["pid"]).get("A2A_SESSION") and _environ(s["pid"]),
                         what="the agent's environment")
    assert environ["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:4000"
    assert environ["ANTHROPIC_API_KEY"] == "sk-fresh"
    assert "ANTHROPIC_MODEL" not in environ
    launch = a2a("events", "--json", cwd=repo).json
    record = [e for e in launch if e["kind"] == "session_launching"][0]["payload"]
    assert {"ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"} <= set(record["env_passed"])
    assert "sk-fresh" not in json.dumps(launch)


def _environ(pid: int) -> dict[str, str]:
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return {}
    pairs = (item.split(b"=", 1) for item in raw.split(b"\0") if b"=" in item)
    return {k.decode(): v.decode() for k, v in pairs}


def test_the_auto_mode_choice_payload_is_claude_codes_byte_for_byte(tmp_path):
    out = tmp_path / "notes"
    out.mkdir()
    hook = tmp_path / "keep.sh"
    # The note is written aside and renamed in: the test reads it as soon as its name appears.
    hook.write_text(f'#!/bin/sh\nf={out}/"$(date +%s%N)-$1"\n'
                    'cat > "$f.part" && mv "$f.part" "$f.json"\n')
    hook.chmod(0o755)
    settings = {"hooks": {ev: [{"hooks": [{"type": "command", "command": f"{hook} {ev}"}]}]
                          for ev in ("UserPromptSubmit", "Notification")}}
    (tmp_path / "s.json").write_text(json.dumps(settings))
    sock, sid = f"a2a-test-{uuid.uuid4().hex[:10]}", str(uuid.uuid4())
    work = tmp_path / "work"
    work.mkdir()
    try:
        tmux(sock, "new-session", "-d", "-x", "120", "-y", "40", "-c", str(work),
             sys.executable, "-m", "a2a_tui.demo_agent", "--settings", str(tmp_path / "s.json"),
             "--session-id", sid, "--transcript-dir", str(tmp_path / "t"), "--permission-mode",
             "auto", "--auto-check-unavailable", "--permission-notify-after", "0.2",
             "--delay", "0")
        wait_until(lambda: "session " + sid in tmux(sock, "capture-pane", "-p"),
                   what="the demo agent")
        tmux(sock, "send-keys", "-l", "!git commit -m probe #ask")
        tmux(sock, "send-keys", "Enter")
        wait_until(lambda: len(list(out.glob("*-Notification.json"))) == 1,
                   what="the Notification hook")
        got = next(out.glob("*-Notification.json")).read_bytes()
        prompt = json.loads(next(out.glob("*-UserPromptSubmit.json")).read_bytes())
        expected = MEASURED_NEEDS_INPUT.format(sid=sid, tp=prompt["transcript_path"],
                                               cwd=work, pid=prompt["prompt_id"])
        assert got == expected.encode()
    finally:
        subprocess.run(["tmux", "-L", sock, "kill-server"], capture_output=True)


def test_the_auto_mode_choice_makes_the_pane_waiting(repo, tmux_socket, serve):
    s = spawn(repo, tmux_socket, "--permission-mode", "auto", "--auto-check-unavailable",
              "--permission-notify-after", "0.3", "--delay", "0")
    sid = s["session"]
    wait_until(lambda: session(repo, sid).get("state") == "idle", what="the pane to be idle")
    r = a2a("inject", sid, "!git commit -m probe #ask", "--json", cwd=repo)
    assert r.code == 0, r.err
    n = r.json["dispatch"]
    waiting = wait_until(lambda: (x := session(repo, sid)).get("state") == "waiting" and x,
                         timeout=15, what="the pane to be waiting")
    assert waiting["in_flight"] == n
