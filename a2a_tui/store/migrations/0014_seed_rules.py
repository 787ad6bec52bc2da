"""Migration 14: the seeds' rules (issue 38; docs/explanation/the-seeds-rules.md).

- `approvals.expires_ns`, `approvals.target_branch`: an approval names the branch it lets the
  candidate into and when it stops being valid (NULL in approvals made before: they name
  neither, and do not expire).
- `approval_revocations`: the user's revocation of an approval (`approval_revoked`), folded by
  the gate's ledger, append-only like the approvals it revokes.
- `attempts.follows`: the attempt of the same card this one came after (a retry keeps its link
  to the one before; NULL for a card's first attempt and for attempts made before).
- `attempts.isolated_seq`: the `lease_expired` event that isolated the attempt (its writer sent
  no report for a lease's length), until a `lease_renewed` takes it back; NULL: not isolated.

Idempotent: a column already there is not added again (an older a2a may stamp the store back
and have 2..n run again, store/migrate.py).
"""

from __future__ import annotations

from a2a_tui.store.migrate import split_sql

COLUMNS = (("approvals", "expires_ns", "INTEGER"), ("approvals", "target_branch", "TEXT"),
           ("attempts", "follows", "TEXT"), ("attempts", "isolated_seq", "INTEGER"))

TABLES = """
CREATE TABLE IF NOT EXISTS approval_revocations (
    approval_id  TEXT PRIMARY KEY,              -- the approval revoked (A-<n>), once
    attempt_id   TEXT    NOT NULL,
    reason       TEXT    NOT NULL,
    user_input   TEXT    NOT NULL,              -- the user's act (kind action)
    seq          INTEGER NOT NULL               -- the approval_revoked event
);
CREATE TRIGGER IF NOT EXISTS approval_revocations_no_update BEFORE UPDATE ON approval_revocations
BEGIN SELECT RAISE(ABORT, 'approval revocations are append-only'); END;
CREATE TRIGGER IF NOT EXISTS approval_revocations_no_delete BEFORE DELETE ON approval_revocations
BEGIN SELECT RAISE(ABORT, 'approval revocations are append-only'); END;
"""


def migrate(tx) -> None:
    for table, column, kind in COLUMNS:
        have = {r[1] for r in tx.execute(f"PRAGMA table_info({table})").fetchall()}
        if column not in have:
            tx.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
    for statement in split_sql(TABLES):
        tx.execute(statement)

