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

-- Gate projections. Each row is rewritten only in the transaction that appends the event
-- explaining the change.
CREATE TABLE IF NOT EXISTS cards (
    id              TEXT PRIMARY KEY,
    version         INTEGER NOT NULL,
    digest          TEXT    NOT NULL,
    contract_digest TEXT    NOT NULL,
    state           TEXT    NOT NULL,          -- draft | ready
    fence           INTEGER NOT NULL DEFAULT 0, -- ownership epoch: bumped by every claim
    title           TEXT    NOT NULL,
    body            TEXT    NOT NULL,          -- JSON of the validated card
    source_path     TEXT,
    updated_seq     INTEGER NOT NULL
);

-- Every version of every card, kept: an attempt is bound to the version it was claimed at.
CREATE TABLE IF NOT EXISTS card_versions (
    card_id   TEXT    NOT NULL,
    version   INTEGER NOT NULL,
    digest    TEXT    NOT NULL,
    body      TEXT    NOT NULL,
    seq       INTEGER NOT NULL,
    PRIMARY KEY (card_id, version)
);
CREATE TRIGGER IF NOT EXISTS card_versions_no_update BEFORE UPDATE ON card_versions
BEGIN SELECT RAISE(ABORT, 'card versions are append-only'); END;
CREATE TRIGGER IF NOT EXISTS card_versions_no_delete BEFORE DELETE ON card_versions
BEGIN SELECT RAISE(ABORT, 'card versions are append-only'); END;

CREATE TABLE IF NOT EXISTS attempts (
    id             TEXT PRIMARY KEY,           -- <card>-a<n>
    card_id        TEXT    NOT NULL,
    n              INTEGER NOT NULL,
    fence          INTEGER NOT NULL,
    state          TEXT    NOT NULL,           -- see a2a_tui/gate/model.py
    branch         TEXT    NOT NULL,
    worktree       TEXT    NOT NULL,
    worktree_state TEXT    NOT NULL,           -- pending | present | removed | kept_dirty | unknown
    start_commit   TEXT    NOT NULL,
    target_branch  TEXT    NOT NULL,
    card_version   INTEGER NOT NULL,
    writer         TEXT    NOT NULL,           -- 'user' or 'session:<id>'
    submission_n   INTEGER NOT NULL DEFAULT 0,
    submitted_sha  TEXT,
    rejections     INTEGER NOT NULL DEFAULT 0, -- consecutive rejections
    claimed_ns     INTEGER NOT NULL,
    ended_ns       INTEGER,
    updated_seq    INTEGER NOT NULL,
    UNIQUE (card_id, n)
);
CREATE INDEX IF NOT EXISTS attempts_card ON attempts(card_id);

CREATE TABLE IF NOT EXISTS submissions (
    attempt_id   TEXT    NOT NULL,
    n            INTEGER NOT NULL,
    sha          TEXT    NOT NULL,
    card_version INTEGER NOT NULL,
    fence        INTEGER NOT NULL,
    actor        TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    PRIMARY KEY (attempt_id, n)
);

-- Evidence: one row per check run, bound to the exact SHA and card version.
CREATE TABLE IF NOT EXISTS check_results (
    id           INTEGER PRIMARY KEY,
    attempt_id   TEXT    NOT NULL,
    submission_n INTEGER NOT NULL,
    run          INTEGER NOT NULL,             -- verify run number for this attempt
    sha          TEXT    NOT NULL,
    card_version INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    kind         TEXT    NOT NULL,             -- sanity | boundary | drift | provenance | red | command
    blocking     INTEGER NOT NULL,
    passed       INTEGER NOT NULL,
    exit_code    INTEGER,
    duration_s   REAL,
    detail       TEXT    NOT NULL DEFAULT '',
    stdout_tail  TEXT    NOT NULL DEFAULT '',
    stderr_tail  TEXT    NOT NULL DEFAULT '',
    log_path     TEXT,
    seq          INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS check_results_attempt ON check_results(attempt_id, run);

CREATE TABLE IF NOT EXISTS verifications (
    attempt_id   TEXT    NOT NULL,
    run          INTEGER NOT NULL,
    submission_n INTEGER NOT NULL,
    sha          TEXT    NOT NULL,
    card_version INTEGER NOT NULL,
    state        TEXT    NOT NULL,             -- running | passed | rejected | interrupted
    started_seq  INTEGER NOT NULL,
    ended_seq    INTEGER,
    PRIMARY KEY (attempt_id, run)
);

CREATE TABLE IF NOT EXISTS integrations (
    attempt_id  TEXT    PRIMARY KEY,
    state       TEXT    NOT NULL,              -- intent | integrated | not_applied | unknown
    ref         TEXT    NOT NULL,
    old_sha     TEXT    NOT NULL,
    new_sha     TEXT    NOT NULL,
    sync_worktree TEXT,                        -- main worktree to bring up to date, if clean
    intent_seq  INTEGER NOT NULL,
    outcome_seq INTEGER
);

CREATE TABLE IF NOT EXISTS scores (
    attempt_id  TEXT    PRIMARY KEY,
    outcome     TEXT    NOT NULL,              -- integrated | abandoned
    boundary    INTEGER NOT NULL,
    boundary_reason TEXT NOT NULL,
    taste       INTEGER NOT NULL,
    taste_reason TEXT   NOT NULL,
    rounds      INTEGER NOT NULL,
    rejections  INTEGER NOT NULL,
    duration_s  REAL    NOT NULL,
    actor       TEXT    NOT NULL,
    seq         INTEGER NOT NULL
);

-- Independent reviews: advisory verdicts bound to one SHA. A review can block, never approve.
CREATE TABLE IF NOT EXISTS reviews (
    id          INTEGER PRIMARY KEY,
    attempt_id  TEXT    NOT NULL,
    submission_n INTEGER NOT NULL,
    sha         TEXT    NOT NULL,
    session     TEXT    NOT NULL,
    verdict     TEXT    NOT NULL,              -- pass | block
    notes       TEXT    NOT NULL,
    seq         INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS reviews_attempt ON reviews(attempt_id, sha);
CREATE TRIGGER IF NOT EXISTS reviews_no_update BEFORE UPDATE ON reviews
BEGIN SELECT RAISE(ABORT, 'reviews are append-only'); END;
CREATE TRIGGER IF NOT EXISTS reviews_no_delete BEFORE DELETE ON reviews
BEGIN SELECT RAISE(ABORT, 'reviews are append-only'); END;

-- Managed agent sessions (one per tmux pane a2a launched). A projection: every change is written
-- in the transaction that appends the event explaining it (signal, dispatch_sent, pane_released...).
CREATE TABLE IF NOT EXISTS sessions (
    id              TEXT PRIMARY KEY,
    role            TEXT    NOT NULL,          -- ideation | executive | worker | reviewer
    cli             TEXT    NOT NULL,          -- claude | codex | gemini | demo
    cli_version     TEXT    NOT NULL DEFAULT '',
    model           TEXT    NOT NULL DEFAULT '',
    effort          TEXT    NOT NULL DEFAULT '',
    attempt_id      TEXT,
    cwd             TEXT    NOT NULL,
    pane_id         TEXT,                      -- tmux pane id, e.g. %3
    pane_pid        INTEGER,                   -- pid of the pane's first process
    pane_pid_start  INTEGER,                   -- its start time (clock ticks): guards pid reuse
    pane_tty        TEXT,
    tmux_socket     TEXT,                      -- tmux -L name; NULL = the user's default server
    tmux_session    TEXT,
    state           TEXT    NOT NULL DEFAULT 'unknown', -- unknown | idle | busy | waiting | exited
    state_since_ns  INTEGER NOT NULL,
    paused          INTEGER NOT NULL DEFAULT 0,
    hint            TEXT,                      -- e.g. "probably idle — release?"
    thread_id       TEXT,                      -- the CLI's own conversation id, once known
    last_signal_ns  INTEGER,
    busy_since_ns   INTEGER,                   -- when we wrote Enter (or a start signal arrived)
    in_flight       INTEGER,                   -- dispatch n delivered and not yet finished
    last_write_ns   INTEGER,                   -- when we last began writing to the pane
    needs_clear     INTEGER NOT NULL DEFAULT 0, -- clear the input box before the next paste
    launch_seq      INTEGER NOT NULL,
    created_ns      INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_pane ON sessions(pane_id);

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

-- Collaboration records. Every table here is append-only (triggers refuse UPDATE and DELETE):
-- a status is derived from later records that point at earlier ones, never by editing.

-- What the user said or did (U-<n>), kept apart from dispatched text (the injection queue).
CREATE TABLE IF NOT EXISTS user_inputs (
    id          TEXT PRIMARY KEY,               -- U-<n>
    n           INTEGER NOT NULL UNIQUE,
    kind        TEXT    NOT NULL CHECK (kind IN
                  ('message', 'answer', 'approval', 'refusal', 'choice', 'action')),
    text        TEXT    NOT NULL,
    source      TEXT    NOT NULL,               -- cli | tui | pane (typed into a managed pane)
    to_session  TEXT,                           -- the session it goes to, if any
    ref         TEXT,                           -- the Q-/F-/I- record it answers or acts on
    option_key  TEXT,                           -- choices: the option picked
    attempt     TEXT,                           -- pane input: the attempt it intervened in
    seq         INTEGER NOT NULL,
    ts_ns       INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS user_inputs_ref ON user_inputs(ref) WHERE ref IS NOT NULL;
CREATE TRIGGER IF NOT EXISTS user_inputs_no_update BEFORE UPDATE ON user_inputs
BEGIN SELECT RAISE(ABORT, 'user inputs are append-only'); END;
CREATE TRIGGER IF NOT EXISTS user_inputs_no_delete BEFORE DELETE ON user_inputs
BEGIN SELECT RAISE(ABORT, 'user inputs are append-only'); END;

-- Inbox between the ideation and executive controllers: append-only entries.
CREATE TABLE IF NOT EXISTS inbox (
    id             TEXT PRIMARY KEY,            -- I-<n>
    n              INTEGER NOT NULL UNIQUE,
    kind           TEXT    NOT NULL CHECK (kind IN
                     ('assign', 'revise', 'stop', 'report', 'ack', 'disposition')),
    author_session TEXT,                        -- NULL when the user wrote it
    author_role    TEXT    NOT NULL,            -- ideation | executive | user
    recipient      TEXT    NOT NULL,            -- ideation | executive | user
    card_id        TEXT,
    card_version   INTEGER,                     -- the card's version when the entry was posted
    status         TEXT CHECK (status IS NULL OR status IN ('PASS', 'INCOMPLETE', 'BLOCKED', 'NO_GO')),
    ref            TEXT REFERENCES inbox(id),   -- an earlier entry this one points at
    text           TEXT    NOT NULL,
    quote          TEXT,
    user_input     TEXT,                        -- U-<n> the quote is taken from
    authorized     INTEGER,                     -- 1 quote verified, 0 not; NULL: no quote needed/given
    authorization_note TEXT,
    seq            INTEGER NOT NULL,
    ts_ns          INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS inbox_card ON inbox(card_id);
CREATE INDEX IF NOT EXISTS inbox_ref ON inbox(ref) WHERE ref IS NOT NULL;
CREATE TRIGGER IF NOT EXISTS inbox_no_update BEFORE UPDATE ON inbox
BEGIN SELECT RAISE(ABORT, 'inbox entries are append-only'); END;
CREATE TRIGGER IF NOT EXISTS inbox_no_delete BEFORE DELETE ON inbox
BEGIN SELECT RAISE(ABORT, 'inbox entries are append-only'); END;

-- Board: questions to the user and anyone's findings. Items are never edited or deleted;
-- answers and closures are new records that point at them (board_records).
CREATE TABLE IF NOT EXISTS board_items (
    id           TEXT PRIMARY KEY,              -- Q-<n> | F-<n>
    kind         TEXT    NOT NULL CHECK (kind IN ('question', 'finding')),
    title        TEXT    NOT NULL,
    body         TEXT    NOT NULL DEFAULT '',
    options      TEXT    NOT NULL DEFAULT '[]', -- JSON [{"key":..,"text":..}]
    recommend    TEXT,
    why          TEXT,
    blocking     INTEGER NOT NULL DEFAULT 0,
    category     TEXT    NOT NULL DEFAULT 'other',
    protected    INTEGER NOT NULL DEFAULT 0,
    asked_by     TEXT,                          -- session id, NULL for the user / the gate
    actor        TEXT    NOT NULL,
    role         TEXT,                          -- the asking session's role; NULL for user / gate
    task         TEXT,
    attempt      TEXT,
    seq          INTEGER NOT NULL,
    ts_ns        INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS board_items_no_update BEFORE UPDATE ON board_items
BEGIN SELECT RAISE(ABORT, 'board items are append-only'); END;
CREATE TRIGGER IF NOT EXISTS board_items_no_delete BEFORE DELETE ON board_items
BEGIN SELECT RAISE(ABORT, 'board items are append-only'); END;

-- Answers and closures of board items. An answer is backed by a user input (U-<n>).
CREATE TABLE IF NOT EXISTS board_records (
    seq          INTEGER PRIMARY KEY,           -- the event that recorded it
    item_id      TEXT    NOT NULL REFERENCES board_items(id),
    kind         TEXT    NOT NULL CHECK (kind IN ('answer', 'close')),
    user_input   TEXT REFERENCES user_inputs(id),
    reason       TEXT,
    actor        TEXT    NOT NULL,
    session      TEXT,
    role         TEXT,                          -- the closing session's role; 'user' for the user
    ts_ns        INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS board_records_item ON board_records(item_id);
CREATE TRIGGER IF NOT EXISTS board_records_no_update BEFORE UPDATE ON board_records
BEGIN SELECT RAISE(ABORT, 'board records are append-only'); END;
CREATE TRIGGER IF NOT EXISTS board_records_no_delete BEFORE DELETE ON board_records
BEGIN SELECT RAISE(ABORT, 'board records are append-only'); END;

-- Which records (U-<n>, I-<n>) went to which pane, as which dispatch. One row per record: a
-- record is queued at most once, never re-sent. Several records queued as one prompt share
-- the dispatch number.
CREATE TABLE IF NOT EXISTS deliveries (
    record       TEXT PRIMARY KEY,
    session      TEXT    NOT NULL,
    dispatch     INTEGER NOT NULL,
    seq          INTEGER NOT NULL,
    ts_ns        INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS deliveries_dispatch ON deliveries(dispatch);
CREATE TRIGGER IF NOT EXISTS deliveries_no_update BEFORE UPDATE ON deliveries
BEGIN SELECT RAISE(ABORT, 'deliveries are append-only'); END;
CREATE TRIGGER IF NOT EXISTS deliveries_no_delete BEFORE DELETE ON deliveries
BEGIN SELECT RAISE(ABORT, 'deliveries are append-only'); END;
