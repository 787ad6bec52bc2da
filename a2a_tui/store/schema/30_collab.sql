-- Inbox between the ideation and executive controllers: append-only entries.
CREATE TABLE IF NOT EXISTS inbox (
    id             TEXT PRIMARY KEY,            -- I-<n>
    n              INTEGER NOT NULL UNIQUE,
    kind           TEXT    NOT NULL,            -- assign | revise | stop | report | ack | disposition
    author_session TEXT,                        -- NULL when the user wrote it
    author_role    TEXT    NOT NULL,            -- ideation | executive | user | ...
    card_id        TEXT,
    status         TEXT,                        -- PASS | INCOMPLETE | BLOCKED | NO_GO (reports)
    ref            TEXT,                        -- an earlier entry this one points at
    text           TEXT    NOT NULL,
    quote          TEXT,
    user_input     TEXT,                        -- U-<n> the quote is taken from
    authorized     INTEGER,                     -- assigns: 1 authorized, 0 not; NULL otherwise
    authorization_note TEXT,
    seq            INTEGER NOT NULL,
    ts_ns          INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS inbox_card ON inbox(card_id);
CREATE TRIGGER IF NOT EXISTS inbox_no_update BEFORE UPDATE ON inbox
BEGIN SELECT RAISE(ABORT, 'inbox entries are append-only'); END;
CREATE TRIGGER IF NOT EXISTS inbox_no_delete BEFORE DELETE ON inbox
BEGIN SELECT RAISE(ABORT, 'inbox entries are append-only'); END;

-- Board: questions to the user and anyone's findings. Items are never edited or deleted;
-- answers and closures are new records that point at them (board_records).
CREATE TABLE IF NOT EXISTS board_items (
    id           TEXT PRIMARY KEY,              -- Q-<n> | F-<n>
    kind         TEXT    NOT NULL,              -- question | finding
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
    task         TEXT,
    attempt      TEXT,
    seq          INTEGER NOT NULL,
    ts_ns        INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS board_items_no_update BEFORE UPDATE ON board_items
BEGIN SELECT RAISE(ABORT, 'board items are append-only'); END;
CREATE TRIGGER IF NOT EXISTS board_items_no_delete BEFORE DELETE ON board_items
BEGIN SELECT RAISE(ABORT, 'board items are append-only'); END;
