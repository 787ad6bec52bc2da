"""What readers see of the gate: cards, attempts and the last verify, as plain frozen values.

`a2a status` and the workbench's Gate panel read these; the gate's own operations keep
reading rows inside their write transactions. Every function takes a Store or an open
transaction (anything with `one` and `all`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class CardView:
    id: str
    title: str
    version: int
    state: str                     # draft | ready
    fence: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class AttemptView:
    id: str
    card_id: str
    state: str                     # see a2a_tui/gate/model.py
    fence: int
    worktree_state: str
    submitted_sha: str | None
    rejections: int                # consecutive rejections
    writer: str                    # 'user' or 'session:<id>'

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class CheckView:
    """One check's result in a verify run."""

    name: str
    kind: str                      # a step (verify/results.py STEPS) or command
    blocking: bool
    passed: bool
    exit_code: int | None
    duration_s: float | None
    detail: str


@dataclass(frozen=True)
class VerifyView:
    """An attempt's verify run and its checks so far, in the order they ran."""

    run: int
    state: str                     # running | interrupted | a verdict (verify/results.py)
    checks: tuple[CheckView, ...]


_CARD = "SELECT id, title, version, state, fence FROM cards"
_ATTEMPT = ("SELECT id, card_id, state, fence, worktree_state, submitted_sha, rejections, writer"
            " FROM attempts")


def cards(db, limit: int | None = None) -> list[CardView]:
    """Cards by id (the first `limit`)."""
    sql, params = f"{_CARD} ORDER BY id", ()
    if limit is not None:
        sql, params = f"{sql} LIMIT ?", (limit,)
    return [CardView(**r) for r in db.all(sql, params)]


def attempts(db) -> list[AttemptView]:
    """Every attempt, in the order they were claimed."""
    return [AttemptView(**r) for r in db.all(f"{_ATTEMPT} ORDER BY claimed_ns")]


def latest_attempt(db, card_id: str) -> AttemptView | None:
    """The card's most recent attempt, if it has one."""
    r = db.one(f"{_ATTEMPT} WHERE card_id = ? ORDER BY n DESC LIMIT 1", (card_id,))
    return None if r is None else AttemptView(**r)


def last_verify(db, attempt_id: str) -> VerifyView | None:
    """The attempt's latest verify run with its per-check results, if it was ever verified."""
    v = db.one("SELECT run, state FROM verifications WHERE attempt_id = ?"
               " ORDER BY run DESC LIMIT 1", (attempt_id,))
    if v is None:
        return None
    checks = tuple(
        CheckView(name=x["name"], kind=x["kind"], blocking=bool(x["blocking"]),
                  passed=bool(x["passed"]), exit_code=x["exit_code"],
                  duration_s=x["duration_s"], detail=x["detail"])
        for x in db.all("SELECT * FROM check_results WHERE attempt_id = ? AND run = ?"
                        " ORDER BY id", (attempt_id, v["run"])))
    return VerifyView(run=v["run"], state=v["state"], checks=checks)
