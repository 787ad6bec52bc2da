"""The fold of cards and attempts: cards, card_versions, attempts, submissions, verifications,
check_results, test_reports, integrations and scores, one handler per event kind, each given
its kind's payload type (a2a_tui/payloads: attempts.py, verify.py, integrate.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from a2a_tui.gate.ledger.rows import Rows, state_after_interrupt
from a2a_tui.gate.ledger.tables import Row
from a2a_tui.gate.model import (
    ATTEMPT_AFTER,
    AttemptState,
    CardState,
    IntegrationState,
    Resolution,
    VerifyState,
    WorktreeState,
    contract_digest_of,
)
from a2a_tui.kinds import GateEvent
from a2a_tui.payloads import attempts as pa
from a2a_tui.payloads import integrate as pi
from a2a_tui.payloads import verify as pv
from a2a_tui.store import Event

# A handler: the rows, the event, and its payload as a2a_tui/payloads `payload_of` gives it.
Handler = Callable[[Rows, Event, Any], None]


def _card_body(rows: Rows, ev: Event, p: pa.CardAdded, *, state: str | None) -> None:
    body = p.card
    card = rows.get("cards", ev.task) or {"id": ev.task, "fence": 0, "state": CardState.DRAFT}
    card.update(version=p.version, digest=p.digest,
                contract_digest=contract_digest_of(body), title=body["title"], body=body,
                source_path=p.source, updated_seq=ev.seq)
    if state is not None:
        card["state"] = state
    rows.put("cards", card)


def _card_added(rows: Rows, ev: Event, p: pa.CardAdded) -> None:
    _card_body(rows, ev, p, state=CardState.DRAFT)
    rows.add("card_versions", {"card_id": ev.task, "version": p.version, "digest": p.digest,
                               "body": p.card, "seq": ev.seq})


def _card_revised(rows: Rows, ev: Event, p: pa.CardRevised) -> None:
    _card_body(rows, ev, p, state=None)


def _card_ready(rows: Rows, ev: Event, p: Any) -> None:
    rows.set("cards", (ev.task,), state=CardState.READY, updated_seq=ev.seq)


def _claimed(rows: Rows, ev: Event, p: pa.Claimed) -> None:
    rows.set("cards", (ev.task,), fence=p.fence, updated_seq=ev.seq)
    rows.add("attempts", {
        "id": ev.attempt, "card_id": ev.task, "n": int(ev.attempt.rsplit("-a", 1)[1]),
        "fence": p.fence, "state": AttemptState.CLAIMED, "branch": p.branch,
        "worktree": p.worktree, "worktree_state": WorktreeState.PENDING,
        "start_commit": p.start_commit,
        "target_branch": p.target_branch, "card_version": p.card_version,
        "writer": p.writer, "submission_n": 0, "submitted_sha": None, "rejections": 0,
        "follows": p.follows,   # the attempt before (since migration 14)
        "isolated_seq": None,
        "claimed_ns": ev.ts_ns, "ended_ns": None, "updated_seq": ev.seq})


def _attempt(**values: Any) -> Handler:
    """A handler that sets these attempt columns (and updated_seq)."""
    def handle(rows: Rows, ev: Event, p: Any) -> None:
        rows.set("attempts", (ev.attempt,), updated_seq=ev.seq, **values)
    return handle


def _ended(state: AttemptState) -> Handler:
    def handle(rows: Rows, ev: Event, p: Any) -> None:
        rows.set("attempts", (ev.attempt,), state=state, ended_ns=ev.ts_ns, updated_seq=ev.seq)
    return handle


def _writer_bound(rows: Rows, ev: Event, p: pa.WriterBound) -> None:
    rows.set("attempts", (ev.attempt,), writer=p.to, updated_seq=ev.seq)


def _worktree_failed(rows: Rows, ev: Event, p: pa.WorktreeFailed) -> None:
    """A claim's clone failed; a recovered one left its folder (`exists`; before clones: its
    branch or worktree registration) as unknown, for the user to look at."""
    left = p.exists or p.branch_exists or p.registered
    where = WorktreeState.UNKNOWN if not p.recovered or left else WorktreeState.REMOVED
    rows.set("attempts", (ev.attempt,), state=AttemptState.FAILED, worktree_state=where,
             ended_ns=ev.ts_ns, updated_seq=ev.seq)


def _submitted(rows: Rows, ev: Event, p: pa.Submitted) -> None:
    rows.add("submissions", {"attempt_id": ev.attempt, "n": p.n, "sha": p.sha,
                             "card_version": p.card_version, "fence": p.fence,
                             "actor": ev.actor, "seq": ev.seq})
    rows.set("attempts", (ev.attempt,), state=AttemptState.SUBMITTED, submission_n=p.n,
             submitted_sha=p.sha, card_version=p.card_version, updated_seq=ev.seq)


def _score(rows: Rows, ev: Event, p: pa.Abandoned | pi.Integrated | pi.AttemptResolved,
           outcome: AttemptState) -> None:
    if p.score is None:   # an attempt abandoned before it submitted anything
        return
    rows.add("scores", {"attempt_id": ev.attempt, "outcome": outcome, **p.score,
                        "rounds": p.rounds, "rejections": p.rejections,
                        "duration_s": p.duration_s, "actor": ev.actor, "seq": ev.seq})


def _abandoned(rows: Rows, ev: Event, p: pa.Abandoned) -> None:
    _ended(AttemptState.ABANDONED)(rows, ev, p)
    _score(rows, ev, p, AttemptState.ABANDONED)


def _verify_started(rows: Rows, ev: Event, p: pv.VerifyStarted) -> None:
    rows.add("verifications", {"attempt_id": ev.attempt, "run": p.run,
                               "submission_n": p.submission, "sha": p.sha,
                               "card_version": p.card_version, "state": VerifyState.RUNNING,
                               "started_seq": ev.seq, "ended_seq": None})
    rows.set("attempts", (ev.attempt,), state=AttemptState.VERIFYING, updated_seq=ev.seq)


def _check_result(rows: Rows, ev: Event, p: pv.CheckResult) -> None:
    run = rows.get("verifications", ev.attempt, p.run) or {}
    rows.add("check_results", {
        "id": None, "attempt_id": ev.attempt, "submission_n": run.get("submission_n"),
        "run": p.run, "sha": p.sha, "card_version": p.card_version, "name": p.name,
        "kind": p.kind, "blocking": int(p.blocking), "passed": int(p.passed),
        "exit_code": p.exit_code, "duration_s": p.duration_s, "detail": p.detail,
        "stdout_tail": "", "stderr_tail": "", "log_path": p.log, "seq": ev.seq})


def _test_report_row(seq: int, attempt: str | None, p: pv.TestsReported) -> Row:
    return {"seq": seq, "attempt_id": attempt, "run": p.run, "sha": p.sha,
            "check_name": p.check, "fingerprint": p.fingerprint, "source": p.source,
            "runner": p.runner,
            "counts": None if p.counts is None else json.dumps(p.counts, sort_keys=True)}


def _tests_reported(rows: Rows, ev: Event, p: pv.TestsReported) -> None:
    rows.add("test_reports", _test_report_row(ev.seq, ev.attempt, p))


def _verdict(verdict: VerifyState) -> Handler:
    """A completed verify's verdict (gate/verification/record.py): passed, rejected, or neither
    (flaky, contract_invalid: the attempt goes back to `submitted`, no strike)."""
    def handle(rows: Rows, ev: Event, p: pv.Verified) -> None:
        if ev.attempt is None or p.run is None:
            return  # a card's contract refused at `card ready`: no verify run, no attempt
        v = p.verdict or verdict
        rows.set("verifications", (ev.attempt, p.run), state=v, ended_seq=ev.seq)
        rows.set("attempts", (ev.attempt,), state=ATTEMPT_AFTER.get(v, AttemptState.SUBMITTED),
                 rejections=p.consecutive_rejections, updated_seq=ev.seq)
    return handle


def _verify_interrupted(rows: Rows, ev: Event, p: pv.VerifyInterrupted) -> None:
    """An interrupted run decided nothing: the attempt goes back to what the last completed
    verdict of its current submission made it, else `submitted`."""
    rows.set("verifications", (ev.attempt, p.run), state=VerifyState.INTERRUPTED,
             ended_seq=ev.seq)
    att = rows.get("attempts", ev.attempt)
    if att is not None and att["state"] == AttemptState.VERIFYING:
        rows.set("attempts", (ev.attempt,), state=state_after_interrupt(rows, ev.attempt),
                 updated_seq=ev.seq)


def _integration_intent(rows: Rows, ev: Event, p: pi.IntegrationIntent) -> None:
    rows.put("integrations", {"attempt_id": ev.attempt, "state": IntegrationState.INTENT,
                              "ref": p.ref, "old_sha": p.old, "new_sha": p.new,
                              "sync_worktree": p.sync_worktree, "intent_seq": ev.seq,
                              "outcome_seq": None})
    rows.set("attempts", (ev.attempt,), state=AttemptState.INTEGRATING, updated_seq=ev.seq)


def _integration(state: IntegrationState, attempt_state: AttemptState) -> Handler:
    def handle(rows: Rows, ev: Event, p: pi.IntegrationNotApplied) -> None:
        rows.set("integrations", (ev.attempt,), state=state, outcome_seq=ev.seq)
        if isinstance(p, pi.Integrated):
            _ended(AttemptState.INTEGRATED)(rows, ev, p)
            _score(rows, ev, p, AttemptState.INTEGRATED)
        else:
            rows.set("attempts", (ev.attempt,), state=attempt_state, updated_seq=ev.seq)
    return handle


def _resolved(rows: Rows, ev: Event, p: pi.AttemptResolved) -> None:
    """The user's resolution of an `unknown` attempt (gate/integration/resolution.py)."""
    as_ = p.as_
    if as_ == Resolution.INTEGRATED:
        rows.set("integrations", (ev.attempt,), state=IntegrationState.INTEGRATED,
                 outcome_seq=ev.seq)
        _ended(AttemptState.INTEGRATED)(rows, ev, p)
        _score(rows, ev, p, AttemptState.INTEGRATED)
    elif as_ == Resolution.NOT_APPLIED:
        rows.set("integrations", (ev.attempt,), state=IntegrationState.NOT_APPLIED,
                 outcome_seq=ev.seq)
        rows.set("attempts", (ev.attempt,), state=AttemptState.VERIFIED, updated_seq=ev.seq)
    else:   # abandoned says nothing about the move itself: the integration stays unknown
        _ended(AttemptState.ABANDONED)(rows, ev, p)


def _lease_expired(rows: Rows, ev: Event, p: Any) -> None:
    rows.set("attempts", (ev.attempt,), isolated_seq=ev.seq, updated_seq=ev.seq)


HANDLERS: dict[GateEvent, Handler] = {
    GateEvent.CARD_ADDED: _card_added,
    GateEvent.CARD_VERSIONED: _card_added,      # a new version: as a new card, keeping the fence
    GateEvent.CARD_REVISED: _card_revised,
    GateEvent.CARD_READY: _card_ready,
    GateEvent.CLAIMED: _claimed,
    GateEvent.ATTEMPT_SUPERSEDED: _ended(AttemptState.SUPERSEDED),
    GateEvent.WORKTREE_CREATED: _attempt(worktree_state=WorktreeState.PRESENT),
    GateEvent.WORKTREE_FAILED: _worktree_failed,
    GateEvent.WRITER_BOUND: _writer_bound,
    GateEvent.SUBMITTED: _submitted,
    GateEvent.ABANDONED: _abandoned,
    GateEvent.VERIFY_STARTED: _verify_started,
    GateEvent.CHECK_RESULT: _check_result,
    GateEvent.TESTS_REPORTED: _tests_reported,
    GateEvent.VERIFIED: _verdict(VerifyState.PASSED),
    GateEvent.REJECTED: _verdict(VerifyState.REJECTED),
    GateEvent.VERIFY_FLAKY: _verdict(VerifyState.FLAKY),
    GateEvent.CONTRACT_INVALID: _verdict(VerifyState.CONTRACT_INVALID),
    GateEvent.VERIFY_COMMIT_MISSING: _verdict(VerifyState.COMMIT_MISSING),
    GateEvent.VERIFY_INTERRUPTED: _verify_interrupted,
    GateEvent.INTEGRATION_INTENT: _integration_intent,
    GateEvent.INTEGRATED: _integration(IntegrationState.INTEGRATED, AttemptState.INTEGRATED),
    GateEvent.INTEGRATION_NOT_APPLIED: _integration(IntegrationState.NOT_APPLIED,
                                                    AttemptState.VERIFIED),
    GateEvent.INTEGRATION_UNKNOWN: _integration(IntegrationState.UNKNOWN, AttemptState.UNKNOWN),
    GateEvent.WORKTREE_REMOVED: _attempt(worktree_state=WorktreeState.REMOVED),
    GateEvent.WORKTREE_KEPT: _attempt(worktree_state=WorktreeState.KEPT_DIRTY),
    GateEvent.WORKTREE_UNKNOWN: _attempt(worktree_state=WorktreeState.UNKNOWN),
    GateEvent.ATTEMPT_RESOLVED: _resolved,
    # leases (gate/attempts/leases.py): an expiry isolates the attempt, a renewal takes it back
    GateEvent.LEASE_EXPIRED: _lease_expired,
    GateEvent.LEASE_RENEWED: _attempt(isolated_seq=None),
}
