-- The truth: an append-only log. Every state table is a projection written in the
-- same transaction as the event that changes it.
CREATE TABLE IF NOT EXISTS events (
    seq      INTEGER PRIMARY KEY,          -- dense: rowid = max+1, no deletes, no gaps on rollback
    ts_ns    INTEGER NOT NULL,             -- wall clock, nanoseconds since the epoch
    kind     TEXT    NOT NULL,
    actor    TEXT    NOT NULL,             -- 'user', 'session:<id>', 'gate', 'orchestrator', ...
    task     TEXT,
    attempt  TEXT,
    session  TEXT,
    payload  TEXT    NOT NULL DEFAULT '{}' -- JSON object
);
CREATE INDEX IF NOT EXISTS events_kind    ON events(kind);
CREATE INDEX IF NOT EXISTS events_task    ON events(task)    WHERE task IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_attempt ON events(attempt) WHERE attempt IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_session ON events(session) WHERE session IS NOT NULL;

CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;

-- Counters for human-facing ids (U-<n>, Q-<n>, dispatch #n, ...), bumped inside the
-- transaction that uses them.
CREATE TABLE IF NOT EXISTS counters (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
