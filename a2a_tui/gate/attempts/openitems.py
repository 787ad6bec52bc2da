"""What a worker says it left open, submitted with the candidate (`a2a submit ... --unresolved
"..."`): kept with the evidence, shown to whoever verifies and integrates it."""

from __future__ import annotations

import json

from a2a_tui.errors import A2AError

MAX_ITEMS = 20
MAX_CHARS = 500


def clean(items: list[str] | None) -> list[str]:
    """The items as given, each one line of text; anything else is refused (bad_unresolved)."""
    out = []
    for item in items or []:
        text = " ".join(item.split())
        if not text:
            raise A2AError("bad_unresolved", "--unresolved needs text: what is left open",
                           exit_code=2)
        if len(text) > MAX_CHARS:
            raise A2AError("bad_unresolved", f"--unresolved: {len(text)} characters (at most"
                           f" {MAX_CHARS}); say it shorter", exit_code=2)
        out.append(text)
    if len(out) > MAX_ITEMS:
        raise A2AError("bad_unresolved", f"{len(out)} --unresolved items (at most {MAX_ITEMS})",
                       exit_code=2)
    return out


def of_attempt(db, attempt_id: str) -> list[str]:
    """The open items of the attempt's current submission."""
    row = db.one("SELECT e.payload FROM events e JOIN attempts a ON a.id = e.attempt"
                 " WHERE e.attempt = ? AND e.kind = 'submitted'"
                 " AND json_extract(e.payload, '$.n') = a.submission_n"
                 " ORDER BY e.seq DESC LIMIT 1", (attempt_id,))
    return list(json.loads(row["payload"]).get("unresolved", [])) if row else []
