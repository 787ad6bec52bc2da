"""Small helpers for the gate-integrity tests (kept out of tests/helpers.py on purpose)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.gate.attempts.ownership import abandon, claim
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.integration import targets
from a2a_tui.gate.integration.recovery import recover
from a2a_tui.gate.integration.resolution import resolve
from a2a_tui.gate.model import ACTIVE, Score
from a2a_tui.identity import Caller
from a2a_tui.repo import Repo
from tests.support import a2a, git

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


def replay_target(events_: list[tuple[int, str, dict[str, Any]]], ref: str = "refs/heads/main"
                  ) -> tuple[str | None, bool, list[tuple[int, str | None, bool]]]:
    """Replay the gate's record of one target from its events, independently of targets.py.

    Returns the baseline, whether a divergence is open, and for every `integration_intent` the
    (seq, baseline, open divergence) that held just before it.
    """
    branch = ref.removeprefix("refs/heads/")
    baseline: str | None = None
    diverged = False
    intents: list[tuple[int, str | None, bool]] = []
    for seq, kind, p in events_:
        if kind == "initialized" and p.get("target_branch") == branch:
            baseline = p.get("target_head")
        elif kind == "target_observed" and p["target"] == branch:
            baseline = p["head"]
        elif kind == "integration_intent" and p["ref"] == ref:
            intents.append((seq, baseline, diverged))
        elif kind == "integrated" and p["ref"] == ref:
            baseline = p["new"]
        elif (kind == "attempt_resolved" and p["target"] == branch and p["as"] == "integrated"
              and p["old"] == baseline):
            baseline = p["sha"]
        elif kind == "target_diverged" and p["target"] == branch:
            diverged = True
        elif kind in ("target_adopted", "target_restored") and p["target"] == branch:
            baseline, diverged = p["head"], False
    return baseline, diverged, intents


def end_everything(repo: Repo, store, restore: bool, cards: tuple[str, ...]) -> str:
    """The user alone, with a2a's commands (in-process), ends every attempt and claims each of
    `cards` again; returns the states it started from."""
    u = GateContext(repo, store, Caller())
    score = Score(3, "in bounds", 2, "fine")
    lock = repo.root / ".git/refs/heads/main.lock"
    if lock.exists():  # a lock no process holds: the user removes it (a2a never does)
        lock.unlink()
    recover(u)
    active = lambda: store.all("SELECT * FROM attempts WHERE state IN"  # noqa: E731
                               f" ({','.join('?' * len(ACTIVE))}) ORDER BY id", ACTIVE)
    start = ",".join(sorted({a["state"] for a in active()})) or "nothing active"
    head = git(repo.root, "rev-parse", "refs/heads/main")
    t = targets.view(store, "main")  # what `a2a target show` tells the user
    if t is not None and (t.diverged_head is not None or t.baseline != head):
        (targets.restore if restore else targets.adopt)(u, "main", "the user looked")
        head = git(repo.root, "rev-parse", "refs/heads/main")
    for att in active():
        if att["state"] == "unknown":
            on_main = repo.git.is_ancestor(att["submitted_sha"], head)
            right, wrong = ("integrated", "not-applied")[::1 if on_main else -1]
            try:  # the facts refute the wrong answer
                resolve(u, att["id"], wrong, "a guess")
                raise AssertionError(f"{att['id']} resolved as {wrong} against the facts")
            except A2AError as e:
                assert e.code in ("target_lacks_sha", "target_has_sha"), e
            resolve(u, att["id"], right, "the user looked")
    for att in active():
        assert att["state"] in ("claimed", "submitted", "rejected", "verified"), \
            f"{att['id']} is {att['state']} after recovery"
        abandon(u, att["id"], score, "the user ends it", force=True)   # the user's alone
    assert not active()
    for card in cards:
        try:
            # `again`: the user means it even for a card integrated already (issue 37)
            abandon(u, claim(u, card, again=True).attempt, score, "claimable again")
        except A2AError as e:   # seed 001: a card's retry budget is never reset
            assert e.code == "retry_budget_spent", e
    return start


def sqlite_outside(repo: Path, *statements: str) -> None:
    """What a worker with a shell can do: sqlite3 on the store, outside a2a."""
    conn = sqlite3.connect(repo / ".a2a" / "a2a.db", isolation_level=None)
    try:
        for s in statements:
            conn.execute(s)
    finally:
        conn.close()
