"""The registry of event kinds: one name per kind, for whoever records, folds or reads it.

`GateEvent`: every kind the gate's fold applies, used by the commands that record it
(`ledger.record` takes no other) and by the handlers that apply it (gate/ledger/attempts.py,
reviews.py, targets.py; a test holds the two sets equal). `EventKind`: the other kinds a2a's
own folds read (the metrics: metrics/handlers.py) or that they write (retrospectives). The
events reference (docs/reference/events.md) is generated from these and the appends in the
code. The values are what the log holds; a renamed kind is one line here.
"""

from __future__ import annotations

from enum import StrEnum


class GateEvent(StrEnum):
    """A kind of event that changes the gate's tables."""

    # cards and attempts
    CARD_ADDED = "card_added"
    CARD_VERSIONED = "card_versioned"
    CARD_REVISED = "card_revised"
    CARD_READY = "card_ready"
    CLAIMED = "claimed"
    ATTEMPT_SUPERSEDED = "attempt_superseded"
    WORKTREE_CREATED = "worktree_created"
    WORKTREE_FAILED = "worktree_failed"
    WRITER_BOUND = "writer_bound"
    SUBMITTED = "submitted"
    ABANDONED = "abandoned"
    LEASE_EXPIRED = "lease_expired"
    LEASE_RENEWED = "lease_renewed"
    # verify
    VERIFY_STARTED = "verify_started"
    CHECK_RESULT = "check_result"
    TESTS_REPORTED = "tests_reported"
    VERIFIED = "verified"
    REJECTED = "rejected"
    VERIFY_FLAKY = "verify_flaky"
    CONTRACT_INVALID = "contract_invalid"
    VERIFY_COMMIT_MISSING = "verify_commit_missing"
    VERIFY_INTERRUPTED = "verify_interrupted"
    # integrate, resolve, reclaim
    INTEGRATION_INTENT = "integration_intent"
    INTEGRATED = "integrated"
    INTEGRATION_NOT_APPLIED = "integration_not_applied"
    INTEGRATION_UNKNOWN = "integration_unknown"
    ATTEMPT_RESOLVED = "attempt_resolved"
    WORKTREE_REMOVED = "worktree_removed"
    WORKTREE_KEPT = "worktree_kept"
    WORKTREE_UNKNOWN = "worktree_unknown"
    # reviews, approvals, line comments
    REVIEW_REQUESTED = "review_requested"
    REVIEW_STARTED = "review_started"
    REVIEW_LAUNCH_FAILED = "review_launch_failed"
    REVIEWED = "reviewed"
    REVIEW_DISPOSITION = "review_disposition"
    REVIEW_OVERRIDDEN = "review_overridden"
    INTEGRATION_APPROVED = "integration_approved"
    APPROVAL_CONSUMED = "approval_consumed"
    APPROVAL_REVOKED = "approval_revoked"
    REVIEW_COMMENT_ADDED = "review_comment_added"
    REVIEW_COMMENT_EDITED = "review_comment_edited"
    REVIEW_COMMENT_REMOVED = "review_comment_removed"
    REVIEW_COMMENTS_SENT = "review_comments_sent"
    # the targets' record
    TARGET_OBSERVED = "target_observed"
    TARGET_DIVERGED = "target_diverged"
    TARGET_ADOPTED = "target_adopted"
    TARGET_RESTORED = "target_restored"


class EventKind(StrEnum):
    """A kind the gate does not fold that the metrics read (or write): sessions, panes, the
    board, feedback, retrospectives."""

    INITIALIZED = "initialized"                # payload.root names the project
    # the gate's, outside its tables
    GATE_FEEDBACK = "gate_feedback"            # payload.sent false: the three-strike stop (older)
    FEEDBACK_STOPPED = "feedback_stopped"      # the three-strike stop as its own event
    # sessions and panes
    SESSION_LAUNCHING = "session_launching"    # payload cli, model, effort, role; revives/...
    PANE_EXITED = "pane_exited"
    PANE_RELEASED = "pane_released"            # the user declared a pane idle
    PANE_STALLED = "pane_stalled"              # a busy, silent pane escalated to the board
    TURN_REMINDED = "turn_reminded"            # a turn busy past remind_after_s (rule 5)
    TURN_STOPPED = "turn_stopped"              # a turn stopped with its CLI's key (rule 5)
    # the project's profile (collab/project.py, rule 8): what the controllers' cards name
    PROJECT_PROFILE_CONFIRMED = "project_profile_confirmed"
    MODEL_STOPPED_EARLY = "model_stopped_early"  # a writer's turn ended with its work owed
    HUMAN_INTERVENTION = "human_intervention"  # typed into a pane, or the user's own commit
    SIGNAL = "signal"                          # payload.kind: stop (a turn ends), waiting ...
    DISPATCH_QUEUED = "dispatch_queued"
    DISPATCH_SENT = "dispatch_sent"
    DISPATCH_ENTER_RESENT = "dispatch_enter_resent"   # Enter written again: no prompt signal
    # the board
    BOARD_ITEM_POSTED = "board_item_posted"    # payload.kind question | finding
    BOARD_ITEM_ANSWERED = "board_item_answered"
    BOARD_ITEM_CLOSED = "board_item_closed"
    # spot checks (gate/integration/spotchecks.py): the user asked to re-check an integration
    SPOT_CHECK_REQUESTED = "spot_check_requested"
    SPOT_CHECK_DONE = "spot_check_done"        # payload.verdict ok | flagged
    # retrospectives (written by the metrics)
    RETRO_STARTED = "retro_started"
    RETRO_SAVED = "retro_saved"
    RETRO_PROPOSED = "retro_proposed"


class CollabEvent(StrEnum):
    """The collaboration's kinds outside `EventKind`: the user's words, the inbox, refusals."""

    USER_INPUT = "user_input"
    INBOX_POSTED = "inbox_posted"
    COLLAB_REFUSED = "collab_refused"


class BoundaryEvent(StrEnum):
    """A caller refused at a2a's edge (roles, identity, the broker) and the broker's exits."""

    ROLE_FORBIDDEN = "role_forbidden"
    CALLER_UNIDENTIFIED = "caller_unidentified"
    BROKER_REFUSED = "broker_refused"
    BROKER_PEER_MISMATCH = "broker_peer_mismatch"
    BROKER_EXITED = "broker_exited"


class RecordEvent(StrEnum):
    """The record's own events: whose store it is, its repairs, backups and troubles."""

    STORE_IDENTIFIED = "store_identified"
    PID_NAMESPACE_RECORDED = "pid_namespace_recorded"
    STORE_TAMPERED = "store_tampered"
    STORE_REPAIRED = "store_repaired"
    PROJECTIONS_REBUILT = "projections_rebuilt"
    CHAIN_RESEALED = "chain_resealed"
    STORE_RESTORED = "store_restored"
    STORE_BACKED_UP = "store_backed_up"
    STORE_TROUBLE = "store_trouble"


class HouseEvent(StrEnum):
    """The orchestrator's life, the settings it takes in, the workbench and the demo."""

    ORCHESTRATOR_STARTED = "orchestrator_started"
    ORCHESTRATOR_STOPPED = "orchestrator_stopped"
    SETTINGS_LOADED = "settings_loaded"
    SETTINGS_REFUSED = "settings_refused"
    WORKBENCH_UP = "workbench_up"
    DEMO_STEP = "demo_step"
