"""Attempt states, scores, and small helpers shared by the gate commands."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.states import AttemptState

__all__ = ["AttemptState"]  # re-exported: the gate's commands name it here


class CardState(StrEnum):
    """A card is claimable only once its current version is confirmed ready."""

    DRAFT = "draft"
    READY = "ready"


class WorktreeState(StrEnum):
    """An attempt's clone: pending until recorded made, then present until reclaimed."""

    PENDING = "pending"
    PRESENT = "present"
    REMOVED = "removed"
    KEPT_DIRTY = "kept_dirty"
    UNKNOWN = "unknown"


class VerifyState(StrEnum):
    """A verify run: running, interrupted (it decided nothing), or its verdict."""

    RUNNING = "running"
    INTERRUPTED = "interrupted"
    PASSED = "passed"
    REJECTED = "rejected"
    FLAKY = "flaky"                        # unknown: never integrable, no strike
    CONTRACT_INVALID = "contract_invalid"  # the card's problem: no strike
    COMMIT_MISSING = "commit_missing"


class IntegrationState(StrEnum):
    """An integration: its intent recorded, then what the target's read-back showed."""

    INTENT = "intent"
    INTEGRATED = "integrated"
    NOT_APPLIED = "not_applied"
    UNKNOWN = "unknown"


class Resolution(StrEnum):
    """The user's answer to an `unknown` attempt (`a2a resolve --as`)."""

    INTEGRATED = "integrated"
    NOT_APPLIED = "not-applied"
    ABANDONED = "abandoned"


_A = AttemptState
# An attempt is active until it ends; only one active attempt per card at a time.
ACTIVE = (_A.CLAIMED, _A.SUBMITTED, _A.VERIFYING, _A.REJECTED, _A.VERIFIED, _A.INTEGRATING,
          _A.UNKNOWN)
ENDED = (_A.INTEGRATED, _A.ABANDONED, _A.SUPERSEDED, _A.FAILED)
# Active, but no gate command may act on them until their outcome is read: `integrating` by
# recovery (from the target ref), `unknown` by the user (`a2a resolve`).
UNRESOLVED = (_A.INTEGRATING, _A.UNKNOWN)
# What takes a submission, and what a verify runs on.
SUBMITTABLE = (_A.CLAIMED, _A.SUBMITTED, _A.REJECTED, _A.VERIFIED)
VERIFIABLE = (_A.SUBMITTED, _A.REJECTED, _A.VERIFIED)

_V = VerifyState
# The runs that decided something (an interrupted one did not), and what each verdict makes of
# the attempt (the others send it back to `submitted`, no strike).
COMPLETED = (_V.PASSED, _V.REJECTED, _V.FLAKY, _V.CONTRACT_INVALID, _V.COMMIT_MISSING)
ATTEMPT_AFTER = {_V.PASSED: _A.VERIFIED, _V.REJECTED: _A.REJECTED}

ATTEMPT_ID = re.compile(r"^(?P<card>[A-Za-z][A-Za-z0-9_.-]*)-a(?P<n>[0-9]+)$")
SCORE = re.compile(r"^(?P<dim>boundary|taste)=(?P<n>-?[0-9]+):(?P<reason>.*)$", re.S)


# Card fields whose change alters what "done" means: a change bumps the card version.
CONTRACT_FIELDS = (
    "goal", "non_goals", "allowed_paths", "acceptance", "checks", "red_command", "red_paths",
    "acceptance_files", "needs_user_authorization", "task_type",
)
# Contract fields added later, with their defaults: in the digest only when a card sets them, so
# a card that does not keeps the digest it was recorded with (the ledger folds it again).
LATER_CONTRACT_FIELDS: dict[str, Any] = {
    "red_timeout_s": None, "artifacts": [], "env": {}, "droppable_tests": [], "review": "none",
    "integrate_approval": "none", "red_report": None,
}


def contract_digest_of(body: dict[str, Any]) -> str:
    """The digest of a card body's contract fields: a change of it is a new card version."""
    fields = {k: body[k] for k in CONTRACT_FIELDS}
    fields.update({k: body[k] for k, default in LATER_CONTRACT_FIELDS.items()
                   if body.get(k, default) != default})
    return _digest(fields)


def contract_lines(body: dict[str, Any]) -> list[str]:
    """A card's contract as the lines a session's prompt quotes (a worker's task, a review)."""
    return [f"Goal: {body['goal']}",
            "Non-goals:", *[f"- {x}" for x in body["non_goals"]],
            f"Allowed paths: {', '.join(body['allowed_paths'])}",
            "Acceptance:", *[f"- {x}" for x in body["acceptance"]]]


def _digest(obj: Any) -> str:
    raw = json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(raw.encode()).hexdigest()


@dataclass(frozen=True)
class CommandResult:
    """A gate command's answer: attributes for its callers (the CLI, the workbench), one
    `to_json()` for `--json`. A field named like a keyword ends in `_` (`as_`: "as")."""

    def to_json(self) -> JsonObject:
        return {f.name.rstrip("_"): _plain(getattr(self, f.name)) for f in fields(self)}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    return value.to_json() if hasattr(value, "to_json") else value


@dataclass(frozen=True)
class Score:
    boundary: int
    boundary_reason: str
    taste: int
    taste_reason: str

    def to_json(self) -> JsonObject:
        return {"boundary": self.boundary, "boundary_reason": self.boundary_reason,
                "taste": self.taste, "taste_reason": self.taste_reason}


def parse_scores(items: list[str] | None) -> Score:
    """`boundary=N:"reason"` and `taste=N:"reason"`, each 0-3 with a reason; both required."""
    got: dict[str, tuple[int, str]] = {}
    for item in items or []:
        m = SCORE.match(item.strip())
        if not m:
            raise A2AError("bad_score",
                           f"score {item!r}: expected boundary=N:reason or taste=N:reason")
        n, reason = int(m["n"]), m["reason"].strip().strip('"').strip()
        if not 0 <= n <= 3:
            raise A2AError("bad_score", f"score {m['dim']}={n}: must be 0, 1, 2 or 3")
        if not reason:
            raise A2AError("bad_score", f"score {m['dim']}: a reason is required")
        if m["dim"] in got:
            raise A2AError("bad_score", f"score {m['dim']} given twice")
        got[m["dim"]] = (n, reason)
    missing = [d for d in ("boundary", "taste") if d not in got]
    if missing:
        raise A2AError(
            "scores_required",
            "both scores are required: --score boundary=N:\"reason\" --score taste=N:\"reason\""
            f" (missing: {', '.join(missing)})",
        )
    return Score(got["boundary"][0], got["boundary"][1], got["taste"][0], got["taste"][1])




def way_out(attempt_id: str, state: str) -> str:
    """What ends an unresolved attempt, for refusals that meet one."""
    if state == AttemptState.UNKNOWN:
        return (f"its integration's outcome could not be read: the user looks at the target and"
                f" decides with `a2a resolve {attempt_id} --as integrated|not-applied|abandoned"
                " --reason ...`")
    return ("its integration is in progress, or its process died: `a2a recover` reads the"
            " outcome from the target")
