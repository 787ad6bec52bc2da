"""What the gate reports on the board: worktrees it had to keep."""

from __future__ import annotations

from typing import Any

from a2a_tui.collab.board import post_finding_in_tx
from a2a_tui.gate.ledger.records import AttemptRecord


def report_kept_worktree(tx, att: AttemptRecord, result: dict[str, Any]) -> str:
    """Post a non-blocking board finding that the attempt's worktree was kept, and why."""
    reason = result.get("reason", "")
    files = result.get("files") or []
    body = f"Worktree {result['worktree']} of {att.id} was kept: {reason}."
    if files:
        body += "\n" + "\n".join(files[:20])
    return post_finding_in_tx(
        tx, title=f"Kept worktree of {att.id}", body=body, category="irreversible",
        blocking=False, actor="gate", session=None, task=att.card_id, attempt=att.id)
