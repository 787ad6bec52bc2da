"""The board: questions to the user and findings anyone reports; nothing is deleted."""

from __future__ import annotations

import time

PROTECTED_CATEGORIES = ("permission", "scope", "acceptance", "security", "irreversible")


def post_finding_in_tx(tx, *, title: str, body: str, category: str = "other",
                       blocking: bool = False, actor: str, session: str | None,
                       task: str | None = None, attempt: str | None = None) -> str:
    """Record a finding (F-<n>) inside an open write transaction; returns its id."""
    item_id = f"F-{tx.next_counter('F')}"
    protected = bool(blocking) or category in PROTECTED_CATEGORIES
    seq = tx.append("board_item_posted", actor=actor, task=task, attempt=attempt, session=session,
                    payload={"id": item_id, "kind": "finding", "title": title, "body": body,
                             "category": category, "blocking": bool(blocking),
                             "protected": protected})
    tx.execute(
        "INSERT INTO board_items(id, kind, title, body, blocking, category, protected, asked_by,"
        " actor, task, attempt, seq, ts_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (item_id, "finding", title, body, int(bool(blocking)), category, int(protected), session,
         actor, task, attempt, seq, time.time_ns()))
    return item_id
