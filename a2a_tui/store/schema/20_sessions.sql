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
