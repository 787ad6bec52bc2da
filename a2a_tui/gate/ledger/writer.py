"""One writer of gate state: `record` appends an event and applies it to the tables in the same
transaction; `fold` applies the same handlers to the log, in memory, for the comparison and the
rebuild. Each table family keeps its handlers (ledger/attempts.py, reviews.py, targets.py); a
kind that changes several families has one handler in each."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

from a2a_tui.gate.ledger import attempts, reviews, targets
from a2a_tui.gate.ledger.attempts import Handler
from a2a_tui.gate.ledger.rows import Ledger, Rows, TxRows
from a2a_tui.kinds import GateEvent
from a2a_tui.payloads import Payload, payload_of, stored_json
from a2a_tui.store import Event
from a2a_tui.store.db import dumps


def _merged(*families: dict[GateEvent, Handler]) -> dict[GateEvent, tuple[Handler, ...]]:
    out: dict[GateEvent, tuple[Handler, ...]] = {}
    for family in families:
        for kind, handler in family.items():
            out[kind] = (*out.get(kind, ()), handler)
    return out


# Every event kind that changes a table the fold writes, with its handlers in order.
HANDLERS = _merged(attempts.HANDLERS, reviews.HANDLERS, targets.HANDLERS)


def apply(rows: Rows, ev: Event) -> None:
    """The event's changes to the gate's tables (none, for a kind that changes no table). Each
    handler receives the event and its typed payload (a2a_tui/payloads `payload_of`)."""
    handlers = HANDLERS.get(ev.kind, ())
    if handlers:
        p = payload_of(ev.kind, ev.payload)
        for handler in handlers:
            handler(rows, ev, p)


def record(tx: Any, kind: GateEvent | str, *, actor: str, task: str | None = None,
           attempt: str | None = None, session: str | None = None,
           payload: Payload | dict[str, Any] | None = None, ts_ns: int | None = None,
           kept: dict[str, Any] | None = None) -> Event:
    """Append the event and write what it changes to the gate's tables, in the open
    transaction: the only way gate state changes. `payload`: the kind's payload type
    (a2a_tui/payloads; a PayloadError otherwise). The handlers see the payload as the log will
    give it back. `kept`: the columns the log does not hold, for the row it adds. A kind
    that is not a GateEvent is a ValueError: an event the fold would not apply is not gate
    state (append it with `tx.append`)."""
    kind = GateEvent(kind).value   # the store and the Event hold the plain text, as read back
    ts = ts_ns or time.time_ns()
    seq = tx.append(kind, actor=actor, task=task, attempt=attempt, session=session,
                    payload=payload, ts_ns=ts)
    ev = Event(seq, ts, kind, actor, task, attempt, session,
               json.loads(dumps(stored_json(kind, payload))))
    apply(TxRows(tx, kept), ev)
    return ev


def fold(events: Iterable[Event]) -> Ledger:
    """Replay the gate's events, in order, into the rows the gate's tables should hold."""
    ledger = Ledger()
    for ev in events:
        apply(ledger, ev)
    return ledger


def gate_events(db: Any, card_id: str | None = None) -> list[Event]:
    """The events the fold reads: every gate event, or one card's."""
    kinds = tuple(HANDLERS)
    sql = f"SELECT * FROM events WHERE kind IN ({','.join('?' * len(kinds))})"
    params: tuple = kinds
    if card_id is not None:
        sql, params = f"{sql} AND task = ?", (*kinds, card_id)
    return [Event.from_row(r) for r in db.all(f"{sql} ORDER BY seq", params)]


def load(db: Any, card_id: str | None = None) -> Ledger:
    """The log's view of the gate (of one card, when given)."""
    return fold(gate_events(db, card_id))
