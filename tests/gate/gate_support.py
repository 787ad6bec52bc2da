"""Small helpers for the gate-integrity tests (kept out of tests/helpers.py on purpose)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers import a2a, git

SCORES = ("--score", "boundary=3:in bounds", "--score", "taste=2:fine")


def events(repo: Path, kind: str | None = None) -> list[dict[str, Any]]:
    """The event log through the CLI, optionally only one kind."""
    evs = a2a("events", "--json", cwd=repo).json
    return [e for e in evs if kind is None or e["kind"] == kind]


def attempt_state(repo: Path, attempt: str) -> str:
    st = a2a("status", "--json", cwd=repo).json
    return next(a["state"] for a in st["attempts"] if a["id"] == attempt)


def head(repo: Path, ref: str = "main") -> str:
    return git(repo, "rev-parse", ref)


def crash_then_move(repo: Path, attempt: str, point: str, move_to: str) -> None:
    """Kill `a2a integrate` at `point`, then move main to `move_to` behind the gate's back
    (`git reset --hard` in the main worktree, where main is checked out)."""
    r = a2a("integrate", attempt, *SCORES, cwd=repo, env={"A2A_CRASH_AT": point})
    assert r.code == -9, r.err
    git(repo, "reset", "-q", "--hard", move_to)
