"""Migration 6: launched reviews, structured verdicts, dispositions, overrides and the user's
approvals to integrate (a2a_tui/gate/review*.py, a2a_tui/gate/approvals.py).

Every table here is a projection of the log (gate/ledger.py folds each from its events). A
review's id becomes the seq of its `reviewed` event, older reviews' too, so that the log names
the review an issue or a disposition belongs to.

Python rather than SQL for the columns added to `reviews` (ALTER TABLE has no IF NOT EXISTS, and
a re-run after a pre-migration a2a stamps its checksum back must stay harmless) and for the ids.
"""

from __future__ import annotations

from a2a_tui.store.migrate import split_sql

TABLES = """
-- A review launched on one submission: a reviewer session in a read-only checkout of its SHA.
-- A projection: every change is written with the event that explains it (review_requested,
-- review_started, review_launch_failed).
CREATE TABLE IF NOT EXISTS review_runs (
    id            TEXT PRIMARY KEY,          -- <attempt>-s<n>; a relaunch: <attempt>-s<n>.<k>
    attempt_id    TEXT    NOT NULL,
    submission_n  INTEGER NOT NULL,
    sha           TEXT    NOT NULL,
    round         INTEGER NOT NULL,          -- 0: the first review; 1, 2 ...: follow-ups
    follows       INTEGER,                   -- reviews.id of the verdict a follow-up re-checks
    checkout      TEXT    NOT NULL,          -- the read-only checkout of the SHA
    state         TEXT    NOT NULL,          -- requested | running | failed
    session       TEXT,
    report        TEXT,                      -- where the session is asked to write its report
    requested_seq INTEGER NOT NULL,
    updated_seq   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS review_runs_attempt ON review_runs(attempt_id, submission_n);
CREATE INDEX IF NOT EXISTS review_runs_session ON review_runs(session);

-- The blocking issues of a verdict, as its report's verdict block names them.
CREATE TABLE IF NOT EXISTS review_issues (
    review_id  INTEGER NOT NULL,             -- reviews.id
    attempt_id TEXT    NOT NULL,
    sha        TEXT    NOT NULL,
    issue      TEXT    NOT NULL,             -- the report's id for it, e.g. B1
    title      TEXT    NOT NULL,
    evidence   TEXT    NOT NULL,             -- JSON ["path:line", ...]
    seq        INTEGER NOT NULL,
    PRIMARY KEY (review_id, issue)
);
CREATE INDEX IF NOT EXISTS review_issues_sha ON review_issues(attempt_id, sha);
CREATE TRIGGER IF NOT EXISTS review_issues_no_update BEFORE UPDATE ON review_issues
BEGIN SELECT RAISE(ABORT, 'review issues are append-only'); END;
CREATE TRIGGER IF NOT EXISTS review_issues_no_delete BEFORE DELETE ON review_issues
BEGIN SELECT RAISE(ABORT, 'review issues are append-only'); END;

-- What the executive controller or the user decided about each blocking issue; the latest
-- record of an issue is its disposition.
CREATE TABLE IF NOT EXISTS review_dispositions (
    seq        INTEGER PRIMARY KEY,          -- the review_disposition event
    attempt_id TEXT    NOT NULL,
    sha        TEXT    NOT NULL,
    review_id  INTEGER NOT NULL,
    issue      TEXT    NOT NULL,
    decision   TEXT    NOT NULL CHECK (decision IN ('accept', 'reject', 'defer')),
    reason     TEXT    NOT NULL,
    actor      TEXT    NOT NULL,
    user_input TEXT                          -- U-<n> when the user decided
);
CREATE INDEX IF NOT EXISTS review_dispositions_sha ON review_dispositions(attempt_id, sha);
CREATE TRIGGER IF NOT EXISTS review_dispositions_no_update BEFORE UPDATE ON review_dispositions
BEGIN SELECT RAISE(ABORT, 'review dispositions are append-only'); END;
CREATE TRIGGER IF NOT EXISTS review_dispositions_no_delete BEFORE DELETE ON review_dispositions
BEGIN SELECT RAISE(ABORT, 'review dispositions are append-only'); END;

-- The user set a SHA's review aside, with a reason.
CREATE TABLE IF NOT EXISTS review_overrides (
    seq          INTEGER PRIMARY KEY,        -- the review_overridden event
    attempt_id   TEXT    NOT NULL,
    submission_n INTEGER NOT NULL,
    sha          TEXT    NOT NULL,
    reason       TEXT    NOT NULL,
    user_input   TEXT    NOT NULL
);
CREATE TRIGGER IF NOT EXISTS review_overrides_no_update BEFORE UPDATE ON review_overrides
BEGIN SELECT RAISE(ABORT, 'review overrides are append-only'); END;
CREATE TRIGGER IF NOT EXISTS review_overrides_no_delete BEFORE DELETE ON review_overrides
BEGIN SELECT RAISE(ABORT, 'review overrides are append-only'); END;

-- The user's approvals to integrate, each bound to a SHA, a card version and the evidence.
CREATE TABLE IF NOT EXISTS approvals (
    id           TEXT PRIMARY KEY,           -- A-<n>
    attempt_id   TEXT    NOT NULL,
    submission_n INTEGER NOT NULL,
    sha          TEXT    NOT NULL,
    card_version INTEGER NOT NULL,
    evidence     TEXT    NOT NULL,           -- sha256 of the verify runs and reviews of the SHA
    user_input   TEXT    NOT NULL,
    seq          INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS approvals_attempt ON approvals(attempt_id);
CREATE TRIGGER IF NOT EXISTS approvals_no_update BEFORE UPDATE ON approvals
BEGIN SELECT RAISE(ABORT, 'approvals are append-only'); END;
CREATE TRIGGER IF NOT EXISTS approvals_no_delete BEFORE DELETE ON approvals
BEGIN SELECT RAISE(ABORT, 'approvals are append-only'); END;

-- An approval is used once: the primary key refuses a second use.
CREATE TABLE IF NOT EXISTS approval_uses (
    approval_id TEXT    PRIMARY KEY,
    attempt_id  TEXT    NOT NULL,
    seq         INTEGER NOT NULL             -- the approval_consumed event
);
CREATE TRIGGER IF NOT EXISTS approval_uses_no_update BEFORE UPDATE ON approval_uses
BEGIN SELECT RAISE(ABORT, 'approval uses are append-only'); END;
CREATE TRIGGER IF NOT EXISTS approval_uses_no_delete BEFORE DELETE ON approval_uses
BEGIN SELECT RAISE(ABORT, 'approval uses are append-only'); END;
"""

# A verdict's report and its machine-readable block; NULL/defaults for reviews made before.
REVIEW_COLUMNS = {
    "run_id": "TEXT",                           # review_runs.id
    "risks": "TEXT NOT NULL DEFAULT '[]'",      # JSON
    "follow_up": "INTEGER NOT NULL DEFAULT 0",  # recommends_follow_up
    "report_digest": "TEXT",
}


def migrate(tx) -> None:
    for stmt in split_sql(TABLES):
        tx.execute(stmt)
    have = {r[0] for r in tx.execute("SELECT name FROM pragma_table_info('reviews')").fetchall()}
    for name, decl in REVIEW_COLUMNS.items():
        if name not in have:
            tx.execute(f"ALTER TABLE reviews ADD COLUMN {name} {decl}")
    if tx.execute("SELECT 1 FROM reviews WHERE id != seq LIMIT 1").fetchone():
        # Nothing referred to a review's id before this migration. Through negative ids: an old
        # id may equal another review's seq.
        tx.execute("DROP TRIGGER IF EXISTS reviews_no_update")
        tx.execute("UPDATE reviews SET id = -seq")
        tx.execute("UPDATE reviews SET id = -id")
        tx.execute("CREATE TRIGGER IF NOT EXISTS reviews_no_update BEFORE UPDATE ON reviews"
                   " BEGIN SELECT RAISE(ABORT, 'reviews are append-only'); END")
