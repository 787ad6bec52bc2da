"""Comparing the gate's tables with the fold of the log: the first row that disagrees."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from typing import Any

from a2a_tui.gate.ledger.rows import Ledger
from a2a_tui.gate.ledger.tables import CHECKED, Row, Table
from a2a_tui.gate.ledger.writer import load
from a2a_tui.jsontypes import JsonObject


@dataclass(frozen=True)
class Mismatch:
    """The first row where a table and the log disagree."""

    table: str
    key: tuple
    column: str
    in_table: Any
    in_log: Any
    seq: int | None   # the event the log's row comes from (None: the log has no such row)

    def describe(self) -> str:
        where = f"{self.table} {'/'.join(map(str, self.key))}"
        if self.column == "(row)" and self.in_log is None:
            return f"{where}: the table has a row the log never made"
        if self.column == "(row)":
            return f"{where}: the table lacks the row of event #{self.seq}"
        return (f"{where}: {self.column} is {_shown(self.in_table)!r} in the table, the log"
                f" says {_shown(self.in_log)!r} (event #{self.seq})")


def _shown(value: Any) -> Any:
    """A state as the table holds it (the fold's rows hold the StrEnum)."""
    return value.value if isinstance(value, Enum) else value


def row_seq(row: Row) -> int:
    """The event a row goes back to (its latest)."""
    for col in ("updated_seq", "seq", "ended_seq", "outcome_seq", "started_seq", "intent_seq"):
        if row.get(col) is not None:
            return int(row[col])
    return 0


def _table_rows(db: Any, table: Table, card_id: str | None, attempts: set[str]
                ) -> dict[tuple, Row]:
    sql, params = f"SELECT * FROM {table.name}", ()
    if card_id is not None:
        if table.name == "cards":
            sql, params = f"{sql} WHERE id = ?", (card_id,)
        elif table.name in ("card_versions", "attempts"):
            sql, params = f"{sql} WHERE card_id = ?", (card_id,)
        else:
            sql = f"{sql} WHERE attempt_id IN ({','.join('?' * len(attempts))})"
            params = tuple(attempts)
    out = {}
    for r in db.all(sql, params):
        row = dict(r)
        for col in table.json_columns:
            row[col] = json.loads(row[col])
        out[tuple(row[k] for k in table.key)] = row
    return out


def compare(db: Any, ledger: Ledger, card_id: str | None = None) -> Mismatch | None:
    """The first disagreement (by the seq it goes back to) between the gate's checked tables
    and the log's fold; None when they agree. With `card_id`, that card's rows only."""
    attempts = set()
    if card_id is not None:
        attempts = {a for (a,) in ledger.rows["attempts"]} | {
            r["id"] for r in db.all("SELECT id FROM attempts WHERE card_id = ?", (card_id,))}
    found: list[Mismatch] = []
    for table in CHECKED:
        have = _table_rows(db, table, card_id, attempts)
        want = ledger.rows[table.name]
        for key in have.keys() | want.keys():
            h, w = have.get(key), want.get(key)
            if h is None or w is None:
                found.append(Mismatch(table.name, key, "(row)", h and "present",
                                      w and "present", row_seq(w) if w else None))
                continue
            for col in table.compared:
                if h[col] != w[col]:
                    found.append(Mismatch(table.name, key, col, h[col], w[col], row_seq(w)))
                    break
    return min(found, key=lambda m: (m.seq is not None, m.seq or 0), default=None)


def against_log(store: Any, card_id: str | None = None) -> tuple[Ledger, Mismatch | None]:
    """The log's view (of the card) and the first row that disagrees with it."""
    # One snapshot for the log and the tables: a gate write landing in between (its event and
    # its row commit together) must not look like a row the log never made.
    with store.snapshot() as tx:
        ledger = load(tx, card_id)
        return ledger, compare(tx, ledger, card_id)


FREEZE_KINDS = ("store_tampered", "store_repaired")


def frozen(db: Any) -> JsonObject | None:
    """The payload of the `store_tampered` event that froze the gate, while no repair followed."""
    row = db.one("SELECT kind, payload FROM events WHERE kind IN (?, ?) ORDER BY seq DESC"
                 " LIMIT 1", FREEZE_KINDS)
    if row is None or row["kind"] != FREEZE_KINDS[0]:
        return None
    return json.loads(row["payload"])
