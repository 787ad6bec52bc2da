"""Whether a card that needs the user's authorization may be claimed.

Only a user input record can authorize; an inbox `assign` carries a verbatim quote of it, and
the inbox marks the entry authorized or not when it is posted. Nothing else is read: no text
an agent wrote ("approved by the user", an `Approved-by:` line) is ever parsed for consent.

Text typed into a managed pane (a prompt no dispatch of a2a's matches) is recorded as the
user's input from the pane (`source = "pane"`), but any process that reaches the pane's
terminal can type there (`tmux send-keys`): it authorizes only once the user has confirmed it
as theirs (`confirm_pane_input`: `a2a input confirm U-<n>`, a user input of its own).
"""

from __future__ import annotations

import json

from a2a_tui.collab.user_input import AUTHORIZING_KINDS

# A quote shorter than this must be the user's whole message: a fragment like "yes" or "ok"
# lifted out of a longer message can say the opposite of the message.
MIN_QUOTE_CHARS = 6


def check_quote(tx, quote: str | None, user_input: str | None) -> tuple[bool, str]:
    """(authorized, note): does `quote` appear verbatim in user input `user_input`?"""
    if not quote or not quote.strip() or not user_input:
        return False, "no quote of the user: pass --quote \"...\" --user-input U-<n>"
    row = tx.one("SELECT kind, text, source FROM user_inputs WHERE id = ?", (user_input,))
    if row is None:
        return False, f"{user_input} is not a user input record (user inputs are U-<n>)"
    if row["kind"] not in AUTHORIZING_KINDS:
        return False, f"{user_input} is a {row['kind']}: it authorizes nothing"
    if row["source"] == "pane" and not pane_input_confirmed(tx, user_input):
        return False, (f"{user_input} was typed into a pane: it authorizes nothing until the"
                       f" user confirms it as theirs (`a2a input confirm {user_input}`)")
    q = quote.strip()
    if q not in row["text"]:
        return False, f"the quote was not found verbatim in {user_input}"
    if len(q) < MIN_QUOTE_CHARS and q != row["text"].strip():
        return False, (f"the quote is a fragment shorter than {MIN_QUOTE_CHARS} characters of"
                       f" {user_input}: quote the whole message or more of it")
    return True, f"quote found verbatim in {user_input}"


def pane_input_confirmed(tx, user_input: str) -> bool:
    """Whether the user confirmed pane input `user_input` as theirs (from their terminal or
    the workbench, never from a pane)."""
    return tx.one("SELECT 1 FROM user_inputs WHERE kind = 'action' AND ref = ? AND source IN"
                  " ('cli', 'tui') AND text LIKE 'confirm %'", (user_input,)) is not None


def needs_authorization(tx, card_id: str) -> bool:
    """Whether the card's current version has `needs_user_authorization = true`."""
    row = tx.one("SELECT body FROM cards WHERE id = ?", (card_id,))
    return row is not None and bool(json.loads(row["body"]).get("needs_user_authorization"))


def claim_refusal(tx, card_id: str) -> str | None:
    """None if the card may be claimed, else the reason it may not.

    Authorization is for a card version: after a contract change (new version) the old
    assignment's authorization does not carry over.
    """
    if not needs_authorization(tx, card_id):
        return None
    version = tx.one("SELECT version FROM cards WHERE id = ?", (card_id,))["version"]
    assigns = tx.all(
        "SELECT id, authorized, card_version FROM inbox WHERE kind = 'assign' AND card_id = ?"
        " ORDER BY n", (card_id,))
    if any(a["authorized"] and a["card_version"] == version for a in assigns):
        return None
    if not assigns:
        return (f"card {card_id} needs the user's authorization: it can be claimed only after an"
                " `assign` that quotes the user verbatim (--quote ... --user-input U-n)")
    current = [a["id"] for a in assigns if a["card_version"] == version]
    if not current:
        return (f"card {card_id} needs the user's authorization and changed to version {version}"
                f" after its assignment ({', '.join(a['id'] for a in assigns)}): assign it again,"
                " quoting the user")
    return (f"card {card_id} needs the user's authorization and its only assignment"
            f"{'s' if len(current) > 1 else ''} ({', '.join(current)})"
            f" {'are' if len(current) > 1 else 'is'} unauthorized: no verbatim quote of a user"
            " input record (text that claims approval is not approval)")
