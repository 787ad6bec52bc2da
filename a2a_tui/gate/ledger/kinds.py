"""Every event kind the fold applies: one name per kind, used by the commands that record it
(`ledger.record` takes no other) and by the handlers that apply it (ledger/attempts.py,
reviews.py, targets.py; a test holds the two sets equal). The values are what the log holds."""

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
    REVIEW_COMMENT_ADDED = "review_comment_added"
    REVIEW_COMMENT_EDITED = "review_comment_edited"
    REVIEW_COMMENT_REMOVED = "review_comment_removed"
    REVIEW_COMMENTS_SENT = "review_comments_sent"
    # the targets' record
    TARGET_OBSERVED = "target_observed"
    TARGET_DIVERGED = "target_diverged"
    TARGET_ADOPTED = "target_adopted"
    TARGET_RESTORED = "target_restored"
