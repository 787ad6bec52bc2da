"""The inbox's entries as the rest of a2a receives them: an entry (I-<n>) with its derived state,
the entries that answer it and where it was delivered. Read once from the store
(collab/inbox.py) and passed as such; `to_json` is what `a2a inbox … --json` prints, its keys in
the table's order."""

from __future__ import annotations

from dataclasses import dataclass

from a2a_tui.jsontypes import JsonObject


@dataclass(frozen=True)
class Delivered:
    """The pane an entry went to, as which dispatch."""

    session: str
    dispatch: int

    def to_json(self) -> JsonObject:
        return {"session": self.session, "dispatch": self.dispatch}


@dataclass(frozen=True)
class InboxEntry:
    """An entry between the controllers (never edited); its state from the entries that point
    at it: open, acked or disposed."""

    id: str
    n: int
    kind: str                       # assign | revise | stop | report | ack | disposition
    author_session: str | None      # None when the user wrote it
    author_role: str                # ideation | executive | user
    recipient: str                  # ideation | executive | user
    card_id: str | None
    card_version: int | None
    status: str | None              # a report's: PASS | INCOMPLETE | BLOCKED | NO_GO
    ref: str | None
    text: str
    quote: str | None
    user_input: str | None
    authorized: bool | None         # None: no quote needed or given
    authorization_note: str | None
    seq: int
    ts_ns: int
    state: str                      # open | acked | disposed
    responses: tuple[str, ...]      # the ids of the entries that point at this one
    delivered: Delivered | None

    def to_json(self) -> JsonObject:
        out: JsonObject = {k: getattr(self, k) for k in self.__dataclass_fields__}
        out["responses"] = list(self.responses)
        out["delivered"] = self.delivered.to_json() if self.delivered else None
        return out


@dataclass(frozen=True)
class EntryShown:
    """One entry with the entries that point at it, whole (`a2a inbox show`)."""

    entry: InboxEntry
    responses: tuple[InboxEntry, ...]

    def to_json(self) -> JsonObject:
        return {**self.entry.to_json(), "responses": [r.to_json() for r in self.responses]}
