-- Migration 13: the test reports the gate judged (a2a_tui/gate/verify/baseline.py): one row per
-- `tests_reported` event, folded by the ledger (gate/ledger.py), found by commit and check
-- fingerprint when a later verify needs its base's outcomes. The tests themselves (file -> test
-- -> outcome) stay in the event's payload, under the hash chain.
CREATE TABLE IF NOT EXISTS test_reports (
    seq          INTEGER PRIMARY KEY,           -- the tests_reported event
    attempt_id   TEXT    NOT NULL,              -- the verify that ran it
    run          INTEGER NOT NULL,
    sha          TEXT    NOT NULL,              -- the commit the tests ran on
    check_name   TEXT    NOT NULL,
    fingerprint  TEXT    NOT NULL,              -- command, report, env (baseline.fingerprint)
    source       TEXT    NOT NULL CHECK (source IN ('candidate', 'base')),
    runner       TEXT,                          -- the report's dialect; NULL: no report
    counts       TEXT                           -- JSON: tests per outcome, ran, total
);
CREATE INDEX IF NOT EXISTS test_reports_commit ON test_reports(sha, fingerprint);
CREATE TRIGGER IF NOT EXISTS test_reports_no_update BEFORE UPDATE ON test_reports
BEGIN SELECT RAISE(ABORT, 'test reports are append-only'); END;
CREATE TRIGGER IF NOT EXISTS test_reports_no_delete BEFORE DELETE ON test_reports
BEGIN SELECT RAISE(ABORT, 'test reports are append-only'); END;
