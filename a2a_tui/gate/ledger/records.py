"""Typed records out of the ledger's queries: what a reader gets instead of a table row.

The fold's handlers keep writing plain rows (ledger/rows.py); a query hands its caller a frozen
record, so a column is an attribute the type checker knows and a misspelt one fails where it is
read. `CardRecord` is the log's view of a card (`GateContext.card`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from a2a_tui.gate.model import CardState


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
