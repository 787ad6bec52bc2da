"""Records that waited for a recipient: delivered to the first session of that role to launch.

An inbox entry for a role with no live session, or a user message for the ideation controller
while none runs, is kept undelivered (no `deliveries` row). When a session of that role is
spawned, all of them go to it as one prompt, oldest first.
"""

from __future__ import annotations

from a2a_tui.collab.delivery import deliver_in_tx
from a2a_tui.collab.inbox import notice
from a2a_tui.collab.user_input import SAY_KINDS, say_text


def deliver_backlog_in_tx(tx, session_id: str, role: str, *, actor: str) -> int | None:
    """Queue every undelivered record addressed to `role` to `session_id`; the dispatch n."""
    records: list[str] = []
    parts: list[str] = []
    for e in tx.all("SELECT * FROM inbox WHERE recipient = ? AND author_session IS NOT ?"
                    " AND id NOT IN (SELECT record FROM deliveries) ORDER BY n",
                    (role, session_id)):
        records.append(e["id"])
        parts.append(notice(e["id"], e["kind"], e["author_role"], e["author_session"],
                            e["card_id"], e["status"], e["ref"], e["text"]))
    if role == "ideation":
        kinds = ",".join("?" * len(SAY_KINDS))
        for u in tx.all(f"SELECT * FROM user_inputs WHERE kind IN ({kinds}) AND ref IS NULL"
                        " AND source IN ('cli', 'tui') AND to_session IS NULL"
                        " AND id NOT IN (SELECT record FROM deliveries) ORDER BY n", SAY_KINDS):
            records.append(u["id"])
            parts.append(say_text(u["id"], u["kind"], u["text"]))
    if not records:
        return None
    text = (f"While no {role} session was running, {len(records)} record(s) arrived for you:\n\n"
            + "\n\n".join(parts))
    return deliver_in_tx(tx, records, session_id, text, source="inbox", actor=actor)
