-- The gate's own view of each target branch (a2a_tui/gate/targets.py): where it last left it,
-- and a divergence seen since, until the user adopts or restores. A projection of the events
-- target_observed, integrated, attempt_resolved, target_diverged, target_adopted and
-- target_restored.
CREATE TABLE IF NOT EXISTS gate_targets (
  branch TEXT PRIMARY KEY,
  baseline TEXT NOT NULL,
  source TEXT NOT NULL,
  seq INTEGER NOT NULL,
  diverged_head TEXT,
  diverged_seq INTEGER,
  finding TEXT
);
