"""One payload type per event kind, registered beside the kinds (a2a_tui/kinds.py).

`PAYLOADS` maps a kind to its type (payloads/attempts.py, verify.py, integrate.py, reviews.py,
targets.py: frozen dataclasses, one field per key). The appender takes the type (store/db.py
`Tx.append` refuses a payload that is not its kind's type, and a plain dict for a kind that has
one); the fold's handlers, the metrics and the workbench read it back with `payload_of`,
tolerant of older logs (payloads/base.py). The events reference (docs/reference/events.md)
lists each kind's fields from these types.

Every kind the gate's fold applies has its type (kinds.py `GateEvent`); the kinds outside the
gate's tables (kinds.py `EventKind` and the rest of a2a's) still carry a plain dict.
"""

from __future__ import annotations

from typing import Any

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
    the dict itself for a kind with no type yet."""
    t = PAYLOADS.get(kind)
    return raw if t is None else t.read(raw)


def stored(kind: str, payload: Payload | dict[str, Any] | None) -> dict[str, Any]:
    """The payload as the log stores it, once checked against the kind's type: the type's
    instance for a typed kind (anything else is refused), a dict for the others."""
    t = PAYLOADS.get(kind)
    if t is None:
        if isinstance(payload, Payload):
            raise PayloadError(f"{kind} has no payload type; {type(payload).__name__} is"
                               f" {payload.KIND}'s")
        return payload or {}
    if type(payload) is not t:
        got = "no payload" if payload is None else type(payload).__name__
        raise PayloadError(f"{kind} takes a {t.__name__} payload, not {got}")
    return payload.dumped()


__all__ = ["PAYLOADS", "Payload", "PayloadError", "payload_of", "stored", "type_of"]
