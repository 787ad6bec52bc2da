-- Dispatches: text a2a injects into a pane (never the user's own typing, which is a user input).
-- The text and who queued it are immutable; only the delivery columns move, each move written
-- with the event that explains it.
CREATE TABLE IF NOT EXISTS dispatches (
    n             INTEGER PRIMARY KEY,          -- dispatch number, from counter 'dispatch'
    session       TEXT    NOT NULL,
    text          TEXT    NOT NULL,             -- exactly what is pasted, marker included
    source        TEXT    NOT NULL,             -- user | gate | inbox | board | orchestrator | session
    actor         TEXT    NOT NULL,
    attempt       TEXT,
    state         TEXT    NOT NULL DEFAULT 'queued',
        -- queued | sending | sent | delivered | done | released | unknown | ended
    queued_ns     INTEGER NOT NULL,
    sending_ns    INTEGER,
    enter_ns      INTEGER,                      -- the instant Enter was written
    confirmed_ns  INTEGER,                      -- UserPromptSubmit carrying the marker
    ended_ns      INTEGER,
    queued_seq    INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS dispatches_session ON dispatches(session, state);
CREATE TRIGGER IF NOT EXISTS dispatches_text_immutable
BEFORE UPDATE OF n, session, text, source, actor, attempt, queued_ns, queued_seq ON dispatches
BEGIN SELECT RAISE(ABORT, 'a dispatch''s text and origin are immutable'); END;
CREATE TRIGGER IF NOT EXISTS dispatches_no_delete BEFORE DELETE ON dispatches
BEGIN SELECT RAISE(ABORT, 'dispatches are append-only'); END;

-- Every spool file ingested or quarantined, by name: a crash between the commit and unlinking
-- the file cannot ingest it twice.
CREATE TABLE IF NOT EXISTS spool_files (
    name      TEXT PRIMARY KEY,
    outcome   TEXT    NOT NULL,                 -- ingested | ignored | quarantined
    session   TEXT,
    ts_ns     INTEGER,
    seq       INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS spool_files_no_update BEFORE UPDATE ON spool_files
BEGIN SELECT RAISE(ABORT, 'spool records are append-only'); END;
CREATE TRIGGER IF NOT EXISTS spool_files_no_delete BEFORE DELETE ON spool_files
BEGIN SELECT RAISE(ABORT, 'spool records are append-only'); END;
