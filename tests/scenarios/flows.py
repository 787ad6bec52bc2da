"""The gate's steps as the scenarios take them: the real CLI, as the user at a terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support import (
    Run,
    a2a,
    a2a_as,
    as_session,
    commit_in,
    git,
    rows,
    write_card,
)

SCORES = ("--score", "boundary=3:in bounds", "--score", "taste=2:fine")


def card(repo: Path, card_id: str = "T-1", check: str = "true", extra: str = "") -> str:
    """A card added and made ready."""
    path = write_card(repo, card_id=card_id, check=check, extra=extra)
    assert a2a("card", "add", str(path), cwd=repo).code == 0
    assert a2a("card", "ready", card_id, cwd=repo).code == 0
    return card_id


def claim(repo: Path, card_id: str = "T-1", *opts: str) -> dict[str, Any]:
    r = a2a("claim", card_id, "--json", *opts, cwd=repo)
    assert r.code == 0, r.err
    return r.json


def worktree(repo: Path, c: dict[str, Any]) -> Path:
    return repo / ".a2a/worktrees" / c["attempt"]


def submit(repo: Path, c: dict[str, Any], sha: str, fence: int | None = None):
    return a2a("submit", c["attempt"], "--sha", sha, "--card-version", str(c["card_version"]),
               "--fence", str(c["fence"] if fence is None else fence), "--json", cwd=repo)


def verify(repo: Path, attempt: str):
    return a2a("verify", attempt, "--json", cwd=repo)


def integrate(repo: Path, attempt: str, env: dict[str, str] | None = None):
    return a2a("integrate", attempt, *SCORES, "--json", cwd=repo, env=env)


def verified(repo: Path, check: str = "true", files: dict[str, str] | None = None
             ) -> tuple[dict[str, Any], str]:
    """A card claimed, a commit submitted and verified green: (the claim, the sha)."""
    card(repo, check=check)
    c = claim(repo)
    sha = commit_in(worktree(repo, c), files or {"src/app.py": "v = 2\n"})
    assert submit(repo, c, sha).code == 0
    v = verify(repo, c["attempt"])
    assert v.code == 0 and v.json["passed"], v.out
    return c, sha


def head(repo: Path, ref: str = "main") -> str:
    return git(repo, "rev-parse", ref)


def state(repo: Path, attempt: str) -> str:
    st = a2a("status", "--json", cwd=repo).json
    return next(a["state"] for a in st["attempts"] if a["id"] == attempt)


def error_code(run) -> str | None:
    """The stable code of a refused `--json` command (None when it succeeded)."""
    return None if run.code == 0 else run.json["error"]["code"]


def agent(repo: Path, sid: str, role: str, *args: str) -> Run:
    """`a2a ARGS` run by session `sid` of `role`: registered at its first command, as `a2a
    spawn` registers a pane's process; its later commands run as that session's process."""
    if not rows(repo, "SELECT 1 FROM sessions WHERE id = ?", (sid,)):
        return a2a_as(repo, sid, role, *args)
    return as_session(repo, sid, *args)
