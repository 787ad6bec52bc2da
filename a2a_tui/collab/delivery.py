"""Getting a record (U-<n>, I-<n>) to a pane: the one place collaboration writes into the queue.

A record is queued inside the caller's write transaction, with a `deliveries` row saying which
dispatch carried it; the caller drops the queue's wake file (`queue.wake`) after the commit.
"""

from __future__ import annotations

import time

from a2a_tui.identity import process_alive
from a2a_tui.payloads.collab import RecordsDelivered
from a2a_tui.queue import enqueue_in_tx


def session_is_live(tx, session_id: str) -> bool:
    """The session exists, has not exited, and its pane process (if recorded) is still alive."""
    row = tx.one("SELECT state, pane_pid, pane_pid_start FROM sessions WHERE id = ?",
                 (session_id,))
    if row is None or row["state"] == "exited":
        return False
    return row["pane_pid"] is None or process_alive(row["pane_pid"], row["pane_pid_start"])


def live_session(tx, role: str) -> str | None:
    """The most recently launched live session of `role`, or None."""
    rows = tx.all("SELECT id FROM sessions WHERE role = ? AND state != 'exited'"
                  " ORDER BY launch_seq DESC", (role,))
    for r in rows:
        if session_is_live(tx, r["id"]):
            return r["id"]
    return None


def deliver_in_tx(tx, records: list[str], session: str, text: str, *, source: str,
                  actor: str) -> int:
    """Queue `text` (carrying `records`) as ONE dispatch to `session`; returns dispatch n.

    A record already delivered cannot be delivered again (`deliveries` is keyed by record).
    """
    n = enqueue_in_tx(tx, session, text, source=source, actor=actor)
    seq = tx.append("records_delivered", actor=actor, session=session,
                    payload=RecordsDelivered(records=records, dispatch=n, source=source))
    for record in records:
        tx.execute("INSERT INTO deliveries(record, session, dispatch, seq, ts_ns)"
                   " VALUES (?,?,?,?,?)", (record, session, n, seq, time.time_ns()))
    return n


def delivery_of(store_or_tx, record: str) -> dict | None:
    """{session, dispatch} if `record` was queued to a pane, else None."""
    row = store_or_tx.one("SELECT session, dispatch FROM deliveries WHERE record = ?", (record,))
    return dict(row) if row else None

