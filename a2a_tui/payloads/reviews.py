"""The payloads of reviews, approvals and line comments (gate/reviews/; folded by
gate/ledger/reviews.py)."""

from __future__ import annotations

from typing import Any

from a2a_tui.kinds import GateEvent as G
from a2a_tui.payloads.base import Payload, payload


@payload(G.REVIEW_REQUESTED)
class ReviewRequested(Payload):
    """A review run asked for: its id, the submission it reviews, its round and checkout."""

    review: str
    sha: str
    submission: int
    round: int
    follows: int | None = None   # the review (its seq) of the round before
    checkout: str


@payload(G.REVIEW_STARTED)
class ReviewStarted(Payload):
    """The reviewer's session launched (the event's session): where it writes its report."""

    review: str
    sha: str
    submission: int
    round: int
    follows: int | None = None
    checkout: str
    report: str
    cli: str
    model: str | None = None
    effort: str | None = None


@payload(G.REVIEW_LAUNCH_FAILED)
class ReviewLaunchFailed(Payload):
    review: str
    reason: str


@payload(G.REVIEWED)
class Reviewed(Payload):
    """A verdict. One given before reports (`block` with notes) has no run, risks or issues."""

    review: str | None = None
    sha: str
    submission: int
    round: int | None = None
    verdict: str
    blocking_issues: list[dict[str, Any]] = ()   # type: ignore[assignment]  # id, title, evidence
    risks: list[str] = ()                        # type: ignore[assignment]
    recommends_follow_up: bool = False
    report: str | None = None
    report_digest: str | None = None
    notes: str | None = None


@payload(G.REVIEW_DISPOSITION)
class ReviewDisposition(Payload):
    """The user's (or the executive's) decision on one blocking issue of a review."""

    review: int
    issue: str
    sha: str
    decision: str
    reason: str
    user_input: str | None = None


@payload(G.REVIEW_OVERRIDDEN)
class ReviewOverridden(Payload):
    sha: str
    submission: int
    reason: str
    user_input: str


@payload(G.INTEGRATION_APPROVED)
class IntegrationApproved(Payload):
    """The user's approval of one submission, its evidence and card version; since migration
    14 it names its target and expiry (None before: no expiry)."""

    approval: str
    user_input: str
    sha: str
    submission: int
    card_version: int
    evidence: str
    target_branch: str | None = None
    expires_ns: int | None = None


@payload(G.APPROVAL_REVOKED)
class ApprovalRevoked(Payload):
    approval: str
    reason: str
    user_input: str


@payload(G.APPROVAL_CONSUMED)
class ApprovalConsumed(Payload):
    approval: str
    sha: str
    card_version: int
    evidence: str


@payload(G.REVIEW_COMMENT_ADDED)
class ReviewCommentAdded(Payload):
    id: str
    path: str
    line: int
    sha: str
    text: str


@payload(G.REVIEW_COMMENT_EDITED)
class ReviewCommentEdited(Payload):
    id: str
    text: str
    was: str


@payload(G.REVIEW_COMMENT_REMOVED)
class ReviewCommentRemoved(Payload):
    id: str


@payload(G.REVIEW_COMMENTS_SENT)
class ReviewCommentsSent(Payload):
    """Held comments sent to the writer in one dispatch (`older`: sent before, at other
    commits)."""

    user_input: str
    sha: str
    comments: list[str]
    older: list[str] = ()   # type: ignore[assignment]
    dispatch: int | None = None


@payload("review_refused")
class ReviewRefused(Payload):
    """A refused verdict, kept as a diagnostic: the code, the SHA given, the report's verdict."""

    code: str
    message: str
    sha: str
    verdict: str | None = None


@payload("review_checkouts_reclaimed")
class ReviewCheckoutsReclaimed(Payload):
    """The review checkouts of an attempt removed or kept (each: checkout, state, reason)."""

    checkouts: list[dict[str, Any]]


TYPES: tuple[type[Payload], ...] = (
    ReviewRefused, ReviewCheckoutsReclaimed, ReviewRequested, ReviewStarted, ReviewLaunchFailed,
    Reviewed, ReviewDisposition, ReviewOverridden, IntegrationApproved, ApprovalRevoked,
    ApprovalConsumed, ReviewCommentAdded,
    ReviewCommentEdited, ReviewCommentRemoved, ReviewCommentsSent,
)
