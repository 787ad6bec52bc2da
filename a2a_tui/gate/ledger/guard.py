"""The gate frozen on a store changed outside a2a: what is checked before a decision, and how a
problem is recorded once and refused until the user repairs it (ledger/repairs.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.gate.ledger.check import Mismatch, against_log, frozen
from a2a_tui.gate.ledger.repairs import rebuild
from a2a_tui.gate.ledger.rows import Ledger
from a2a_tui.gate.ledger.tables import CHECKED
from a2a_tui.gate.ledger.writer import gate_events
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads.record import StoreTampered
from a2a_tui.store import chain


@dataclass(frozen=True)
class StoreProblem:
    """What froze the gate: the first bad seq, why, and where (`chain`: an event's hash;
    `projection`: a gate table's row, column)."""

    seq: int
    why: str
    what: str
    table: str | None = None
    key: tuple | None = None
    column: str | None = None

    def to_json(self) -> JsonObject:
        """The `store_tampered` event's payload and the refusal's details."""
        out: JsonObject = {"seq": self.seq, "why": self.why, "what": self.what}
        if self.what == "projection":
            out |= {"table": self.table, "key": list(self.key or ()), "column": self.column}
        return out

    def payload(self) -> StoreTampered:
        """The `store_tampered` event's payload (a projection's table, key and column)."""
        at = self.what == "projection"
        return StoreTampered(seq=self.seq, why=self.why, what=self.what,
                             table=self.table if at else None,
                             key=list(self.key or ()) if at else None,
                             column=self.column if at else None)


@dataclass(frozen=True)
class StoreCheck:
    """`a2a store verify`'s reading: intact, or the first problem; the frozen gate's record."""

    problem: StoreProblem | None
    events: int = 0
    frozen: JsonObject | None = None

    @property
    def intact(self) -> bool:
        return self.problem is None

    def to_json(self) -> JsonObject:
        if self.problem is not None:
            return {"intact": False, **self.problem.to_json()}
        return {"intact": True, "events": self.events, "frozen": self.frozen}


def tampered_error(problem: JsonObject) -> A2AError:
    return A2AError("store_tampered",
                    f"the store was changed outside a2a (first bad seq #{problem['seq']}:"
                    f" {problem['why']}); the gate is frozen until you repair it: `a2a store"
                    " verify` says what is wrong, `a2a store rebuild` rewrites the gate's tables"
                    " from the log, a broken event chain needs you to look (`a2a store reseal`)",
                    details=problem)


def freeze(g: Any, found: StoreProblem) -> A2AError:
    """Record the problem (once: not again while the same one holds) as a `store_tampered`
    event and a protected board item, if the store still takes writes; the error to raise."""
    # lazy: the board (and the collaboration records under it) only when the gate freezes; every
    # gate command imports this module
    from a2a_tui.collab.board import post_finding_in_tx

    problem = found.to_json()
    held = frozen(g.store)
    if held is None or (held.get("seq"), held.get("why")) != (problem["seq"], problem["why"]):
        try:
            with g.store.write() as tx:
                tx.append("store_tampered", actor="gate", payload=found.payload())
                post_finding_in_tx(
                    tx, title=f"Store changed outside a2a at event #{problem['seq']}",
                    body=f"{problem['why']}\nThe gate is frozen: reads work, gate commands"
                         " refuse. `a2a store verify`, then `a2a store rebuild` (tables) or,"
                         " for a broken event chain, look at the events and `a2a store reseal`.",
                    category="security", blocking=True, actor="gate", session=None)
        except Exception:  # noqa: BLE001 -- a store that takes no writes still refuses below
            pass
    return tampered_error(problem)


def chain_problem(brk: chain.Break) -> StoreProblem:
    return StoreProblem(brk.seq, brk.why, "chain")


def mismatch_problem(m: Mismatch) -> StoreProblem:
    return StoreProblem(m.seq or 0, m.describe(), "projection", m.table, tuple(m.key), m.column)


def on_open(g: Any) -> None:
    """At a command's start: record a chain break the store's open found, and rebuild gate
    tables that are missing (a cache is rebuilt when it is gone)."""
    if g.store.chain_break is not None:
        freeze(g, chain_problem(g.store.chain_break))
    present = {r[0] for r in g.store.all("SELECT name FROM sqlite_master WHERE type='table'")}
    missing = [t.name for t in CHECKED if t.name not in present]
    if missing and frozen(g.store) is None:
        rebuild(g.store, reason=f"missing tables: {', '.join(missing)}", actor="gate")


def require_intact(g: Any, card_id: str | None = None) -> Ledger | None:
    """Before a gate decision: refuse while the gate is frozen; check the chain break found at
    open; compare the card's rows with the log (and return the log's view of the card)."""
    held = frozen(g.store)
    if held is not None:
        raise tampered_error(held)
    if g.store.chain_break is not None:
        raise freeze(g, chain_problem(g.store.chain_break))
    if card_id is None:
        return None
    ledger, mismatch = against_log(g.store, card_id)
    if mismatch is not None:
        raise freeze(g, mismatch_problem(mismatch))
    return ledger


def before_integrate(g: Any, card_id: str) -> Ledger:
    """Before the target moves: the chain after the checkpoint (checked at open), every link
    of the card's own events wherever they sit in the log, and the card's tables against the
    log. Returns the log's view of the card the decision reads. The whole chain is walked by
    `a2a store verify`; at integrate it would cost ~16 µs per event of the log, however old
    (`bench/bench_store_chain.py`), for nothing a decision on this card reads."""
    require_intact(g)
    events = gate_events(g.store, card_id)
    brk = chain.check_around(g.store.conn, [e.seq for e in events])
    if brk is not None:
        raise freeze(g, chain_problem(brk))
    ledger, mismatch = against_log(g.store, card_id)
    if mismatch is not None:
        raise freeze(g, mismatch_problem(mismatch))
    return ledger


def verify(db: Any) -> StoreCheck:
    """The whole check, read-only: the chain from the first event, then every gate table."""
    brk = chain.check(db.conn)
    if brk is not None:
        return StoreCheck(chain_problem(brk))
    _, mismatch = against_log(db)
    if mismatch is not None:
        return StoreCheck(mismatch_problem(mismatch))
    return StoreCheck(None, db.last_seq(), frozen(db))
