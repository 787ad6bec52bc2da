"""Typed records out of the ledger's queries: what a reader gets instead of a table row.

The fold's handlers keep writing plain rows (ledger/rows.py); a query hands its caller a frozen
record, so a column is an attribute the type checker knows and a misspelt one fails where it is
read. `CardRecord` is the log's view of a card (`GateContext.card`), `AttemptRecord` of an attempt
(`GateContext.attempt`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.gate.model import AttemptState, CardState


@dataclass(frozen=True)
class CardRecord:
    """A card as the log gives it: its current version, state and fence, and its fields."""

    id: str
    version: int
    digest: str
    contract_digest: str | None
    state: CardState
    fence: int
    title: str | None
    body: dict[str, Any]
    source_path: str | None
    updated_seq: int | None

    @classmethod
    def of(cls, row: Any) -> CardRecord:
        """From the fold's row (or the cards table's: its body is JSON text there)."""
        body = row["body"]
        return cls(row["id"], row["version"], row["digest"], row["contract_digest"],
                   CardState(row["state"]), row["fence"], row["title"],
                   body if isinstance(body, dict) else json.loads(body), row["source_path"],
                   row["updated_seq"])


@dataclass(frozen=True)
class AttemptRecord:
    """An attempt as the log gives it (`GateContext.attempt`): its state, clone, start and target,
    its writer, its submissions and rejections so far."""

    id: str
    card_id: str
    n: int
    fence: int
    state: AttemptState
    branch: str
    worktree: str
    worktree_state: str
    start_commit: str
    target_branch: str
    card_version: int
    writer: str
    submission_n: int
    submitted_sha: str | None
    rejections: int
    follows: str | None
    isolated_seq: int | None
    claimed_ns: int | None
    ended_ns: int | None
    updated_seq: int | None

    @classmethod
    def of(cls, row: Any) -> AttemptRecord:
        """From the fold's row or the attempts table's (a column a row lacks reads as None)."""
        keys = set(row.keys())
        values = {f.name: row[f.name] if f.name in keys else None for f in fields(cls)}
        return cls(**{**values, "state": AttemptState(values["state"])})


def attempt_in(db: Any, attempt_id: str) -> AttemptRecord:
    """The attempt `attempt_id` of the attempts table (a Store or an open transaction), which the
    caller knows exists (it was read before, and attempts are never deleted)."""
    att = read_attempt(db, attempt_id)
    if att is None:
        raise A2AError("unknown_attempt", f"no attempt {attempt_id!r} (see `a2a status`)")
    return att


def read_attempt(db: Any, attempt_id: str) -> AttemptRecord | None:
    """The attempts table's row of `attempt_id` (a Store or an open transaction), as a record."""
    row = db.one("SELECT * FROM attempts WHERE id = ?", (attempt_id,))
    return None if row is None else AttemptRecord.of(row)

