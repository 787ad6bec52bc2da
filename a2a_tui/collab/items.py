"""The board's records as the rest of a2a receives them: an item (Q-<n>, F-<n>) with its status,
its answers and closures, and what an answer sent. Read once from the store (collab/board.py) and
passed as such; `to_json` is what `a2a board … --json` prints, its keys in the table's order."""

from __future__ import annotations

import json
from dataclasses import dataclass

from a2a_tui.jsontypes import JsonObject


@dataclass(frozen=True)
class Option:
    """One answer a question offers: its key (`A`) and its text."""

    key: str
    text: str

    def to_json(self) -> JsonObject:
        return {"key": self.key, "text": self.text}


@dataclass(frozen=True)
class BoardItem:
    """A question to the user or a finding, as stored (items are never edited), with its status
    derived from the records that point at it: open, answered or closed."""

    id: str
    kind: str                   # question | finding
    title: str
    body: str
    options: tuple[Option, ...]
    recommend: str | None
    why: str | None
    blocking: bool
    category: str
    protected: bool
    asked_by: str | None        # the asking session; None for the user or the gate
    actor: str
    role: str | None
    task: str | None
    attempt: str | None
    seq: int
    ts_ns: int
    status: str                 # open | answered | closed

    @classmethod
    def of(cls, row, status: str) -> BoardItem:
        """From a `board_items` row."""
        return cls(id=row["id"], kind=row["kind"], title=row["title"], body=row["body"],
                   options=tuple(Option(o["key"], o["text"]) for o in json.loads(row["options"])),
                   recommend=row["recommend"], why=row["why"], blocking=bool(row["blocking"]),
                   category=row["category"], protected=bool(row["protected"]),
                   asked_by=row["asked_by"], actor=row["actor"], role=row["role"],
                   task=row["task"], attempt=row["attempt"], seq=row["seq"], ts_ns=row["ts_ns"],
                   status=status)

    def option_text(self, key: str) -> str | None:
        return next((o.text for o in self.options if o.key == key), None)

    def to_json(self) -> JsonObject:
        return {"id": self.id, "kind": self.kind, "title": self.title, "body": self.body,
                "options": [o.to_json() for o in self.options], "recommend": self.recommend,
                "why": self.why, "blocking": self.blocking, "category": self.category,
                "protected": self.protected, "asked_by": self.asked_by, "actor": self.actor,
                "role": self.role, "task": self.task, "attempt": self.attempt, "seq": self.seq,
                "ts_ns": self.ts_ns, "status": self.status}


@dataclass(frozen=True)
class BoardRecord:
    """An answer or a closure of an item; an answer with its user input's words and where that
    was delivered."""

    seq: int
    item_id: str
    kind: str                   # answer | close
    user_input: str | None
    reason: str | None
    actor: str
    session: str | None
    role: str | None
    ts_ns: int
    input_kind: str | None
    input_text: str | None
    option_key: str | None
    delivered_to: str | None
    dispatch: int | None

    @classmethod
    def of(cls, row) -> BoardRecord:
        return cls(**{k: row[k] for k in cls.__dataclass_fields__})

    def to_json(self) -> JsonObject:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class Sent:
    """The held answers for one asking session, sent as one prompt (`dispatch`), or not: `why`."""

    session: str
    user_inputs: tuple[str, ...]
    dispatch: int | None
    why: str | None = None

    def to_json(self) -> JsonObject:
        out: JsonObject = {"session": self.session, "user_inputs": list(self.user_inputs),
                           "dispatch": self.dispatch}
        if self.why is not None:
            out["why"] = self.why
        return out


@dataclass(frozen=True)
class Answered:
    """An answer recorded: the item, the user input that is the answer, and whether it was held
    for a batch or sent."""

    item: BoardItem
    user_input: str
    held: bool
    sent: tuple[Sent, ...]

    def to_json(self) -> JsonObject:
        return {**self.item.to_json(), "user_input": self.user_input, "held": self.held,
                "sent": [s.to_json() for s in self.sent]}


@dataclass(frozen=True)
class ItemShown:
    """One item with its answers and closures, oldest first (`a2a board show`)."""

    item: BoardItem
    records: tuple[BoardRecord, ...]

    def to_json(self) -> JsonObject:
        return {**self.item.to_json(), "records": [r.to_json() for r in self.records]}


@dataclass(frozen=True)
class Board:
    """Every item, and every answer and closure as separate records (`a2a board list`)."""

    items: tuple[BoardItem, ...]
    records: tuple[BoardRecord, ...]

    def to_json(self) -> JsonObject:
        return {"items": [i.to_json() for i in self.items],
                "records": [r.to_json() for r in self.records]}
