"""The fold of reviews, approvals and line comments (gate/review*.py, gate/reviews/approvals.py,
gate/reviews/comments.py), one handler per event kind, each given its kind's payload type
(a2a_tui/payloads/reviews.py)."""

from __future__ import annotations

import json

from a2a_tui.gate.ledger.attempts import Handler
from a2a_tui.gate.ledger.rows import Rows
from a2a_tui.kinds import GateEvent
from a2a_tui.payloads import reviews as r
from a2a_tui.store import Event


def _review_requested(rows: Rows, ev: Event, p: r.ReviewRequested) -> None:
    rows.add("review_runs", {
        "id": p.review, "attempt_id": ev.attempt, "submission_n": p.submission,
        "sha": p.sha, "round": p.round, "follows": p.follows, "checkout": p.checkout,
        "state": "requested", "session": None, "report": None, "requested_seq": ev.seq,
        "updated_seq": ev.seq})


def _review_started(rows: Rows, ev: Event, p: r.ReviewStarted) -> None:
    rows.set("review_runs", (p.review,), state="running", session=ev.session, report=p.report,
             updated_seq=ev.seq)


def _review_launch_failed(rows: Rows, ev: Event, p: r.ReviewLaunchFailed) -> None:
    rows.set("review_runs", (p.review,), state="failed", updated_seq=ev.seq)


def _reviewed(rows: Rows, ev: Event, p: r.Reviewed) -> None:
    """A verdict; one given before reports (`block` with notes) has no run, risks or issues.
    Its id is its event's seq."""
    rows.add("reviews", {"id": ev.seq, "attempt_id": ev.attempt, "submission_n": p.submission,
                         "sha": p.sha, "session": ev.session, "verdict": p.verdict,
                         "notes": p.notes, "seq": ev.seq, "run_id": p.review,
                         "risks": json.dumps(list(p.risks)),
                         "follow_up": int(p.recommends_follow_up),
                         "report_digest": p.report_digest})
    for issue in p.blocking_issues:
        rows.add("review_issues", {"review_id": ev.seq, "attempt_id": ev.attempt,
                                   "sha": p.sha, "issue": issue["id"], "title": issue["title"],
                                   "evidence": json.dumps(issue["evidence"]), "seq": ev.seq})


def _review_disposition(rows: Rows, ev: Event, p: r.ReviewDisposition) -> None:
    rows.add("review_dispositions", {
        "seq": ev.seq, "attempt_id": ev.attempt, "sha": p.sha, "review_id": p.review,
        "issue": p.issue, "decision": p.decision, "reason": p.reason, "actor": ev.actor,
        "user_input": p.user_input})


def _review_overridden(rows: Rows, ev: Event, p: r.ReviewOverridden) -> None:
    rows.add("review_overrides", {"seq": ev.seq, "attempt_id": ev.attempt,
                                  "submission_n": p.submission, "sha": p.sha,
                                  "reason": p.reason, "user_input": p.user_input})


def _integration_approved(rows: Rows, ev: Event, p: r.IntegrationApproved) -> None:
    rows.add("approvals", {"id": p.approval, "attempt_id": ev.attempt,
                           "submission_n": p.submission, "sha": p.sha,
                           "card_version": p.card_version, "evidence": p.evidence,
                           "user_input": p.user_input, "seq": ev.seq,
                           # named by approvals since migration 14 (None before: no expiry)
                           "expires_ns": p.expires_ns, "target_branch": p.target_branch})


def _approval_revoked(rows: Rows, ev: Event, p: r.ApprovalRevoked) -> None:
    rows.add("approval_revocations", {"approval_id": p.approval, "attempt_id": ev.attempt,
                                      "reason": p.reason, "user_input": p.user_input,
                                      "seq": ev.seq})


def _approval_consumed(rows: Rows, ev: Event, p: r.ApprovalConsumed) -> None:
    rows.add("approval_uses", {"approval_id": p.approval, "attempt_id": ev.attempt,
                               "seq": ev.seq})


def _comment_added(rows: Rows, ev: Event, p: r.ReviewCommentAdded) -> None:
    rows.add("review_comments", {
        "id": p.id, "n": int(p.id.split("-", 1)[1]), "attempt": ev.attempt,
        "path": p.path, "line": p.line, "sha": p.sha, "text": p.text,
        "state": "held", "user_input": None, "created_seq": ev.seq, "updated_seq": ev.seq})


def _comment_edited(rows: Rows, ev: Event, p: r.ReviewCommentEdited) -> None:
    rows.set("review_comments", (p.id,), text=p.text, updated_seq=ev.seq)


def _comment_removed(rows: Rows, ev: Event, p: r.ReviewCommentRemoved) -> None:
    rows.set("review_comments", (p.id,), state="removed", updated_seq=ev.seq)


def _comments_sent(rows: Rows, ev: Event, p: r.ReviewCommentsSent) -> None:
    for cid in p.comments:
        rows.set("review_comments", (cid,), state="sent", user_input=p.user_input,
                 updated_seq=ev.seq)


HANDLERS: dict[GateEvent, Handler] = {
    # `review_refused` and `review_checkouts_reclaimed` change no table: they are not here.
    GateEvent.REVIEW_REQUESTED: _review_requested,
    GateEvent.REVIEW_STARTED: _review_started,
    GateEvent.REVIEW_LAUNCH_FAILED: _review_launch_failed,
    GateEvent.REVIEWED: _reviewed,
    GateEvent.REVIEW_DISPOSITION: _review_disposition,
    GateEvent.REVIEW_OVERRIDDEN: _review_overridden,
    GateEvent.INTEGRATION_APPROVED: _integration_approved,
    GateEvent.APPROVAL_CONSUMED: _approval_consumed,
    GateEvent.APPROVAL_REVOKED: _approval_revoked,
    GateEvent.REVIEW_COMMENT_ADDED: _comment_added,
    GateEvent.REVIEW_COMMENT_EDITED: _comment_edited,
    GateEvent.REVIEW_COMMENT_REMOVED: _comment_removed,
    GateEvent.REVIEW_COMMENTS_SENT: _comments_sent,
}
