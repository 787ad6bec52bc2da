"""What must hold after any bad input: a refusal in one line, and a store left whole."""

from __future__ import annotations

from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.store import Store


def refusal_line(exc: Exception) -> str:
    """The line a refusal shows (an A2AError's message, else the exception's text); fails when
    it is empty or more than one line."""
    line = exc.message if isinstance(exc, A2AError) else str(exc)
    assert line.strip(), f"{type(exc).__name__} with no message"
    assert "\n" not in line and "\r" not in line, f"more than one line: {line!r}"
    return line


def table_counts(store: Store) -> dict[str, int]:
    """Rows per table: equal before and after a refusal, or the refusal wrote something."""
    names = [r[0] for r in store.all("SELECT name FROM sqlite_master WHERE type = 'table'"
                                     " AND name NOT LIKE 'sqlite_%'")]
    return {n: store.one(f'SELECT COUNT(*) FROM "{n}"')[0] for n in names}


def assert_whole(store: Store) -> None:
    """Nothing half-written: event seqs dense from 1, the hash chain and every gate table agree
    with the log, and every spool file recorded points at the event that recorded it."""
    n, lo, hi = store.one("SELECT COUNT(*), MIN(seq), MAX(seq) FROM events")
    assert n == 0 or (lo == 1 and hi == n), f"event seqs not dense: {n} events, {lo}..{hi}"
    state = ledger.verify(store)
    assert state.intact, state
    orphans = store.all(
        "SELECT f.name FROM spool_files f LEFT JOIN events e ON e.seq = f.seq"
        " WHERE e.seq IS NULL OR e.kind NOT IN ('signal', 'signal_quarantined')"
        " OR json_extract(e.payload, '$.file') IS NOT f.name")
    assert not orphans, f"spool files recorded without their event: {[r[0] for r in orphans]}"
