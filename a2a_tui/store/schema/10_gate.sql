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
