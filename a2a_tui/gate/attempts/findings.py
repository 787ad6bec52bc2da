"""What the gate reports on the board: worktrees it had to keep."""

from __future__ import annotations

from a2a_tui.collab.board import post_finding_in_tx
from a2a_tui.gate.ledger.records import AttemptRecord


def report_kept_worktree(tx, att: AttemptRecord, worktree: str, reason: str,
                         files: tuple[str, ...] = ()) -> str:
    """Post a non-blocking board finding that the attempt's worktree was kept, why, and the
    uncommitted `files` that kept it."""
    body = f"Worktree {worktree} of {att.id} was kept: {reason}."
    if files:
        body += "\n" + "\n".join(files[:20])
    return post_finding_in_tx(
        tx, title=f"Kept worktree of {att.id}", body=body, category="irreversible",
        blocking=False, actor="gate", session=None, task=att.card_id, attempt=att.id)
