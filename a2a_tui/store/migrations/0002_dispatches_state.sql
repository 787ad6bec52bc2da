-- Migration 2: dispatches by state, across sessions. `dispatches_session` serves every per-pane
-- question (session, state); the orchestrator's start-up asks across panes which dispatches a
-- crash left `sending` (panes/recovery.py), which without this scans every dispatch ever made.
CREATE INDEX IF NOT EXISTS dispatches_state ON dispatches(state);
