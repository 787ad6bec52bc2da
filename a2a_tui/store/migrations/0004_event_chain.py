"""Migration 7: the events' hash chain (store/chain.py) and its checkpoint.

Adds `events.hash`, hashes every existing event in order (the append-only trigger is dropped for
that and created again in the same transaction), requires a hash of every new event, and adds
the one-row `chain_checkpoint`: the last event an open has checked. Idempotent (a store stamped
back by an a2a from before migrations re-runs it): it adds what is missing and hashes only
events without a hash.
"""

from __future__ import annotations

from a2a_tui.store.chain import GENESIS, link

NO_UPDATE = ("CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events"
             " BEGIN SELECT RAISE(ABORT, 'events are append-only'); END")


def migrate(tx) -> None:
    cols = {r[0] for r in tx.execute("SELECT name FROM pragma_table_info('events')").fetchall()}
    if "hash" not in cols:
        tx.execute("ALTER TABLE events ADD COLUMN hash TEXT")
    tx.execute("CREATE TABLE IF NOT EXISTS chain_checkpoint ("
               " id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, hash TEXT NOT NULL)")
    if tx.execute("SELECT 1 FROM events WHERE hash IS NULL LIMIT 1").fetchone():
        tx.execute("DROP TRIGGER IF EXISTS events_no_update")
        prev, after = GENESIS, 0
        while rows := tx.execute(
                "SELECT seq, ts_ns, kind, actor, task, attempt, session, payload, hash"
                " FROM events WHERE seq > ? ORDER BY seq LIMIT 10000", (after,)).fetchall():
            for row in rows:
                h = row[8] or link(prev, *row[:8])
                if row[8] is None:
                    tx.execute("UPDATE events SET hash = ? WHERE seq = ?", (h, row[0]))
                prev, after = h, row[0]
        tx.execute(NO_UPDATE)
    tx.execute("CREATE TRIGGER IF NOT EXISTS events_hash_required BEFORE INSERT ON events"
               " WHEN NEW.hash IS NULL"
               " BEGIN SELECT RAISE(ABORT, 'an event needs its hash (Tx.append computes it)'); END")
