"""Whether a card that needs the user's authorization may be claimed.

Only a user input record can authorize; an inbox `assign` carries a verbatim quote of it, and
the inbox marks the entry authorized or not when it is posted.
"""

from __future__ import annotations

import json


def claim_refusal(tx, card_id: str) -> str | None:
    """None if the card may be claimed, else the reason it may not."""
    row = tx.one("SELECT body FROM cards WHERE id = ?", (card_id,))
    if row is None or not json.loads(row["body"]).get("needs_user_authorization"):
        return None
    assigns = tx.all(
        "SELECT id, authorized FROM inbox WHERE kind = 'assign' AND card_id = ? ORDER BY n",
        (card_id,),
    )
    if any(a["authorized"] for a in assigns):
        return None
    if not assigns:
        return (f"card {card_id} needs the user's authorization: it can be claimed only after an"
                " `assign` that quotes the user verbatim (--quote ... --user-input U-n)")
    ids = ", ".join(a["id"] for a in assigns)
    return (f"card {card_id} needs the user's authorization and its only assignment ({ids}) is"
            " unauthorized: the quote was not found verbatim in the cited user input")
