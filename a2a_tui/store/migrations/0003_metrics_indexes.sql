-- Migration 3: what the metrics (a2a_tui/metrics) read from a long log without scanning it.
-- Turns and permission waits: signals by their payload kind, then session; a count per session
-- is read from this index alone.
CREATE INDEX IF NOT EXISTS events_signal_kind
    ON events(json_extract(payload, '$.kind'), session) WHERE kind = 'signal';
-- Dispatches (and any other kind) per session, from the index alone.
CREATE INDEX IF NOT EXISTS events_kind_session ON events(kind, session);
-- --since: the first event at or after an instant.
CREATE INDEX IF NOT EXISTS events_ts ON events(ts_ns);
