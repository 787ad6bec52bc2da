"""Shared test helpers: run the real CLI, build real git repositories, wait on conditions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CARD_TOML = """\
id = "{id}"
title = "Refuse empty names"
goal = "An empty name is refused with a clear message"
non_goals = ["No change to the storage format"]
allowed_paths = ["src/**", "tests/**"]
acceptance = ["add('') exits non-zero with 'name is empty'"]
task_type = "bugfix"
complexity = "S"
source_ticket = "GH-12"
{extra}
[executor]
cli = "codex"
model = "gpt-5-codex"
effort = "high"

[[checks]]
name = "tests"
command = '''{check}'''
blocking = true
timeout_s = 60
"""


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)


def a2a(*args: str, cwd: Path, env: dict[str, str] | None = None, input: str | None = None,
        timeout: float = 120) -> Run:
    """Run the real `a2a` CLI in a subprocess, as a user would."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    proc = subprocess.run([sys.executable, "-m", "a2a_tui", *args], cwd=str(cwd), env=full_env,
                          capture_output=True, text=True, input=input, timeout=timeout)
    return Run(proc.returncode, proc.stdout, proc.stderr)


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=str(cwd), check=True, capture_output=True,
                          text=True).stdout.strip()


def make_repo(path: Path, files: dict[str, str] | None = None) -> Path:
    """A real git repository with one commit on `main`."""
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    for name, text in (files or {"src/app.py": "def name(n):\n    return n\n",
                                 "README.md": "sample\n"}).items():
        p = path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "initial")
    return path


def write_card(repo: Path, card_id: str = "T-1", check: str = "true", extra: str = "",
               name: str | None = None) -> Path:
    p = repo.parent / (name or f"{card_id}.toml")
    p.write_text(CARD_TOML.format(id=card_id, check=check, extra=extra))
    return p


def commit_in(worktree: Path, files: dict[str, str], message: str = "work") -> str:
    for name, text in files.items():
        p = worktree / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    git(worktree, "add", "-A")
    git(worktree, "commit", "-q", "-m", message)
    return git(worktree, "rev-parse", "HEAD")


def wait_until(pred: Callable[[], Any], timeout: float = 10.0, interval: float = 0.05,
               what: str = "condition") -> Any:
    """Poll `pred` until it returns something truthy; fail with `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        last = pred()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what} (last: {last!r})")


def register_session(repo: Path, session_id: str, role: str, pid: int, cli: str = "demo", *,
                     start: int | None = None, pane_id: str | None = None,
                     tty: str | None = None, socket: str | None = None,
                     state: str = "idle") -> None:
    """Record `pid` as a managed session's pane process, as `a2a spawn` does for a real pane.

    For tests that need a caller identified by its process tree without spawning a CLI.
    """
    from a2a_tui.identity import proc_stat
    from a2a_tui.store import Store

    s = Store(repo / ".a2a/a2a.db")
    try:
        with s.write() as tx:
            seq = tx.append("session_registered_for_test", actor="user", session=session_id,
                            payload={"role": role, "pid": pid})
            tx.execute(
                "INSERT INTO sessions(id, role, cli, cwd, pane_id, pane_pid, pane_pid_start,"
                " pane_tty, tmux_socket, state, state_since_ns, launch_seq, created_ns)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (session_id, role, cli, str(repo), pane_id, pid,
                 proc_stat(pid)[2] if start is None else start, tty, socket, state,
                 time.time_ns(), seq, time.time_ns()))
    finally:
        s.close()


def a2a_as(repo: Path, session_id: str, role: str, *args: str, cwd: Path | None = None,
           env: dict[str, str] | None = None) -> Run:
    """Run `a2a ARGS` in a process registered as session `session_id` (its own process tree)."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    proc = subprocess.Popen(
        ["sh", "-c", 'read go; exec "$@"', "sh", sys.executable, "-m", "a2a_tui", *args],
        cwd=str(cwd or repo), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env=full_env)
    register_session(repo, session_id, role, proc.pid)
    out, err = proc.communicate("go\n", timeout=120)
    return Run(proc.returncode, out, err)
