"""The inbox between the ideation and executive controllers: append-only entries (I-<n>).

Who may write which kind is fixed in `roles.py`; acknowledgements and dispositions are new
entries pointing at old ones. New entries are delivered to the recipient's pane as a notice.
"""

from __future__ import annotations

import time

from a2a_tui.collab.authorization import check_quote, needs_authorization
from a2a_tui.collab.context import Collab, records_refusals, require_text
from a2a_tui.collab.delivery import deliver_in_tx, live_session
from a2a_tui.collab.entries import Delivered, EntryShown, InboxEntry
from a2a_tui.collab.roles import INBOX_KINDS, REPORT_STATUSES, inbox_rule, may_write
from a2a_tui.collab.user_input import record_user_input_in_tx
from a2a_tui.errors import A2AError
from a2a_tui.payloads.collab import InboxPosted
from a2a_tui.queue import wake

NOTICE_CHARS = 160


@records_refusals
def post(c: Collab, kind: str, text: str, *, card: str | None = None, status: str | None = None,
         ref: str | None = None, quote: str | None = None,
         user_input: str | None = None) -> InboxEntry:
    """Append an inbox entry after checking the caller's role, its fields and its references.

    An `assign` of a card that needs the user's authorization is stored either way; it is
    authorized only when `quote` appears verbatim in user input `user_input`.
    """
    text = require_text(text, "--text")
    _check_shape(kind, card, status, ref, quote, user_input)
    role = c.role
    if not may_write(role, kind):
        raise c.refuse("kind_not_allowed",
                       f"{c.caller.describe()} may not write an inbox {kind!r}: {inbox_rule(role)}",
                       kind=kind)
    author_role = role or "user"
    with c.store.write() as tx:
        ref_row = _ref(tx, ref)
        card_version = _card_version(tx, card)
        if kind == "report" and author_role == "ideation":
            _check_relay(c, status, ref_row)
        recipient = _recipient(kind, author_role, ref_row)
        authorized, note = None, None
        if c.caller.is_user:
            # The user's own entry is their decision: it is backed by a user input record.
            user_input = record_user_input_in_tx(tx, "action", f"inbox {kind}: {text}",
                                                 source="cli", ref=ref)
            quote = f"inbox {kind}: {text}"
            if kind == "assign":
                authorized, note = 1, f"posted by the user ({user_input})"
        elif kind == "assign" and (quote or user_input or needs_authorization(tx, card)):
            ok, note = check_quote(tx, quote, user_input)
            authorized = int(ok)
        n = tx.next_counter("I")
        entry_id = f"I-{n}"
        seq = tx.append("inbox_posted", actor=c.caller.actor, task=card, session=c.caller.session,
                        payload=InboxPosted(id=entry_id, kind=kind, recipient=recipient,
                                            status=status, ref=ref, authorized=authorized,
                                            note=note, user_input=user_input))
        tx.execute(
            "INSERT INTO inbox(id, n, kind, author_session, author_role, recipient, card_id,"
            " card_version, status, ref, text, quote, user_input, authorized, authorization_note,"
            " seq, ts_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (entry_id, n, kind, c.caller.session, author_role, recipient, card, card_version,
             status, ref, text, quote, user_input, authorized, note, seq, time.time_ns()))
        session = live_session(tx, recipient) if recipient != "user" else None
        dispatch = None
        if session is not None and session != c.caller.session:
            dispatch = deliver_in_tx(tx, [entry_id], session,
                                     notice(entry_id, kind, author_role, c.caller.session, card,
                                            status, ref, text),
                                     source="inbox", actor=c.caller.actor)
        entry = entry_of(tx, tx.one("SELECT * FROM inbox WHERE id = ?", (entry_id,)))
    if dispatch is not None:
        wake(c.repo)
    return entry


def _check_shape(kind: str, card: str | None, status: str | None, ref: str | None,
                 quote: str | None, user_input: str | None) -> None:
    """Usage errors that need no store: the right fields for the kind."""
    def usage(msg: str) -> A2AError:
        return A2AError("bad_entry", msg, exit_code=2)

    if kind not in INBOX_KINDS:
        raise usage(f"inbox kind must be one of {', '.join(INBOX_KINDS)}, not {kind!r}")
    if kind == "report":
        if status not in REPORT_STATUSES:
            raise A2AError("bad_status", f"a report's --status must be exactly one of"
                           f" {', '.join(REPORT_STATUSES)} (not {status!r})", exit_code=2)
    elif status is not None:
        raise usage(f"--status belongs to a report, not to {kind!r}")
    if kind in ("ack", "disposition") and not ref:
        raise usage(f"{kind!r} points at an earlier entry: pass --ref I-<n>")
    if kind == "assign" and not card:
        raise usage("an assign names the card: pass --card ID")
    if kind in ("revise", "stop") and not (card or ref):
        raise usage(f"{kind!r} needs --card ID or --ref I-<n>")
    if (quote is None) != (user_input is None):
        raise usage("--quote and --user-input go together")
    if quote is not None and kind != "assign":
        raise usage("--quote/--user-input authorize an assign only")


def _ref(tx, ref: str | None):
    if ref is None:
        return None
    row = tx.one("SELECT * FROM inbox WHERE id = ?", (ref,))
    if row is None:
        raise A2AError("unknown_ref", f"no inbox entry {ref!r} (see `a2a inbox list`)")
    return row


def _card_version(tx, card: str | None) -> int | None:
    if card is None:
        return None
    row = tx.one("SELECT version FROM cards WHERE id = ?", (card,))
    if row is None:
        raise A2AError("unknown_card", f"no card {card!r} (see `a2a card list`)")
    return row["version"]


def _check_relay(c: Collab, status: str, ref_row) -> None:
    """The ideation controller's report relays an executive report: same status or lower."""
    if ref_row is None or ref_row["kind"] != "report":
        raise c.refuse("relay_needs_report",
                       "an ideation report relays a report: pass --ref I-<n> of that report")
    if REPORT_STATUSES.index(status) < REPORT_STATUSES.index(ref_row["status"]):
        raise c.refuse("status_raised",
                       f"{ref_row['id']} reports {ref_row['status']}; a relay may keep or lower"
                       f" it, never raise it to {status} (order: {' > '.join(REPORT_STATUSES)})",
                       ref=ref_row["id"], status=status)


def _recipient(kind: str, author_role: str, ref_row) -> str:
    """Which side reads the entry: ideation, executive, or the user."""
    if kind in ("assign", "revise", "stop"):
        return "executive"
    if kind == "report":
        return "user" if author_role == "ideation" else "ideation"
    # ack / disposition: back to whoever wrote the entry it points at.
    if ref_row["author_role"] != author_role:
        return ref_row["author_role"]
    return ref_row["recipient"]


def notice(entry_id: str, kind: str, author_role: str, session: str | None, card: str | None,
           status: str | None, ref: str | None, text: str) -> str:
    """The short notice a new entry becomes in the recipient's pane."""
    who = author_role if session is None else f"{author_role} ({session})"
    about = " ".join(x for x in (card and f"card {card}", status, ref and f"re {ref}") if x)
    first = text.splitlines()[0] if text else ""
    if len(first) > NOTICE_CHARS:
        first = first[:NOTICE_CHARS - 1] + "…"
    return (f"Inbox {entry_id}: {kind} from {who}{' — ' + about if about else ''}: {first}\n"
            f"Read it with `a2a inbox show {entry_id}`.")


def entry_of(store_or_tx, row) -> InboxEntry:
    """An entry as shown: its stored fields, its derived state, and where it was delivered."""
    responses = store_or_tx.all("SELECT id, kind FROM inbox WHERE ref = ? ORDER BY n", (row["id"],))
    kinds = {r["kind"] for r in responses}
    dl = store_or_tx.one("SELECT session, dispatch FROM deliveries WHERE record = ?", (row["id"],))
    stored = {k: row[k] for k in row.keys()}
    stored["authorized"] = None if row["authorized"] is None else bool(row["authorized"])
    return InboxEntry(
        **stored,
        state="disposed" if "disposition" in kinds else "acked" if "ack" in kinds else "open",
        responses=tuple(r["id"] for r in responses),
        delivered=Delivered(dl["session"], dl["dispatch"]) if dl else None)


def list_entries(store, *, card: str | None = None) -> list[InboxEntry]:
    """Every entry, oldest first (acks and dispositions are entries of their own)."""
    sql, params = "SELECT * FROM inbox", ()
    if card:
        sql, params = sql + " WHERE card_id = ?", (card,)
    with store.snapshot() as tx:
        return [entry_of(tx, r) for r in tx.all(sql + " ORDER BY n", params)]


def show(store, entry_id: str) -> EntryShown:
    """One entry with the entries that point at it."""
    with store.snapshot() as tx:
        row = tx.one("SELECT * FROM inbox WHERE id = ?", (entry_id,))
        if row is None:
            raise A2AError("unknown_entry", f"no inbox entry {entry_id!r} (see `a2a inbox list`)")
        return EntryShown(entry_of(tx, row), tuple(
            entry_of(tx, r)
            for r in tx.all("SELECT * FROM inbox WHERE ref = ? ORDER BY n", (entry_id,))))
