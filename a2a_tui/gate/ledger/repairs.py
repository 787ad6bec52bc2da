"""The user's repairs of a frozen gate: the tables written again from the log (`rebuild`), the
freeze lifted (`repair`), the events accepted as they now are after looking (`reseal`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from a2a_tui.gate.ledger.check import compare, frozen, row_seq
from a2a_tui.gate.ledger.rows import card_text
from a2a_tui.gate.ledger.tables import CHECKED, Row, Table
from a2a_tui.gate.ledger.writer import load
from a2a_tui.gate.model import CommandResult
from a2a_tui.payloads.record import ChainResealed, ProjectionsRebuilt, StoreRepaired
from a2a_tui.store import chain
from a2a_tui.store.migrate import schema_of


@dataclass(frozen=True)
class Rebuilt(CommandResult):
    rebuilt: tuple[str, ...]          # the tables written again
    seq: int                          # the `projections_rebuilt` event
    first_difference: str | None      # the first row that disagreed with the log


@dataclass(frozen=True)
class Resealed(CommandResult):
    from_seq: int
    rehashed: int                     # the events whose hash was computed again
    seq: int                          # the `chain_resealed` event


def rebuild(store: Any, *, reason: str, actor: str) -> Rebuilt:
    """Write every gate table again from the log, in one transaction."""
    with store.write() as tx:
        return rebuild_in(tx, reason=reason, actor=actor)


def rebuild_in(tx: Any, *, reason: str, actor: str) -> Rebuilt:
    """Write every checked gate table again from the log in the open transaction (tables that
    are gone are created from the schema first; columns the log lacks are kept from the
    replaced rows). Records `projections_rebuilt` with the first difference it found."""
    ledger = load(tx)
    present = {r[0] for r in tx.all("SELECT name FROM sqlite_master WHERE type='table'")}
    differed = None if not present >= {t.name for t in CHECKED} else compare(tx, ledger)
    for table in CHECKED:
        _rewrite(tx, table, ledger.rows[table.name], table.name in present)
    first = differed.describe() if differed else None
    seq = tx.append("projections_rebuilt", actor=actor, payload=ProjectionsRebuilt(
        reason=reason, tables=[t.name for t in CHECKED], first_difference=first))
    return Rebuilt(tuple(t.name for t in CHECKED), seq, first)


def repair(tx: Any, *, actor: str, how: str) -> int | None:
    """Lift the freeze (`store_repaired`), if the gate is frozen; its seq."""
    held = frozen(tx)
    if held is None:
        return None
    return tx.append("store_repaired", actor=actor, payload=StoreRepaired(how=how, was=held))


def reseal(tx: Any, *, from_seq: int, reason: str, actor: str) -> Resealed:
    """Accept the events as they now are from `from_seq` on: compute their hashes again (the
    append-only trigger is dropped and made again in this transaction) and move the checkpoint
    to the end. A person does this after looking at those events; `reason` says what they saw."""
    tx.execute("DROP TRIGGER IF EXISTS events_no_update")
    prev = tx.one("SELECT hash FROM events WHERE seq = ?", (from_seq - 1,))
    prev = prev[0] if prev is not None else chain.GENESIS
    n = 0
    for row in tx.all("SELECT seq, ts_ns, kind, actor, task, attempt, session, payload, hash"
                      " FROM events WHERE seq >= ? ORDER BY seq", (from_seq,)):
        h = chain.link(prev, *row[:8])
        if h != row[8]:
            tx.execute("UPDATE events SET hash = ? WHERE seq = ?", (h, row[0]))
            n += 1
        prev = h
    tx.execute(schema_of("events").trigger_sql("events_no_update"))
    seq = tx.append("chain_resealed", actor=actor,
                    payload=ChainResealed(from_seq=from_seq, rehashed=n, reason=reason))
    last, tip_hash = chain.tip(tx.conn)
    tx.execute("INSERT INTO chain_checkpoint(id, seq, hash) VALUES (1, ?, ?) ON CONFLICT(id)"
               " DO UPDATE SET seq = excluded.seq, hash = excluded.hash", (last, tip_hash))
    return Resealed(from_seq, n, seq)


def _rewrite(tx: Any, table: Table, rows: dict[tuple, Row], present: bool) -> None:
    ddl = schema_of(table.name)
    old: dict[tuple, Row] = {}
    if present:
        old = {tuple(r[k] for k in table.key): dict(r) for r in tx.all(
            f"SELECT * FROM {table.name}")}
        for name, _sql in ddl.triggers:
            tx.execute(f"DROP TRIGGER IF EXISTS {name}")
        tx.execute(f"DELETE FROM {table.name}")
    else:
        for _name, sql in ddl.table + ddl.indexes:
            tx.execute(sql)
    for key, row in sorted(rows.items(), key=lambda kv: row_seq(kv[1])):
        row = dict(row)
        for col in table.kept:
            if key in old and old[key].get(col) is not None:
                row[col] = old[key][col]
        for col in table.json_columns:
            row[col] = card_text(row[col])
        cols = [c for c in row if c in ddl.columns]  # an id None: SQLite numbers the row
        tx.execute(f"INSERT INTO {table.name}({','.join(cols)}) VALUES"
                   f" ({','.join('?' * len(cols))})", [row[c] for c in cols])
    for _name, sql in ddl.triggers:
        tx.execute(sql)
