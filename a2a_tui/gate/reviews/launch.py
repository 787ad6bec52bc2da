"""Launching a review, the gate's half: which round it is, a read-only checkout of exactly the
submitted SHA, and the reviewer's first prompt.

`a2a review start` (spawn.spawn_reviewer) runs: `plan` (rules, then `review_requested` and the
checkout), the launch of a reviewer session in the checkout, then `started` (`review_started`
and the first prompt queued to the session, in one transaction) or `failed`.

Rounds: the first review of an attempt is round 0; a review of a later submission, after a
verdict on an earlier one, is a follow-up (round 1, 2, ...), at most `review_follow_up_rounds`
of them. A SHA with a verdict gets no second review (a new round is for a new submission, never
for another try at a pass); a review whose session ended without a verdict may be relaunched.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from a2a_tui import quoting
from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate.attempts.locks import op_lock
from a2a_tui.gate.attempts.review_checkouts import make_checkout
from a2a_tui.gate.cards import gate_rules
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.ledger import GateEvent
from a2a_tui.gate.ledger.records import attempt_in
from a2a_tui.gate.model import VERIFIABLE, AttemptState, CommandResult, contract_lines
from a2a_tui.gate.roles import admit
from a2a_tui.payloads import reviews as pl
from a2a_tui.queue import enqueue_in_tx

REVIEWABLE = (*VERIFIABLE, AttemptState.VERIFYING)
MAX_FILES_LISTED = 40


class Launched(Protocol):
    """What the review needs of its reviewer's launch (a2a_tui/spawn.py `Launched`)."""

    session: str
    pane: str
    cli: str
    model: str
    effort: str


@dataclass(frozen=True)
class Planned:
    """A requested review: what it reviews and where."""

    run_id: str
    attempt: str
    card: str
    submission: int
    sha: str
    start_commit: str
    round: int
    limit: int                      # follow-up rounds allowed
    follows: int | None             # reviews.id of the verdict a follow-up re-checks
    checkout: Path


def reviews_dir(repo) -> Path:
    return repo.a2a_dir / "reviews"


def report_copy(repo, run_id: str) -> Path:
    """Where the gate keeps a copy of a verdict's report (beside the checkouts)."""
    return reviews_dir(repo) / f"{run_id}.md"


def launch_lock(g: GateContext, attempt_id: str):
    """Held from `plan` to `started`/`failed`: a requested review found while it is free was
    left by a launch that died."""
    return op_lock(g.repo.locks_dir, f"review-{attempt_id}",
                   what=f"a review launch of {attempt_id}")


def plan(g: GateContext, attempt_id: str) -> Planned:
    """Check the rules, record `review_requested` and make the read-only checkout. Called with
    `launch_lock` held."""
    admit(g, "review start", attempt_id)
    limit = gate_rules.current(g).rules.review_follow_up_rounds
    with g.store.write() as tx:
        att = attempt_in(tx, attempt_id)
        if att.state not in REVIEWABLE or not att.submission_n:
            raise A2AError("not_submitted", f"attempt {attempt_id} is {att.state}: a review"
                           " is of a submitted candidate")
        n, sha = att.submission_n, att.submitted_sha
        if tx.one("SELECT 1 FROM reviews WHERE attempt_id = ? AND sha = ?", (attempt_id, sha)):
            raise A2AError("already_reviewed", f"{sha[:12]} of {attempt_id} has its verdict: a"
                           " new review needs a new submission (dispose of its issues, or the"
                           " user overrides it)")
        runs = tx.all("SELECT r.id, r.state, s.state AS session_state FROM review_runs r"
                      " LEFT JOIN sessions s ON s.id = r.session"
                      " WHERE r.attempt_id = ? AND r.submission_n = ?", (attempt_id, n))
        for r in runs:
            if r["state"] == "requested":   # its launcher died (we hold the launch lock)
                ledger.record(tx, GateEvent.REVIEW_LAUNCH_FAILED, actor=g.caller.actor,
                              task=att.card_id, attempt=attempt_id,
                              payload=pl.ReviewLaunchFailed(
                                  review=r["id"], reason="its launch did not finish: the"
                                  " launching process ended first"))
        live = [r["id"] for r in runs
                if r["state"] == "running" and r["session_state"] != "exited"]
        if live:
            raise A2AError("review_running", f"review {live[0]} of {sha[:12]} is under way")
        earlier = tx.all("SELECT id, submission_n FROM reviews WHERE attempt_id = ?"
                         " AND submission_n < ? ORDER BY seq", (attempt_id, n))
        round_ = len({r["submission_n"] for r in earlier})
        if round_ > limit:
            raise A2AError("review_rounds_exhausted", f"{attempt_id} had its first review and"
                           f" {limit} follow-up rounds (review_follow_up_rounds in"
                           " .a2a/gate.toml): no more reviews; the executive controller or the"
                           " user decides")
        run_id = f"{attempt_id}-s{n}" + (f".{len(runs) + 1}" if runs else "")
        p = Planned(run_id=run_id, attempt=attempt_id, card=att.card_id, submission=n,
                    sha=sha, start_commit=att.start_commit, round=round_, limit=limit,
                    follows=earlier[-1]["id"] if earlier else None,
                    checkout=reviews_dir(g.repo) / f"{attempt_id}-s{n}")
        ledger.record(tx, GateEvent.REVIEW_REQUESTED, actor=g.caller.actor, task=p.card,
                      attempt=p.attempt, session=g.caller.session,
                      payload=pl.ReviewRequested(review=run_id, sha=sha, submission=n,
                                                 round=round_, follows=p.follows,
                                                 checkout=str(p.checkout)))
    try:
        make_checkout(g, p.checkout, sha)
    except (A2AError, OSError) as exc:
        failed(g, p, f"checkout: {exc}")
        raise
    return p


@dataclass(frozen=True)
class ReviewStarted(CommandResult):
    """A reviewer launched: its run, the candidate it reads, its session and first dispatch."""

    review: str
    attempt: str
    sha: str
    submission: int
    round: int
    checkout: str
    report: str
    session: str
    pane: str | None
    dispatch: int


def started(g: GateContext, p: Planned, launched: Launched, report: Path) -> ReviewStarted:
    """`review_started` with the session, and its first prompt queued, in one transaction."""
    sid = launched.session
    with g.store.write() as tx:
        text = first_prompt(tx, g, p, report)
        ledger.record(tx, GateEvent.REVIEW_STARTED, actor=g.caller.actor, task=p.card,
                      attempt=p.attempt, session=sid,
                      payload=pl.ReviewStarted(
                          review=p.run_id, sha=p.sha, submission=p.submission, round=p.round,
                          follows=p.follows, checkout=str(p.checkout), report=str(report),
                          cli=launched.cli, model=launched.model,
                          effort=launched.effort))
        dispatch = enqueue_in_tx(tx, sid, text, source="review", actor=g.caller.actor)
    return ReviewStarted(p.run_id, p.attempt, p.sha, p.submission, p.round, str(p.checkout),
                         str(report), sid, launched.pane, dispatch)


def failed(g: GateContext, p: Planned, reason: str) -> None:
    """The launch did not happen: the review can be started again."""
    with g.store.write() as tx:
        ledger.record(tx, GateEvent.REVIEW_LAUNCH_FAILED, actor=g.caller.actor, task=p.card,
                      attempt=p.attempt,
                      payload=pl.ReviewLaunchFailed(review=p.run_id, reason=reason))


# --- the checkout ----------------------------------------------------------------------------

# --- the first prompt ------------------------------------------------------------------------

def first_prompt(tx, g: GateContext, p: Planned, report: Path) -> str:
    """The card, the diff range and the evidence summary; for a follow-up, the earlier report
    and the instruction to re-read the files."""
    row = tx.one("SELECT body, version FROM cards WHERE id = ?", (p.card,))
    card, version = json.loads(row["body"]), row["version"]
    changed = g.git.changed_paths(p.start_commit, p.sha)
    listed = ", ".join(quoting.name(f) for f in changed[:MAX_FILES_LISTED]) + (
        f" and {len(changed) - MAX_FILES_LISTED} more" if len(changed) > MAX_FILES_LISTED else "")
    which = ("This is the first review of this attempt." if p.round == 0 else
             f"This is follow-up round {p.round} (at most {p.limit}).")
    lines = [
        f"Review {p.run_id}: attempt {p.attempt} of card {p.card}, submission {p.submission},"
        f" commit {p.sha}. {which}",
        f"Your folder {p.checkout} is a read-only checkout of exactly that commit: read the"
        " files there; change nothing.",
        "",
        f"The card ({p.card} v{version}): {quoting.name(card['title'])}",
        *contract_lines(card),
        "",
        f"The change: git diff {p.start_commit}..{p.sha} ({len(changed)} file"
        f"{'s' * (len(changed) != 1)}: {listed})",
        f"The evidence: {evidence_summary(tx, p.attempt, p.sha)}",
    ]
    if p.follows is not None:
        lines += ["", *_follow_up(tx, g, p)]
    lines += ["", f"Write your report in Markdown to {report}, ending with a ```verdict block"
              " (TOML: verdict, recommends_follow_up, risks, blocking_issues with id, title and"
              " evidence file:line; `a2a rules review verdict` says more), then run:",
              f"a2a review verdict {p.attempt} --sha {p.sha} --file {report}"]
    return "\n".join(lines)


def evidence_summary(tx, attempt: str, sha: str) -> str:
    """The last verify run of `sha`, check by check, in one line."""
    v = tx.one("SELECT run, state, card_version FROM verifications WHERE attempt_id = ? AND"
               " sha = ? ORDER BY run DESC LIMIT 1", (attempt, sha))
    if v is None:
        return "not verified yet (`a2a verify` has not run on this commit)"
    checks = tx.all("SELECT name, passed, blocking, detail FROM check_results"
                    " WHERE attempt_id = ? AND run = ? ORDER BY id", (attempt, v["run"]))
    parts = [f"{c['name']} {'ok' if c['passed'] else 'FAILED' if c['blocking'] else 'warn'}"
             + ("" if c["passed"] else f" ({c['detail'][:120]})") for c in checks]
    return (f"verify run {v['run']}: {v['state']} (card v{v['card_version']}): "
            + ", ".join(parts))


def _follow_up(tx, g: GateContext, p: Planned) -> list[str]:
    prev = tx.one("SELECT id, sha, verdict, run_id FROM reviews WHERE id = ?", (p.follows,))
    issues = tx.all("SELECT issue, title, evidence FROM review_issues WHERE review_id = ?",
                    (p.follows,))
    where = report_copy(g.repo, prev["run_id"]) if prev["run_id"] else None
    name = f" {prev['run_id']}" if prev["run_id"] else ""
    out = [f"The earlier review{name} of {prev['sha'][:12]} gave {prev['verdict']}"
           + (f"; its report is {where}." if where else ".")]
    if issues:
        out.append("Its blocking issues:")
        out += [f"- {_issue_line(i)}" for i in issues]
    out.append("Re-read the files at this commit and check each point against the code as it"
               " is now: do not trust the earlier report, and do not review the old commit.")
    return out


def _issue_line(issue) -> str:
    """One review issue as another agent reads it: each part the reviewer wrote quoted."""
    evidence = ", ".join(quoting.name(e) for e in json.loads(issue["evidence"]))
    return f"{quoting.name(issue['issue'])}: {quoting.name(issue['title'])} ({evidence})"
