"""Real git repositories, commits in them, and task cards to add to a2a."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from pathlib import Path

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

DEFAULT_FILES = {"src/app.py": "def name(n):\n    return n\n", "README.md": "sample\n"}


def git(cwd: Path, *args: str, env: Mapping[str, str] | None = None) -> str:
    """`git ARGS` in `cwd`; its output, stripped. Fails on a non-zero exit."""
    return subprocess.run(["git", *args], cwd=str(cwd), check=True, capture_output=True,
                          text=True, env=None if env is None else dict(env)).stdout.strip()


def write_files(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def make_repo(path: Path, files: Mapping[str, str] | None = None,
              env: Mapping[str, str] | None = None) -> Path:
    """A real git repository with one commit on `main`."""
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main", env=env)
    write_files(path, files or DEFAULT_FILES)
    git(path, "add", "-A", env=env)
    git(path, "commit", "-q", "-m", "initial", env=env)
    return path


def commit_in(worktree: Path, files: Mapping[str, str], message: str = "work",
              env: Mapping[str, str] | None = None) -> str:
    """Write `files` in `worktree` and commit them all; the new commit's sha."""
    write_files(worktree, files)
    git(worktree, "add", "-A", env=env)
    git(worktree, "commit", "-q", "-m", message, env=env)
    return git(worktree, "rev-parse", "HEAD", env=env)


def write_card(repo: Path, card_id: str = "T-1", check: str = "true", extra: str = "",
               name: str | None = None) -> Path:
    """A card file beside the repository (not in it): `extra` lines go before [executor]."""
    p = repo.parent / (name or f"{card_id}.toml")
    p.write_text(CARD_TOML.format(id=card_id, check=check, extra=extra))
    return p
