"""What readers see of the gate: cards, attempts and the last verify, as plain frozen values.

`a2a status` and the workbench's Gate panel read these; the gate's own operations keep
reading rows inside their write transactions. Every function takes a Store or an open
transaction (anything with `one` and `all`).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from a2a_tui.gate.model import ACTIVE, AttemptState
from a2a_tui.jsontypes import JsonObject


def card_status(card_state: str, attempt_state: str | None) -> str:
    """What a card's status reads as, following its latest attempt: integrated once that is,
    in progress while it is open, else the card's own state (draft | ready)."""
    if attempt_state == AttemptState.INTEGRATED:
        return "integrated"
    if attempt_state in ACTIVE:
        return "in progress"
    return card_state


@dataclass(frozen=True)
class CardView:
    id: str
    title: str
    version: int
    state: str                     # draft | ready
    fence: int
    status: str = ""               # `card_status`: follows the latest attempt

    def to_json(self) -> JsonObject:
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
    # A session launched for this attempt ran unconfined (a2a_tui/confine): its work was
    # done with the user's full access, and every view of the attempt says so.
    unconfined: bool = False

    def to_json(self) -> JsonObject:
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
    log_path: str | None = None    # the full output of a command check (None: structural)
    # Not run: an earlier blocking check failed (passed is False, but nothing failed here).
    skipped: bool = False


@dataclass(frozen=True)
class CheckOutput:
    """What one check printed: the tails the gate kept, and where its full log is."""

    name: str
    stdout_tail: str
    stderr_tail: str
    log_path: str | None


@dataclass(frozen=True)
class AttemptPlace:
    """Where an attempt's work is: its start commit, branch, worktree and candidate."""

    id: str
    card_id: str
    state: str
    start_commit: str
    branch: str
    worktree: str
    worktree_state: str
    target_branch: str
    card_version: int
    submission_n: int
    submitted_sha: str | None


@dataclass(frozen=True)
class CardDetail:
    """A card's current version in full (its TOML fields) and its attempts."""

    card: CardView
    body: dict[str, Any]
    attempts: tuple[AttemptView, ...]


@dataclass(frozen=True)
class VerifyView:
    """An attempt's verify run and its checks so far, in the order they ran."""

    run: int
    state: str                     # running | interrupted | a verdict (verify/results.py)
    checks: tuple[CheckView, ...]


_CARD = ("SELECT id, title, version, state, fence, (SELECT a.state FROM attempts a"
         " WHERE a.card_id = cards.id ORDER BY a.n DESC LIMIT 1) AS attempt_state FROM cards")
_ATTEMPT = ("SELECT id, card_id, state, fence, worktree_state, submitted_sha, rejections, writer,"
            " EXISTS(SELECT 1 FROM events l WHERE l.attempt = attempts.id"
            "   AND l.kind = 'session_launching'"
            "   AND json_extract(l.payload, '$.confinement.confined') = 0) AS unconfined"
            " FROM attempts")


def _attempt_view(r) -> AttemptView:
    return AttemptView(**{**dict(r), "unconfined": bool(r["unconfined"])})


def cards(db, limit: int | None = None) -> list[CardView]:
    """Cards by id, T-2 before T-16 (the first `limit`)."""
    sql, params = f"{_CARD} ORDER BY id COLLATE natural_ids", ()
    if limit is not None:
        sql, params = f"{sql} LIMIT ?", (limit,)
    return [CardView(r["id"], r["title"], r["version"], r["state"], r["fence"],
                     card_status(r["state"], r["attempt_state"])) for r in db.all(sql, params)]


def attempts(db) -> list[AttemptView]:
    """Every attempt, in the order they were claimed."""
    return [_attempt_view(r) for r in db.all(f"{_ATTEMPT} ORDER BY claimed_ns")]


def latest_attempt(db, card_id: str) -> AttemptView | None:
    """The card's most recent attempt, if it has one."""
    r = db.one(f"{_ATTEMPT} WHERE card_id = ? ORDER BY n DESC LIMIT 1", (card_id,))
    return None if r is None else _attempt_view(r)


def last_verify(db, attempt_id: str) -> VerifyView | None:
    """The attempt's latest verify run with its per-check results, if it was ever verified."""
    v = db.one("SELECT run, state FROM verifications WHERE attempt_id = ?"
               " ORDER BY run DESC LIMIT 1", (attempt_id,))
    if v is None:
        return None
    # Whether a step was skipped is in its event (the projection has no column for it).
    checks = tuple(
        CheckView(name=x["name"], kind=x["kind"], blocking=bool(x["blocking"]),
                  passed=bool(x["passed"]), exit_code=x["exit_code"],
                  duration_s=x["duration_s"], detail=x["detail"], log_path=x["log_path"],
                  skipped=bool(x["skipped"]))
        for x in db.all("SELECT c.*, json_extract(e.payload, '$.skipped') AS skipped"
                        " FROM check_results c LEFT JOIN events e ON e.seq = c.seq"
                        " WHERE c.attempt_id = ? AND c.run = ? ORDER BY c.id",
                        (attempt_id, v["run"])))
    return VerifyView(run=v["run"], state=v["state"], checks=checks)


def check_outputs(db, attempt_id: str, run: int) -> list[CheckOutput]:
    """What each check of a verify run printed (tails) and where its log is, in chain order."""
    return [CheckOutput(r["name"], r["stdout_tail"], r["stderr_tail"], r["log_path"])
            for r in db.all("SELECT name, stdout_tail, stderr_tail, log_path FROM check_results"
                            " WHERE attempt_id = ? AND run = ? ORDER BY id", (attempt_id, run))]


def attempt_place(db, attempt_id: str) -> AttemptPlace | None:
    """Where the attempt's work is, if there is such an attempt."""
    r = db.one("SELECT id, card_id, state, start_commit, branch, worktree, worktree_state,"
               " target_branch, card_version, submission_n, submitted_sha FROM attempts"
               " WHERE id = ?", (attempt_id,))
    return None if r is None else AttemptPlace(**r)


def card_detail(db, card_id: str) -> CardDetail | None:
    """The card's current version in full, with its attempts in the order they were claimed."""
    r = db.one("SELECT id, title, version, state, fence, body FROM cards WHERE id = ?",
               (card_id,))
    if r is None:
        return None
    atts = db.all(f"{_ATTEMPT} WHERE card_id = ? ORDER BY n", (card_id,))
    return CardDetail(CardView(r["id"], r["title"], r["version"], r["state"], r["fence"]),
                      json.loads(r["body"]), tuple(_attempt_view(a) for a in atts))


def output_tail(stdout: str, stderr: str, lines: int = 10) -> list[str]:
    """The last `lines` lines a check printed, stdout's then stderr's (the order its log keeps
    them in), each side labelled when both printed something."""
    outs = [(name, text.rstrip().splitlines())
            for name, text in (("stdout", stdout), ("stderr", stderr)) if text.strip()]
    if not outs:
        return []
    if len(outs) == 1:
        return outs[0][1][-lines:]
    out: list[str] = []
    for name, text_lines in outs:
        out += [f"[{name}]", *text_lines[-max(1, lines // 2):]]
    return out
