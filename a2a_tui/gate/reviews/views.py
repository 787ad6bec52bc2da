"""What readers see of an attempt's reviews: the launched reviews and their verdicts, the
current SHA's blocking issues with their dispositions, an override, the user's approvals, and
what (if anything) stops integration now. `a2a review show` and the workbench's review screen
read this; it takes a Store or an open transaction."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass

from a2a_tui.errors import A2AError
from a2a_tui.gate.ledger.records import AttemptRecord, read_attempt
from a2a_tui.gate.reviews import approvals
from a2a_tui.gate.reviews.dispositions import review_problem
from a2a_tui.jsontypes import JsonObject


@dataclass(frozen=True)
class RunView:
    """A review of one submission: launched (or not), and its verdict when given."""

    id: str
    submission: int
    sha: str
    round: int
    state: str                     # requested | running | ended | failed | reported
    session: str | None
    verdict: str | None            # pass | pass_with_risks | fail (block: before reports)
    risks: tuple[str, ...]
    follow_up: bool                # the reviewer recommends a follow-up review
    report: str | None


@dataclass(frozen=True)
class IssueView:
    """A blocking issue of the current SHA's review, with its latest disposition."""

    id: str
    title: str
    evidence: tuple[str, ...]
    decision: str | None           # accept | reject | defer; None: not disposed of yet
    reason: str
    by: str | None


@dataclass(frozen=True)
class ApprovalView:
    id: str
    sha: str
    card_version: int
    state: str                     # fits | stale | expired | revoked | used | replaced
    why: str | None                # for a stale, expired or revoked one
    user_input: str
    expires_ns: int | None = None  # None: an approval from before expiries
    revoked: int | None = None     # the approval_revoked event


@dataclass(frozen=True)
class ReviewState:
    attempt: str
    card: str
    attempt_state: str
    sha: str | None
    submission: int
    review_required: bool
    approval_required: bool
    runs: tuple[RunView, ...]
    issues: tuple[IssueView, ...]
    override: str | None           # the user's reason, when the current SHA's review is set aside
    approvals: tuple[ApprovalView, ...]
    blocked: tuple[str, str] | None   # (code, message): what stops integration now, if anything

    def to_json(self) -> JsonObject:
        return asdict(self)


def review_state(db, attempt_id: str) -> ReviewState:
    """The review state of one attempt."""
    att = read_attempt(db, attempt_id)
    if att is None:
        raise A2AError("unknown_attempt", f"no attempt {attempt_id!r} (see `a2a status`)")
    body = json.loads(db.one("SELECT body FROM cards WHERE id = ?", (att.card_id,))["body"])
    sha = att.submitted_sha
    override = db.one("SELECT reason FROM review_overrides WHERE attempt_id = ? AND sha = ?"
                      " ORDER BY seq DESC LIMIT 1", (attempt_id, sha or ""))
    views = tuple(_approvals(db, att))
    return ReviewState(
        attempt=attempt_id, card=att.card_id, attempt_state=att.state, sha=sha,
        submission=att.submission_n, review_required=body.get("review") == "required",
        approval_required=body.get("integrate_approval") == "user", runs=tuple(_runs(db, att)),
        issues=tuple(_issues(db, attempt_id, sha or "")),
        override=override["reason"] if override else None, approvals=views,
        blocked=_blocked(db, att, body, views) if sha else None)


def _runs(db, att: AttemptRecord) -> list[RunView]:
    runs = db.all("SELECT r.*, s.state AS session_state FROM review_runs r LEFT JOIN sessions s"
                  " ON s.id = r.session WHERE r.attempt_id = ? ORDER BY r.requested_seq",
                  (att.id,))
    verdicts = {v["run_id"] or f"#{v['id']}": v for v in db.all(
        "SELECT * FROM reviews WHERE attempt_id = ? ORDER BY seq", (att.id,))}
    out = []
    for r in runs:
        v = verdicts.pop(r["id"], None)
        state = ("reported" if v is not None else
                 "ended" if r["state"] == "running" and r["session_state"] == "exited" else
                 r["state"])
        out.append(_run(r["id"], r["submission_n"], r["sha"], r["round"], state, r["session"],
                        v, r["report"]))
    # Verdicts given before reviews were launched by `a2a review start`.
    out += [_run(key, v["submission_n"], v["sha"], 0, "reported", v["session"], v, None)
            for key, v in verdicts.items()]
    return out


def _run(rid, submission, sha, round_, state, session, v, report) -> RunView:
    return RunView(id=rid, submission=submission, sha=sha, round=round_, state=state,
                   session=session, verdict=v["verdict"] if v else None,
                   risks=tuple(json.loads(v["risks"])) if v else (),
                   follow_up=bool(v["follow_up"]) if v else False, report=report)


def _issues(db, attempt_id: str, sha: str) -> list[IssueView]:
    rows = db.all(
        "SELECT i.issue, i.title, i.evidence, d.decision, d.reason, d.actor FROM review_issues i"
        " LEFT JOIN review_dispositions d ON d.seq = (SELECT MAX(seq) FROM review_dispositions x"
        "   WHERE x.review_id = i.review_id AND x.issue = i.issue)"
        " WHERE i.attempt_id = ? AND i.sha = ? ORDER BY i.review_id, i.rowid", (attempt_id, sha))
    return [IssueView(id=r["issue"], title=r["title"], evidence=tuple(json.loads(r["evidence"])),
                      decision=r["decision"], reason=r["reason"] or "", by=r["actor"])
            for r in rows]


def _approvals(db, att: AttemptRecord) -> list[ApprovalView]:
    out = []
    rows = db.all("SELECT a.*, u.seq AS used, r.seq AS revoked, r.reason AS revoke_reason"
                  " FROM approvals a LEFT JOIN approval_uses u ON u.approval_id = a.id"
                  " LEFT JOIN approval_revocations r ON r.approval_id = a.id"
                  " WHERE a.attempt_id = ? ORDER BY a.seq", (att.id,))
    now = time.time_ns()
    for k, a in enumerate(rows):
        last = k == len(rows) - 1     # a new approval replaces those before it
        state, why = ("used", None) if a["used"] else ("replaced", None) if not last else \
            _fit(db, att, a, now)
        out.append(ApprovalView(id=a["id"], sha=a["sha"], card_version=a["card_version"],
                                state=state, why=why, user_input=a["user_input"],
                                expires_ns=a["expires_ns"], revoked=a["revoked"]))
    return out


def _fit(db, att: AttemptRecord, a, now_ns: int) -> tuple[str, str | None]:
    """The state of the attempt's latest unused approval, and why it cannot be used."""
    lapsed = approvals.lapse(a, now_ns)
    if lapsed is not None:
        return lapsed.code.removeprefix("approval_"), lapsed.message
    why = approvals.problem(db, att, a)
    return ("stale", why) if why else ("fits", None)


def _blocked(db, att: AttemptRecord, body, views: tuple[ApprovalView, ...]
             ) -> tuple[str, str] | None:
    problem = review_problem(db, att, body)
    if problem is not None:
        return problem.code, problem.message
    if body.get("integrate_approval") == "user" and not any(a.state == "fits" for a in views):
        return ("approval_required", "the card needs the user's approval of this candidate"
                f" (`a2a approve {att.id}`)")
    return None
