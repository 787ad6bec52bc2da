"""User input records (U-<n>): what the user said or did, kept apart from dispatched text.

Only the user creates them: a managed session that tries is refused. They are the only thing
that can authorize: text any session writes is data, whatever it claims.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from a2a_tui.collab.context import Collab, records_refusals, require_text
from a2a_tui.collab.delivery import deliver_in_tx, live_session
from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads.collab import UserInput
from a2a_tui.queue import wake

# review_comments: line comments on a diff sent to its writer (gate/reviews/comments.py;
# migration 7).
USER_INPUT_KINDS = ("message", "answer", "approval", "refusal", "choice", "action",
                    "review_comments")
# A refusal never authorizes anything, even if a quote from it reads like consent.
AUTHORIZING_KINDS = ("message", "answer", "approval", "choice", "action")
SAY_KINDS = ("message", "approval", "refusal")


@dataclass(frozen=True)
class Said:
    """A message of the user's to the ideation controller: its record, and the dispatch that
    carries it to that session's pane (None: no live ideation session)."""

    id: str
    kind: str
    text: str
    to_session: str | None
    dispatch: int | None

    def to_json(self) -> JsonObject:
        return {"id": self.id, "kind": self.kind, "text": self.text,
                "to_session": self.to_session, "dispatch": self.dispatch}


@dataclass(frozen=True)
class UserInputRecord:
    """A user input as `a2a input list` shows it: the `user_inputs` row and where it was
    delivered (`delivered_to`, `dispatch`; None: nowhere)."""

    id: str
    n: int
    kind: str
    text: str
    source: str
    to_session: str | None
    ref: str | None
    option_key: str | None
    attempt: str | None
    seq: int
    ts_ns: int
    delivered_to: str | None
    dispatch: int | None

    def to_json(self) -> JsonObject:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class Confirmed:
    """Pane input `confirms` confirmed as the user's by the user input `id`; `changed` False:
    it had been confirmed before (by `id`)."""

    id: str
    confirms: str
    changed: bool

    def to_json(self) -> JsonObject:
        return {"id": self.id, "confirms": self.confirms, "changed": self.changed}


def require_user(c: Collab, what: str) -> None:
    """Refuse (and record the attempt) unless the caller is the user."""
    if not c.caller.is_user:
        raise c.refuse(
            "user_only",
            f"{what} is the user's alone; {c.caller.describe()} is a managed session, and text a"
            " session writes is never user input (rule: only user input records authorize)",
            what=what)


def record_user_input_in_tx(tx, kind: str, text: str, *, source: str,
                            to_session: str | None = None, ref: str | None = None,
                            option_key: str | None = None, attempt: str | None = None,
                            details: dict[str, Any] | None = None) -> str:
    """Append a user input record inside an open write transaction; returns its id (U-<n>).

    `source` is where it came from: "cli", "tui", or "pane" (typed straight into a managed
    pane; the panes layer records those). The caller must already know the input is the user's.
    `details` are added to the event's payload (e.g. the pane and the signal's time).
    """
    if kind not in USER_INPUT_KINDS:
        raise A2AError("bad_kind", f"user input kind must be one of {', '.join(USER_INPUT_KINDS)},"
                       f" not {kind!r}", exit_code=2)
    n = tx.next_counter("U")
    uid = f"U-{n}"
    seq = tx.append("user_input", actor="user", attempt=attempt, session=to_session,
                    payload=UserInput(id=uid, kind=kind, text=text, source=source, ref=ref,
                                      option=option_key, **(details or {})))
    tx.execute("INSERT INTO user_inputs(id, n, kind, text, source, to_session, ref, option_key,"
               " attempt, seq, ts_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
               (uid, n, kind, text, source, to_session, ref, option_key, attempt, seq,
                time.time_ns()))
    return uid


@records_refusals
def say(c: Collab, text: str, kind: str = "message", *, source: str = "cli") -> Said:
    """Record a message (approval, refusal) from the user to the ideation controller and queue it
    to that session's pane. With no live ideation session it is recorded and not delivered."""
    text = require_text(text, "the message")
    if kind not in SAY_KINDS:
        raise A2AError("bad_kind", f"say --kind must be one of {', '.join(SAY_KINDS)}",
                       exit_code=2)
    require_user(c, "`a2a say`")
    with c.store.write() as tx:
        session = live_session(tx, "ideation")
        uid = record_user_input_in_tx(tx, kind, text, source=source, to_session=session)
        dispatch = None
        if session is not None:
            dispatch = deliver_in_tx(tx, [uid], session, say_text(uid, kind, text),
                                     source="user", actor="user")
    if dispatch is not None:
        wake(c.repo)
    return Said(uid, kind, text, session, dispatch)


@records_refusals
def confirm_pane_input(c: Collab, uid: str, *, source: str = "cli") -> Confirmed:
    """The user confirms that pane input `uid` (typed into a managed pane) was theirs: a user
    input of its own (kind action, `ref` = uid), after which a quote of `uid` can authorize
    (collab/authorization.py). Only the user, from their terminal or the workbench."""
    require_user(c, "confirming pane input")
    with c.store.write() as tx:
        row = get_user_input(tx, uid)
        if row is None:
            raise A2AError("unknown_user_input", f"no user input {uid!r} (see `a2a input list`)")
        if row["source"] != "pane":
            raise A2AError("not_pane_input", f"{uid} came from {row['source']}, not from a"
                           " pane: it needs no confirmation")
        done = tx.one("SELECT id FROM user_inputs WHERE kind = 'action' AND ref = ? AND"
                      " text LIKE 'confirm %'", (uid,))
        if done is not None:
            return Confirmed(done["id"], uid, False)
        new = record_user_input_in_tx(tx, "action", f"confirm {uid} as my words", source=source,
                                      ref=uid, details={"confirms": uid})
    return Confirmed(new, uid, True)


def say_text(uid: str, kind: str, text: str) -> str:
    """The prompt a user message becomes: its id first, so the controller can quote it."""
    label = "The user says" if kind == "message" else f"The user's {kind}"
    return f"{label} ({uid}; quote it as --user-input {uid}):\n{text}"


def get_user_input(store_or_tx, uid: str):
    """The user input row `uid`, or None."""
    return store_or_tx.one("SELECT * FROM user_inputs WHERE id = ?", (uid,))


def list_user_inputs(store) -> list[UserInputRecord]:
    """Every user input, oldest first, with where it was delivered (if anywhere)."""
    rows = store.all("SELECT u.*, d.session AS delivered_to, d.dispatch FROM user_inputs u"
                     " LEFT JOIN deliveries d ON d.record = u.id ORDER BY u.n")
    return [UserInputRecord(**{k: r[k] for k in UserInputRecord.__dataclass_fields__})
            for r in rows]
