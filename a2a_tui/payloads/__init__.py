"""One payload type per event kind, registered beside the kinds (a2a_tui/kinds.py).

`PAYLOADS` maps a kind to its type (frozen dataclasses, one field per key: the gate's in
attempts.py, verify.py, integrate.py, reviews.py, targets.py, rules.py; the sessions', panes'
and dispatches' in sessions.py, dispatch.py; the board's, inbox's and inputs' in collab.py; the
broker's in boundary.py; the store's in record.py; the orchestrator's, workbench's and demo's in
house.py; the retrospectives' in retro.py). The appender takes the type (store/db.py
`Tx.append` refuses a payload that is not its kind's type, and a plain dict for a kind that has
one); the fold's handlers, the metrics, the sentences and the workbench read it back with
`payload_of`, tolerant of older logs (payloads/base.py). The events reference
(docs/reference/events.md) lists each kind's fields from these types.

Every kind a2a appends or reads has its type (tests/store/test_payloads.py holds it against the
kinds docs/refgen finds in the code). A kind no part of a2a writes (a test's own `note`) still
takes a plain dict, and an old log's kind that a2a no longer knows reads back as its dict.
"""

from __future__ import annotations

from typing import Any

from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads import (
    attempts,
    boundary,
    collab,
    dispatch,
    house,
    integrate,
    record,
    retro,
    reviews,
    rules,
    sessions,
    targets,
    verify,
)
from a2a_tui.payloads.base import Payload, PayloadError

PAYLOADS: dict[str, type[Payload]] = {t.KIND: t for t in (
    *attempts.TYPES, *verify.TYPES, *integrate.TYPES, *reviews.TYPES, *targets.TYPES,
    *collab.TYPES,
    *boundary.TYPES,
    *record.TYPES,
    *house.TYPES,
    *retro.TYPES,
    *sessions.TYPES,
    *dispatch.TYPES,
    *rules.TYPES,
)}


def type_of(kind: str) -> type[Payload] | None:
    """The payload type of `kind` (None: a kind not typed yet)."""
    return PAYLOADS.get(kind)


def payload_of(kind: str, raw: dict[str, Any]) -> Any:
    """The typed payload of an event read back (its kind's type, tolerant: base.py `read`), or
    the dict itself for a kind with no type (one a2a does not write)."""
    t = PAYLOADS.get(kind)
    return raw if t is None else t.read(raw)


def stored_json(kind: str, payload: Payload | dict[str, Any] | None) -> JsonObject:
    """The payload as the log stores it (JSON), once checked against the kind's type: the
    type's instance for a typed kind (anything else is refused), a dict for the others."""
    t = PAYLOADS.get(kind)
    if t is None:
        if isinstance(payload, Payload):
            raise PayloadError(f"{kind} has no payload type; {type(payload).__name__} is"
                               f" {payload.KIND}'s")
        return payload or {}
    if type(payload) is not t:
        got = "no payload" if payload is None else type(payload).__name__
        raise PayloadError(f"{kind} takes a {t.__name__} payload, not {got}")
    return payload.to_json()


__all__ = ["PAYLOADS", "Payload", "PayloadError", "payload_of", "stored_json", "type_of"]
