"""Where the fold writes: the log's view in memory (`Ledger`), or the tables in the open
transaction (`TxRows`). The handlers (ledger/cards.py, ledger/reviews.py, ledger/targets.py)
see only `Rows`, so one handler per event kind is both the writer of the tables and the replay
they are checked against.

The rules the handlers and the gate's readers share live here too, once: the latest verdict
(`last_verdict`: of the runs that decided something, gate/model.py `COMPLETED`) and what an
interrupted run leaves the attempt (`state_after_interrupt`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from a2a_tui.gate.ledger.tables import BY_NAME, TABLES, Row
from a2a_tui.gate.model import ATTEMPT_AFTER, COMPLETED, AttemptState


class Rows(Protocol):
    """The gate's tables as a handler sees them."""

    def get(self, table: str, *key: Any) -> Row | None:
        """The row with this key, or None."""

    def put(self, table: str, row: Row) -> None:
        """Write the row: a new one, or the one with its key replaced."""

    def add(self, table: str, row: Row) -> None:
        """Write a row whose key is new (an append-only table's, or a new attempt's)."""

    def set(self, table: str, key: tuple, **values: Any) -> None:
        """Change columns of a row, if there is one with that key."""

    def where(self, table: str, **match: Any) -> list[Row]:
        """The rows whose columns have these values."""


def last_verdict(rows: Rows, attempt_id: str) -> Row | None:
    """The attempt's latest completed verify run (an interrupted one decided nothing)."""
    runs = [v for v in rows.where("verifications", attempt_id=attempt_id)
            if v["state"] in COMPLETED]
    return max(runs, key=lambda v: v["run"], default=None)


def state_after_interrupt(rows: Rows, attempt_id: str) -> str:
    """The attempt's state once a verify of its current submission was interrupted: what the
    last completed verdict of that submission made it, else `submitted`."""
    att = rows.get("attempts", attempt_id)
    last = last_verdict(rows, attempt_id)
    if att is None or last is None or last["submission_n"] != att["submission_n"]:
        return AttemptState.SUBMITTED
    return ATTEMPT_AFTER.get(last["state"], AttemptState.SUBMITTED)


@dataclass
class Ledger:
    """The gate's rows as the log gives them: table name -> key -> row."""

    rows: dict[str, dict[tuple, Row]] = field(
        default_factory=lambda: {t.name: {} for t in TABLES})

    def get(self, table: str, *key: Any) -> Row | None:
        return self.rows[table].get(tuple(key))

    def put(self, table: str, row: Row) -> None:
        self.rows[table][tuple(row[k] for k in BY_NAME[table].key)] = row

    add = put

    def set(self, table: str, key: tuple, **values: Any) -> None:
        """Change a row the way the gate's UPDATEs do; a row the log never made is an event
        out of order, which the comparison then shows (the table has the row, the log not)."""
        row = self.rows[table].get(key)
        if row is not None:
            row.update(values)

    def where(self, table: str, **match: Any) -> list[Row]:
        return [r for r in self.rows[table].values()
                if all(r.get(k) == v for k, v in match.items())]

    def attempt(self, attempt_id: str) -> Row | None:
        return self.get("attempts", attempt_id)

    def last_verification(self, attempt_id: str) -> Row | None:
        """The attempt's latest verify run."""
        return max(self.where("verifications", attempt_id=attempt_id),
                   key=lambda v: v["run"], default=None)

    def last_verdict(self, attempt_id: str) -> Row | None:
        """The attempt's latest completed verify run (an interrupted one decided nothing)."""
        return last_verdict(self, attempt_id)

    def failed_blocking_check(self, attempt_id: str, run: int) -> Row | None:
        """The first blocking check of that run that did not pass."""
        return next((c for c in sorted(self.where("check_results", attempt_id=attempt_id,
                                                  run=run), key=lambda c: c["seq"])
                     if c["blocking"] and not c["passed"]), None)


class TxRows:
    """The tables themselves, in the transaction that appends the event: what a handler writes
    here commits with the event or not at all. `kept` gives the columns the log does not hold
    (a check's output tails, its unrounded duration) for the row the event adds."""

    def __init__(self, tx: Any, kept: dict[str, Any] | None = None):
        self.tx = tx
        self.kept = kept or {}

    def _match(self, table: str, key: tuple) -> tuple[str, tuple]:
        cols = BY_NAME[table].key
        return " AND ".join(f"{c} = ?" for c in cols), tuple(key)

    def get(self, table: str, *key: Any) -> Row | None:
        where, params = self._match(table, key)
        r = self.tx.one(f"SELECT * FROM {table} WHERE {where}", params)
        return None if r is None else _decoded(table, dict(r))

    def where(self, table: str, **match: Any) -> list[Row]:
        cond = " AND ".join(f"{c} = ?" for c in match) or "1"
        return [_decoded(table, dict(r)) for r in self.tx.all(
            f"SELECT * FROM {table} WHERE {cond}", tuple(match.values()))]

    def _row(self, table: str, row: Row) -> Row:
        t = BY_NAME[table]
        row = {**row, **{c: self.kept[c] for c in t.kept if c in self.kept}}
        for col in t.json_columns:
            row[col] = card_text(row[col])
        return row

    def add(self, table: str, row: Row) -> None:
        row = self._row(table, row)
        self.tx.execute(f"INSERT INTO {table}({','.join(row)}) VALUES"
                        f" ({','.join('?' * len(row))})", tuple(row.values()))

    def put(self, table: str, row: Row) -> None:
        key = tuple(row[k] for k in BY_NAME[table].key)
        if self.get(table, *key) is None:
            self.add(table, row)
        else:
            self._update(table, key, self._row(table, row))

    def set(self, table: str, key: tuple, **values: Any) -> None:
        self._update(table, key, values)

    def _update(self, table: str, key: tuple, values: Row) -> None:
        where, params = self._match(table, key)
        self.tx.execute(f"UPDATE {table} SET {', '.join(f'{c} = ?' for c in values)}"
                        f" WHERE {where}", (*values.values(), *params))


def _decoded(table: str, row: Row) -> Row:
    for col in BY_NAME[table].json_columns:
        row[col] = json.loads(row[col])
    return row


def card_text(body: dict[str, Any]) -> str:
    """A card body as the cards table holds it: the model's field order (the log's payload has
    its keys sorted)."""
    from pydantic import ValidationError

    from a2a_tui.gate.cards.schema import Card  # lazy: pydantic, only when a card's row is written

    try:
        return json.dumps(Card.model_validate(body).body_json())
    except ValidationError:  # a body an older card model accepted: same content, sorted keys
        return json.dumps(body)
