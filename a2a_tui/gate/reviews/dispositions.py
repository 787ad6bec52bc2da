"""What a review decides, and what is decided about it.

- For each blocking issue of a verdict, the executive controller or the user records a
  disposition: accept (the worker fixes it in a new submission: the issue goes to the writer's
  pane), reject or defer (with a reason). The latest disposition of an issue counts; a
  controller cannot replace the user's.
- The user may override the review of a SHA, with a reason (a user input).
- At integration (`check_integrable`, inside the intent's transaction): every blocking issue of
  the current SHA is disposed and none accepted; a card with `review = "required"` has a
  verdict on it (a pass, or a fail whose issues were all rejected or deferred); unless the user
  overrode the review. Then the user's approval, when the card asks for it (approvals.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from a2a_tui import quoting
from a2a_tui.collab.user_input import record_user_input_in_tx
from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.ledger import GateEvent
from a2a_tui.gate.ledger.records import AttemptRecord, attempt_in
from a2a_tui.gate.model import CommandResult
from a2a_tui.gate.reviews import approvals
from a2a_tui.gate.roles import admit
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads import reviews as pl
from a2a_tui.queue import enqueue_in_tx

DECISIONS = ("accept", "reject", "defer")


@dataclass(frozen=True)
class Sent:
    """An accepted issue, sent to the writer's pane as a dispatch, or why it was not."""

    dispatch: int | None = None
    why: str | None = None

    @property
    def sent(self) -> bool:
        return self.dispatch is not None

    def to_json(self) -> JsonObject:
        return {"sent": True, "dispatch": self.dispatch} if self.sent else \
            {"sent": False, "why": self.why}


@dataclass(frozen=True)
class Disposed(CommandResult):
    attempt: str
    sha: str
    issue: str
    decision: str                  # accept | reject | defer
    reason: str
    user_input: str | None         # the user's disposition; None: the executive controller's
    feedback: Sent | None          # an accepted issue sent to the writer (or why not)


@dataclass(frozen=True)
class Overridden(CommandResult):
    attempt: str
    sha: str
    reason: str
    user_input: str


def dispose(g: GateContext, attempt_id: str, issue: str, decision: str, reason: str = "",
            *, source: str = "cli") -> Disposed:
    """Record the executive controller's or the user's disposition of one blocking issue of the
    current SHA's review."""
    admit(g, "review dispose", attempt_id)
    if decision not in DECISIONS:
        raise A2AError("bad_decision", f"a disposition is one of {', '.join(DECISIONS)}",
                       exit_code=2)
    reason = (reason or "").strip()
    if decision != "accept" and not reason:
        raise A2AError("reason_required", f"--{decision} needs a --reason: why it does not block",
                       exit_code=2)
    with g.store.write() as tx:
        att = attempt_in(tx, attempt_id)
        sha = att.submitted_sha or ""
        row = tx.one("SELECT * FROM review_issues WHERE attempt_id = ? AND sha = ? AND issue = ?"
                     " ORDER BY review_id DESC LIMIT 1", (attempt_id, sha, issue))
        if row is None:
            known = [r["issue"] for r in tx.all("SELECT issue FROM review_issues WHERE"
                                                " attempt_id = ? AND sha = ?", (attempt_id, sha))]
            raise A2AError("unknown_issue", f"no blocking issue {issue!r} in the review of"
                           f" {sha[:12] or attempt_id}"
                           + (f" (its issues: {', '.join(known)})" if known else
                              " (it has no blocking issues)"))
        last = latest_disposition(tx, row["review_id"], issue)
        if last is not None and last["user_input"] and not g.caller.is_user:
            raise A2AError("disposed_by_user", f"the user disposed of {issue} ({last['decision']},"
                           f" {last['user_input']}); only the user changes it")
        uid = None
        if g.caller.is_user:
            uid = record_user_input_in_tx(
                tx, "action", f"{decision} review issue {issue} of {attempt_id} at {sha}"
                + (f": {reason}" if reason else ""), source=source, attempt=attempt_id)
        ledger.record(tx, GateEvent.REVIEW_DISPOSITION, actor=g.caller.actor, task=att.card_id,
                      attempt=attempt_id, session=g.caller.session,
                      payload=pl.ReviewDisposition(review=row["review_id"], issue=issue,
                                                   sha=sha, decision=decision, reason=reason,
                                                   user_input=uid))
        sent = _send_accepted(tx, att, row, reason, g.caller.describe()) \
            if decision == "accept" else None
    return Disposed(attempt_id, sha, issue, decision, reason, uid, sent)


def legacy_block(db, attempt_id: str, sha: str):
    """A `block` given before verdicts had reports (it has no issues to dispose of)."""
    return db.one("SELECT * FROM reviews WHERE attempt_id=? AND sha=? AND verdict='block'"
                  " ORDER BY seq DESC LIMIT 1", (attempt_id, sha))


def latest_disposition(db, review_id: int, issue: str):
    return db.one("SELECT * FROM review_dispositions WHERE review_id = ? AND issue = ?"
                  " ORDER BY seq DESC LIMIT 1", (review_id, issue))


def _send_accepted(tx, att: AttemptRecord, issue, reason: str, who: str) -> Sent:
    """An accepted issue goes to the writer's pane as the gate's feedback."""
    writer = att.writer
    if not writer.startswith("session:"):
        return Sent(why="the writer is not a managed session")
    text = "\n".join([
        f"Review issue {quoting.name(issue['issue'])} of {att.id} at"
        f" {att.submitted_sha[:12]} was accepted by {who}: {quoting.name(issue['title'])}",
        f"Evidence: {', '.join(quoting.name(e) for e in json.loads(issue['evidence']))}",
        *([f"Reason: {quoting.body(reason)}"] if reason else []),
        f"Fix it, commit, and submit again: a2a submit {att.id} --sha <full sha>"
        f" --card-version <n> --fence {att.fence}"])
    n = enqueue_in_tx(tx, writer.split(":", 1)[1], text, source="gate", actor="gate",
                      attempt=att.id)
    return Sent(dispatch=n)


def override(g: GateContext, attempt_id: str, reason: str, *, source: str = "cli"
             ) -> Overridden:
    """The user sets the review of the current SHA aside, with a reason."""
    admit(g, "review override", attempt_id)
    reason = (reason or "").strip()
    if not reason:
        raise A2AError("reason_required", "an override needs a --reason", exit_code=2)
    with g.store.write() as tx:
        att = attempt_in(tx, attempt_id)
        sha = att.submitted_sha
        if not sha:
            raise A2AError("not_submitted", f"attempt {attempt_id} has no candidate to override"
                           " a review of")
        uid = record_user_input_in_tx(tx, "action", f"override the review of {attempt_id} at"
                                      f" {sha}: {reason}", source=source, attempt=attempt_id)
        ledger.record(tx, GateEvent.REVIEW_OVERRIDDEN, actor="user", task=att.card_id,
                      attempt=attempt_id,
                      payload=pl.ReviewOverridden(sha=sha, submission=att.submission_n,
                                                  reason=reason, user_input=uid))
    return Overridden(attempt_id, sha, reason, uid)


def check_integrable(g: GateContext, att: AttemptRecord, tx) -> str | None:
    """Raise unless the review and approval rules let the attempt's candidate integrate; called
    inside the integration intent's transaction, where it uses the user's approval (if the card
    asks for one). Returns the approval used, if any."""
    fresh = attempt_in(tx, att.id)
    if fresh.submitted_sha != att.submitted_sha:
        raise A2AError("attempt_changed", f"{att.id} was submitted again meanwhile:"
                       " verify the new candidate")
    body = json.loads(tx.one("SELECT body FROM cards WHERE id = ?", (att.card_id,))["body"])
    problem = review_problem(tx, fresh, body)
    if problem is not None:
        raise problem
    return approvals.consume(tx, fresh, body, actor=g.caller.actor)


def review_problem(db, att: AttemptRecord, body: dict[str, Any]) -> A2AError | None:
    """Why the review of the attempt's current SHA stops its integration (None: it does not)."""
    aid, sha = att.id, att.submitted_sha or ""
    if db.one("SELECT 1 FROM review_overrides WHERE attempt_id = ? AND sha = ?", (aid, sha)):
        return None
    old = legacy_block(db, aid, sha)
    if old is not None:
        return A2AError("review_blocked", f"reviewer session {old['session']} blocked"
                        f" {sha[:12]}: {old['notes'][:200]} (the user may override it)")
    issues = db.all(
        "SELECT i.issue, (SELECT d.decision FROM review_dispositions d WHERE d.review_id ="
        " i.review_id AND d.issue = i.issue ORDER BY d.seq DESC LIMIT 1) AS decision"
        " FROM review_issues i WHERE i.attempt_id = ? AND i.sha = ? ORDER BY i.review_id, i.seq,"
        " i.rowid", (aid, sha))
    accepted = [i["issue"] for i in issues if i["decision"] == "accept"]
    if accepted:
        return A2AError("review_issue_accepted", f"blocking issue {', '.join(accepted)} of the"
                        f" review of {sha[:12]} was accepted: the worker fixes it in a new"
                        " submission")
    undisposed = [i["issue"] for i in issues if i["decision"] is None]
    if undisposed:
        return A2AError("review_undisposed", f"the review of {sha[:12]} names blocking issues"
                        f" not disposed of: {', '.join(undisposed)} (`a2a review dispose {aid}"
                        " ISSUE --accept|--reject|--defer --reason ...`; or the user overrides)")
    if body.get("review") == "required" and not db.one(
            "SELECT 1 FROM reviews WHERE attempt_id = ? AND sha = ?", (aid, sha)):
        return A2AError("review_required", f"card {att.card_id} requires a review of"
                        f" {sha[:12]}: `a2a review start {aid}` (or the user overrides)")
    return None
