"""The events' hash chain: each event's hash covers the previous event's hash and its own fields.

`Tx.append` computes an event's hash in the transaction that appends it; a database edit that
changes, removes or inserts an event without recomputing every later hash breaks the chain at
that event. A store is checked on open from its checkpoint (the last event already checked:
cheap however long the log is) and in full by `check` (before every integrate, `a2a store
verify`). What this does and does not catch is in docs/explanation/the-record.md.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.store.trouble import PASSING

GENESIS = "0" * 64
# The checkpoint moves on once this many events past it were checked at an open: a write per
# that many events, not per open. Small, so that an open checks little (31 events: about 0.15 ms
# beside SQLite's own open, bench/REPORT.md): the write it costs now and then is one commit.
CHECKPOINT_EVERY = 32
# A write that appended events also checks a stretch past the checkpoint and moves it (keep_up):
# at most this many events plus twice those it appended, so a long-lived writer keeps the
# checkpoint near the tip and the next open checks little, and no write holds the lock long.
WRITE_WALK_MAX = 128
_FIELDS = "seq, ts_ns, kind, actor, task, attempt, session, payload, hash"
# The fields as one JSON array (unambiguous: no field can run into the next); one encoder made
# once, since a full check encodes every event.
_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


@dataclass(frozen=True)
class Break:
    """The first event whose stored hash is not what its fields and its predecessor give."""

    seq: int
    why: str

    def to_json(self) -> JsonObject:
        return {"seq": self.seq, "why": self.why}


def link(prev: str, seq: int, ts_ns: int, kind: str, actor: str, task: str | None,
         attempt: str | None, session: str | None, payload: str) -> str:
    """The hash of one event: sha256 over the previous hash and the event's stored fields (the
    payload as stored text, so any edit of it shows)."""
    body = _encode((seq, ts_ns, kind, actor, task, attempt, session, payload))
    return hashlib.sha256(f"{prev}\n{body}".encode()).hexdigest()


def tip(conn) -> tuple[int, str]:
    """(seq, hash) of the newest event; (0, GENESIS) for an empty log."""
    row = conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    return (0, GENESIS) if row is None else (int(row[0]), row[1] or "")


def walk(conn, after: int = 0, prev: str = GENESIS, upto: int | None = None
         ) -> tuple[Break | None, int, str]:
    """Check the events after `after` (to `upto`, when given), whose predecessor's hash is
    `prev`. Returns the first break (or None), and the seq and hash of the last event checked
    good."""
    last, seq_expected = after, after + 1
    cur = conn.cursor()
    cur.row_factory = None  # plain tuples: a Row per event costs as much as its hash
    for row in cur.execute(f"SELECT {_FIELDS} FROM events WHERE seq > ? AND seq <= ?"
                           " ORDER BY seq", (after, (1 << 62) if upto is None else upto)):
        seq = row[0]
        if seq != seq_expected:
            return Break(seq_expected, f"event #{seq_expected} is missing (the log jumps from"
                         f" #{last} to #{seq})"), last, prev
        want = link(prev, *row[:8])
        if row[8] != want:
            why = ("its hash is missing" if not row[8] else
                   "its fields do not give its stored hash (the event was edited)"
                   if _links(conn, prev, row) else "its hash does not follow from the previous")
            return Break(seq, f"event #{seq}: {why}"), last, prev
        last, prev, seq_expected = seq, row[8], seq + 1
    return None, last, prev


def _links(conn, prev: str, row) -> bool:
    # Whether the next event's hash was computed from this event's stored hash: then this
    # event's fields changed after it was hashed, rather than the chain being rebuilt from here.
    nxt = conn.execute(f"SELECT {_FIELDS} FROM events WHERE seq = ?", (row[0] + 1,)).fetchone()
    return nxt is None or nxt[8] == link(row[8], *nxt[:8])


def check(conn) -> Break | None:
    """Check the whole chain, from the first event."""
    return walk(conn)[0]


def check_around(conn, seqs: list[int]) -> Break | None:
    """Check the links of the given events and of each one's successor, wherever they are in
    the log: an edited event, or one re-hashed alone, breaks one of these two links. Costs a few
    reads per event, not a walk of the whole log (which `check` does)."""
    wanted = sorted({n for s in seqs for n in (s, s + 1)})
    cur = conn.cursor()
    cur.row_factory = None
    for seq in wanted:
        row = cur.execute(f"SELECT {_FIELDS} FROM events WHERE seq = ?", (seq,)).fetchone()
        if row is None:
            if seq in seqs:
                return Break(seq, f"event #{seq} is missing")
            continue  # the newest event has no successor
        prev_row = cur.execute("SELECT hash FROM events WHERE seq = ?", (seq - 1,)).fetchone()
        prev = GENESIS if seq == 1 else (prev_row[0] if prev_row else None)
        if prev is None:
            return Break(seq - 1, f"event #{seq - 1} is missing")
        if row[8] != link(prev, *row[:8]):
            return Break(seq, f"event #{seq}: its fields or its predecessor do not give its"
                         " stored hash")
    return None


def check_from_checkpoint(store) -> Break | None:
    """Check the events after the store's checkpoint (and that the checkpoint still names an
    event with the hash it saw); move the checkpoint on when enough were checked good."""
    conn = store.conn
    after, prev, holds = _checkpoint(conn)
    if not holds:
        # The chain was rewritten at or before the checkpoint: find where, from the start.
        return check(conn) or Break(after, f"event #{after} no longer has the hash the"
                                    " checkpoint recorded")
    broken, last, last_hash = walk(conn, after, prev)
    if broken is None and last - after >= CHECKPOINT_EVERY:
        _advance(store, last, last_hash)
    return broken


def keep_up(conn, appended: int) -> None:
    """Inside a write transaction that appended `appended` events: check the events past the
    checkpoint (at most WRITE_WALK_MAX + 2 × appended of them) and move the checkpoint to the
    last one checked good. A process that writes for hours without reopening the store thus
    leaves the next open at most CHECKPOINT_EVERY - 1 events to check (issue 30: the
    workbench's first frame walked every event the orchestrator had appended). A break is left
    where it is, for the next open to report."""
    after, prev, holds = _checkpoint(conn)
    if tip(conn)[0] - after < CHECKPOINT_EVERY or not holds:
        return   # not behind; or rewritten at or before the checkpoint: the next open finds where
    _broken, last, last_hash = walk(conn, after, prev, after + WRITE_WALK_MAX + 2 * appended)
    if last > after:
        _move(conn, last, last_hash)


def _checkpoint(conn) -> tuple[int, str, bool]:
    """(the checkpoint's seq, its hash, whether the event at that seq still has that hash)."""
    cp = conn.execute("SELECT seq, hash FROM chain_checkpoint WHERE id = 1").fetchone()
    if cp is None or not cp[0]:
        return 0, GENESIS, True
    row = conn.execute("SELECT hash FROM events WHERE seq = ?", (int(cp[0]),)).fetchone()
    return int(cp[0]), cp[1], row is not None and row[0] == cp[1]


def _move(conn, seq: int, hash_: str) -> None:
    conn.execute("INSERT INTO chain_checkpoint(id, seq, hash) VALUES (1, ?, ?)"
                 " ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash"
                 " WHERE excluded.seq > chain_checkpoint.seq", (seq, hash_))


def _advance(store, seq: int, hash_: str) -> None:
    try:
        with store.write() as tx:
            _move(tx.conn, seq, hash_)
    except A2AError as exc:
        # Best effort: a busy store (or a full disk) keeps the old checkpoint; the next open
        # checks a bit more.
        if exc.code not in PASSING:
            raise
