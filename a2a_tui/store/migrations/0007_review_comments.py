"""Migration 7: line comments on an attempt's diff (a2a_tui/gate/comments.py), and the user
input kind that sends them (`review_comments`).

`review_comments` is a projection of the events review_comment_added / _edited / _removed and
review_comments_sent. It is not gate state: the gate's ledger (gate/ledger.py) neither folds nor
compares it, and nothing the gate decides reads it.

`user_inputs.kind` has a CHECK that SQLite cannot alter: the table is re-created with the new
kind (rows copied, index and append-only triggers re-created). `board_records` refers to it, and
a DROP TABLE under `foreign_keys = ON` counts the referring rows as violations; with the check
deferred, inserting the same ids into the new table cancels them before the commit. DROP TABLE
fires no DELETE trigger. Idempotent: a table that already has the kind is left alone.
"""

from __future__ import annotations

USER_INPUTS = """CREATE TABLE user_inputs (
    id          TEXT PRIMARY KEY,               -- U-<n>
    n           INTEGER NOT NULL UNIQUE,
    kind        TEXT    NOT NULL CHECK (kind IN
                  ('message', 'answer', 'approval', 'refusal', 'choice', 'action',
                   'review_comments')),
    text        TEXT    NOT NULL,
    source      TEXT    NOT NULL,               -- cli | tui | pane (typed into a managed pane)
    to_session  TEXT,                           -- the session it goes to, if any
    ref         TEXT,                           -- the Q-/F-/I- record it answers or acts on
    option_key  TEXT,                           -- choices: the option picked
    attempt     TEXT,                           -- pane input: the attempt it intervened in
    seq         INTEGER NOT NULL,
    ts_ns       INTEGER NOT NULL
)"""
USER_INPUTS_AFTER = (
    "CREATE INDEX IF NOT EXISTS user_inputs_ref ON user_inputs(ref) WHERE ref IS NOT NULL",
    "CREATE TRIGGER IF NOT EXISTS user_inputs_no_update BEFORE UPDATE ON user_inputs"
    "\nBEGIN SELECT RAISE(ABORT, 'user inputs are append-only'); END",
    "CREATE TRIGGER IF NOT EXISTS user_inputs_no_delete BEFORE DELETE ON user_inputs"
    "\nBEGIN SELECT RAISE(ABORT, 'user inputs are append-only'); END",
)
COLUMNS = "id, n, kind, text, source, to_session, ref, option_key, attempt, seq, ts_ns"

COMMENTS = (
    """CREATE TABLE IF NOT EXISTS review_comments (
    id          TEXT PRIMARY KEY,               -- C-<n>
    n           INTEGER NOT NULL UNIQUE,
    attempt     TEXT    NOT NULL,
    path        TEXT    NOT NULL,               -- the file in the commented commit's tree
    line        INTEGER NOT NULL,               -- its line in that file (1-based)
    sha         TEXT    NOT NULL,               -- the commit the comment was written against
    text        TEXT    NOT NULL,
    state       TEXT    NOT NULL CHECK (state IN ('held', 'removed', 'sent')),
    user_input  TEXT,                           -- sent: the review_comments input that sent it
    created_seq INTEGER NOT NULL,
    updated_seq INTEGER NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS review_comments_attempt ON review_comments(attempt, state)",
)


def migrate(tx) -> None:
    sql = tx.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name ="
                     " 'user_inputs'").fetchone()[0]
    if "'review_comments'" not in sql:
        tx.execute("PRAGMA defer_foreign_keys = ON")   # ends with the transaction
        tx.execute(f"CREATE TEMP TABLE user_inputs_kept AS SELECT {COLUMNS} FROM user_inputs")
        tx.execute("DROP TABLE user_inputs")
        tx.execute(USER_INPUTS)
        tx.execute(f"INSERT INTO user_inputs({COLUMNS}) SELECT {COLUMNS} FROM user_inputs_kept"
                   " ORDER BY n")
        tx.execute("DROP TABLE user_inputs_kept")
        for stmt in USER_INPUTS_AFTER:
            tx.execute(stmt)
    for stmt in COMMENTS:
        tx.execute(stmt)
