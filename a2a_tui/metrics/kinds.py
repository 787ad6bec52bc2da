"""What the metrics take from the events' payloads: signal kinds, verify steps, resolutions.

The event kinds themselves are in the one registry, a2a_tui/kinds.py (`GateEvent`,
`EventKind`); a kind that never occurs is simply not found, and every view works on a history
without it.
"""

from __future__ import annotations

from a2a_tui.states import AttemptState

SIGNAL_TURN_END = "stop"      # a signal of this payload kind ends one turn
SIGNAL_WAITING = "waiting"    # the CLI waits for the user (a permission prompt)

# Verify steps the gate runs itself; any other first failure is one of the card's checks.
STEPS = ("precheck", "sanity", "boundary", "drift", "provenance", "red", "per-test", "artifacts",
         "review")
CHECK_STEP = "checks"
# A threshold of gate.toml (rule 6) read from a check's output: its own step, the check's name
# and the threshold's as its code (`tests/coverage`).
THRESHOLD_STEP = "threshold"

# Attention kinds a retro lists as stalls and stops ("unknown": an integration's unread outcome).
STALLS_AND_STOPS = ("stall", "feedback_stop", "unknown", "divergence", "permission")

# `payload.as` of attempt_resolved, mapped to the outcome it gives the attempt.
RESOLUTIONS = {"integrated": AttemptState.INTEGRATED, "not-applied": AttemptState.ABANDONED,
               "not_applied": AttemptState.ABANDONED, "abandoned": AttemptState.ABANDONED}
