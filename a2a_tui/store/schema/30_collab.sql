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
