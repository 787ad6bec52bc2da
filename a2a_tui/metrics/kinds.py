"""The event kinds the metrics read: one table, so a renamed kind is one line to change.

Keys say what a kind means to the metrics; values are the kinds as the store holds them. Several
are written by parts of a2a still being built: a kind that never occurs is simply not found, and
every view works on a history without it.
"""

from __future__ import annotations

KINDS: dict[str, str] = {
    # --- cards and attempts (the gate) ---
    "card_added": "card_added",              # payload.card: task_type, complexity, title
    "card_revised": "card_revised",
    "claimed": "claimed",                    # an attempt starts; session = who claimed it
    "submitted": "submitted",                # one round
    "verify_started": "verify_started",
    "verified": "verified",                  # payload.tests: run, passed, masked, dropped
    "rejected": "rejected",                  # payload.first_failure (a check), .step/.code if set
    "flaky": "verify_flaky",                 # neither pass nor fail: never a rejection
    "contract_invalid": "contract_invalid",  # the card's own problem: never a worker rejection
    "integration_intent": "integration_intent",   # session = who integrated
    "integrated": "integrated",              # payload.score, .rounds, .changed_lines ...
    "abandoned": "abandoned",
    "superseded": "attempt_superseded",
    "claim_failed": "worktree_failed",
    "integration_unknown": "integration_unknown",
    "resolved": "attempt_resolved",          # the user resolved an `unknown` attempt (payload.as)
    "approved": "integration_approved",      # the user's approval, bound to a SHA
    "diverged": "target_diverged",           # the target moved behind the gate
    "adopted": "target_adopted",
    "feedback": "gate_feedback",             # payload.sent false: the three-strike stop (today)
    "feedback_stopped": "feedback_stopped",  # the three-strike stop as its own event
    "review_started": "review_started",
    "reviewed": "reviewed",                  # payload.verdict block | fail: a rejection at review
    "review_disposition": "review_disposition",
    # --- sessions and panes ---
    "launching": "session_launching",        # payload cli, model, effort, role; revives/forks/...
    "writer_bound": "writer_bound",
    "exited": "pane_exited",
    "released": "pane_released",             # the user declared a pane idle
    "stalled": "pane_stalled",               # a busy, silent pane escalated to the board
    "intervention": "human_intervention",    # typed into a pane, or the user's own commit
    "signal": "signal",                      # payload.kind: SIGNAL_TURN_END, SIGNAL_WAITING ...
    "dispatch_queued": "dispatch_queued",
    "dispatch_sent": "dispatch_sent",
    "enter_resent": "dispatch_enter_resent",   # Enter written again: no prompt signal came
    "dispatch_unknown": "dispatch_unknown",   # a2a cannot tell if the CLI took it; user called
    # --- the board ---
    "posted": "board_item_posted",           # payload.kind question | finding
    "answered": "board_item_answered",
    "closed": "board_item_closed",
    # --- retrospectives (written here) ---
    "retro_started": "retro_started",
    "retro_saved": "retro_saved",
    "retro_proposed": "retro_proposed",
    "initialized": "initialized",            # payload.root names the project
}

SIGNAL_TURN_END = "stop"      # a signal of this payload kind ends one turn
SIGNAL_WAITING = "waiting"    # the CLI waits for the user (a permission prompt)

# Verify steps the gate runs itself; any other first failure is one of the card's checks.
STEPS = ("precheck", "sanity", "boundary", "drift", "provenance", "red", "per-test", "artifacts",
         "review")
CHECK_STEP = "checks"

# `payload.as` of attempt_resolved, mapped to the outcome it gives the attempt.
RESOLUTIONS = {"integrated": "integrated", "not-applied": "abandoned", "not_applied": "abandoned",
               "abandoned": "abandoned"}
