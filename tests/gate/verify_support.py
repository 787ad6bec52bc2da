"""Helpers for the verify-chain tests: cards built from parts, claim, submit, verify, and the
records they leave (events, board items, results). Everything goes through the real CLI."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

from tests.support import Run, a2a, commit_in, make_repo

PY = sys.executable  # a Python with pytest, named by its absolute path in check commands

CARD = """\
id = "{id}"
title = "Refuse empty names"
goal = "An empty name is refused with a clear message"
non_goals = ["No change to the storage format"]
allowed_paths = {allowed}
acceptance = ["name('') raises ValueError"]
task_type = "bugfix"
complexity = "S"
source_ticket = "GH-12"
{extra}
[executor]
cli = "codex"
"""
CHECK = """
[[checks]]
name = "{name}"
command = '''{command}'''
blocking = {blocking}
{timeout}"""

# A small Python project whose tests run under pytest from the repository root.
PYTEST_FILES = {
    "pytest.ini": "[pytest]\naddopts = -p no:cacheprovider --disable-plugin-autoload\n",
    "src/names.py": "def name(n):\n    return n\n\n\ndef shout(n):\n    return n.upper()\n",
    "tests/conftest.py": "import sys, pathlib\n"
                         "sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / 'src'))\n",
    "tests/test_names.py": "from names import name, shout\n\n\n"
                           "def test_keeps_a_name():\n    assert name('ada') == 'ada'\n\n\n"
                           "def test_shouts():\n    assert shout('ada') == 'ADA'\n",
}
PYTEST = f"{PY} -m pytest -q tests"


def pytest_repo(tmp_path: Path) -> Path:
    """A real repository holding PYTEST_FILES, with a2a initialised."""
    path = make_repo(tmp_path / "repo", dict(PYTEST_FILES))
    r = a2a("init", cwd=path)
    assert r.code == 0, r.err
    return path


def write(repo: Path, *checks: dict[str, Any] | str, card_id: str = "T-1", extra: str = "",
          allowed: tuple[str, ...] = ("src/**", "tests/**")) -> Path:
    """A card file beside the repository; each check is a command or a dict of fields."""
    text = CARD.format(id=card_id, extra=extra, allowed=json.dumps(list(allowed)))
    for i, c in enumerate(checks or ("true",)):
        c = {"command": c} if isinstance(c, str) else c
        timeout = f"timeout_s = {c['timeout_s']}\n" if "timeout_s" in c else ""
        timeout += f"report = {json.dumps(c['report'])}\n" if "report" in c else ""
        text += CHECK.format(name=c.get("name", "tests" if i == 0 else f"check{i}"),
                             command=c["command"],
                             blocking=str(c.get("blocking", True)).lower(), timeout=timeout)
    path = repo.parent / f"{card_id}.toml"
    path.write_text(text)
    return path


def ready(repo: Path, *checks: dict[str, Any] | str, card_id: str = "T-1", extra: str = "",
          **kw: Any) -> Run:
    """Add the card and mark it ready; returns the `card ready` run (which may refuse)."""
    r = a2a("card", "add", str(write(repo, *checks, card_id=card_id, extra=extra, **kw)),
            cwd=repo)
    assert r.code == 0, r.err
    return a2a("card", "ready", card_id, "--json", cwd=repo)


def claim(repo: Path, *checks: dict[str, Any] | str, card_id: str = "T-1", extra: str = "",
          writer: str | None = None, **kw: Any) -> tuple[dict[str, Any], Path]:
    """A ready card claimed: (claim json, the attempt's worktree)."""
    r = ready(repo, *checks, card_id=card_id, extra=extra, **kw)
    assert r.code == 0, r.out + r.err
    args = ["claim", card_id, "--json"] + (["--writer", writer] if writer else [])
    c = a2a(*args, cwd=repo).json
    return c, repo / ".a2a/worktrees" / c["attempt"]


def submit(repo: Path, c: dict[str, Any], sha: str, *more: str) -> Run:
    r = a2a("submit", c["attempt"], "--sha", sha, "--card-version", str(c["card_version"]),
            "--fence", str(c["fence"]), *more, cwd=repo)
    assert r.code == 0, r.err
    return r


def verify(repo: Path, attempt: str, env: dict[str, str] | None = None) -> Run:
    return a2a("verify", attempt, "--json", cwd=repo, env=env)


def submit_verify(repo: Path, c: dict[str, Any], files: dict[str, str] | None = None, *,
                  sha: str | None = None, env: dict[str, str] | None = None) -> Run:
    """Commit `files` in the attempt's worktree (or take `sha`), submit it and verify it."""
    if sha is None:
        sha = commit_in(repo / ".a2a/worktrees" / c["attempt"], files or {"src/app.py": "x\n"})
    submit(repo, c, sha)
    return verify(repo, c["attempt"], env=env)


def result(v: Run, name: str) -> dict[str, Any]:
    """One check's result in a `verify --json` answer."""
    return next(ch for ch in v.json["checks"] if ch["name"] == name)


def events(repo: Path, kind: str) -> list[dict[str, Any]]:
    return [e for e in a2a("events", "--json", "--kind", kind, cwd=repo).json
            if e["kind"] == kind]


def board(repo: Path) -> list[dict[str, Any]]:
    return a2a("board", "list", "--json", cwd=repo).json["items"]


def dispatches(repo: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(repo / ".a2a/a2a.db") as db:
        return db.execute("SELECT session, source, text FROM dispatches ORDER BY n").fetchall()


def attempt_state(repo: Path, attempt: str) -> dict[str, Any]:
    return next(a for a in a2a("status", "--json", cwd=repo).json["attempts"]
                if a["id"] == attempt)


def gate_toml(repo: Path, text: str, *, accept: bool = True) -> Path:
    """Write `.a2a/gate.toml` and (unless `accept` is False) accept it as the user: a rule
    file is in force only once the user accepted it (`a2a gate-rules accept`)."""
    path = repo / ".a2a/gate.toml"
    path.write_text(text)
    if accept:
        r = a2a("gate-rules", "accept", "--json", cwd=repo)
        assert r.code == 0, r.out + r.err
    return path


def alive(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def checks_may_write(world, *paths: Path) -> None:
    """The user's `[confinement] write`: the checks (confined, in a PID namespace of their own)
    may write `paths` too, where a test and its check leave each other word."""
    from tests.support.userconfig import write_user_config

    write_user_config(world, "[confinement]\nwrite = " + json.dumps([str(p) for p in paths])
                      + "\n")


def carrying(token: str) -> list[int]:
    """Live processes whose command line carries `token`: a check's pids mean nothing outside
    its PID namespace, a word on its command line does."""
    import psutil

    found = []
    for p in psutil.process_iter(["cmdline"]):
        try:
            if token in (p.info["cmdline"] or []) and p.status() != psutil.STATUS_ZOMBIE:
                found.append(p.pid)
        except psutil.Error:
            continue
    return found
