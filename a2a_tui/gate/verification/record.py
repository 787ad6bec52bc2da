"""Recording a verify: each result as it comes, then the verdict and what follows from it, or the
interruption (which decides nothing)."""

from __future__ import annotations

from typing import Any

from a2a_tui.gate import escalate, ledger
from a2a_tui.gate.cards.gate_rules import GateRules
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.ledger import GateEvent
from a2a_tui.gate.ledger.records import AttemptRecord, attempt_in
from a2a_tui.gate.model import VerifyState
from a2a_tui.gate.verification.feedback import limit, queue_rejection_feedback
from a2a_tui.gate.verification.interrupt import VerifyInterrupted
from a2a_tui.gate.verification.results import CheckResult, Verification
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads import verify as pv

VERDICT_EVENT = {VerifyState.PASSED: GateEvent.VERIFIED, VerifyState.REJECTED: GateEvent.REJECTED,
                 VerifyState.FLAKY: GateEvent.VERIFY_FLAKY,
                 VerifyState.CONTRACT_INVALID: GateEvent.CONTRACT_INVALID,
                 VerifyState.COMMIT_MISSING: GateEvent.VERIFY_COMMIT_MISSING}


def result(g: GateContext, att: AttemptRecord, v: Verification, r: CheckResult) -> None:
    with g.store.write() as tx:
        # The output tails and the unrounded duration are the row's alone: the log keeps them
        # out (the check's log file has the output).
        ledger.record(tx, GateEvent.CHECK_RESULT,
                      actor="gate", task=att.card_id, attempt=v.attempt,
                      payload=pv.CheckResult.of(
                          {"run": v.run, "sha": v.sha, "card_version": v.card_version,
                           "rules_digest": v.rules_digest,
                           **{k: val for k, val in r.to_json().items()
                              if k not in ("stdout_tail", "stderr_tail")}}),
                      kept={"duration_s": r.duration_s, "stdout_tail": r.stdout_tail,
                            "stderr_tail": r.stderr_tail})


def failed_before(g: GateContext, v: Verification) -> list[str]:
    """Checks that pass in this run but failed in an earlier one of the same SHA, card version and
    rules: the candidate's result for them is mixed, i.e. unknown."""
    passed = {r.name for r in v.results if r.kind in ("command", "red") and r.passed}
    if not passed:
        return []
    rows = g.store.all(
        "SELECT DISTINCT json_extract(payload, '$.name') FROM events WHERE attempt = ? AND"
        " kind = 'check_result' AND json_extract(payload, '$.run') < ? AND"
        " json_extract(payload, '$.sha') = ? AND json_extract(payload, '$.card_version') = ?"
        " AND json_extract(payload, '$.rules_digest') = ? AND json_extract(payload, '$.passed')"
        " = 0 AND json_extract(payload, '$.skipped') = 0 AND json_extract(payload, '$.kind')"
        " IN ('command', 'red')", (v.attempt, v.run, v.sha, v.card_version, v.rules_digest))
    return sorted(r[0] for r in rows if r[0] in passed)


def conclude(g: GateContext, att: AttemptRecord, v: Verification, rules: GateRules) -> bool:
    """Record the verdict and its consequences; True when something was queued for a pane."""
    if v.verdict == VerifyState.PASSED:
        v.flaky_across_runs = failed_before(g, v)
    verdict = v.verdict
    queued = False
    with g.store.write() as tx:
        cur = attempt_in(tx, v.attempt).rejections
        # Only a rejection is the worker's strike; flaky, contract_invalid and commit_missing
        # leave the count.
        rejections = {VerifyState.PASSED: 0, VerifyState.REJECTED: cur + 1}.get(verdict, cur)
        extra: dict[str, Any] = {}
        if verdict == "contract_invalid":
            item, queued = escalate.contract_invalid(tx, att, v)
            extra = {"where": "verify", "problems": v.contract_problems, "item": item}
        elif verdict == "flaky":
            item, queued = escalate.flaky(tx, att, v)
            extra = {"flaky": v.flaky_checks(), "item": item}
        elif verdict == "commit_missing":
            item, queued = escalate.commit_missing(tx, att, v)
            extra = {"item": item}
        ledger.record(tx, VERDICT_EVENT[verdict], actor="gate", task=att.card_id,
                      attempt=v.attempt,
                      payload=pv.VERDICTS[VERDICT_EVENT[verdict]].of(
                          {**_verdict_json(v, rejections), **extra}))
        if verdict == VerifyState.REJECTED:
            most = limit(tx, att, rules.feedback_rounds)
            queued |= bool(queue_rejection_feedback(tx, att, v, rejections, most).sent)
            queued |= escalate.test_suspects(tx, att, v)
            if rejections == most:
                queued |= escalate.feedback_stopped(tx, att, v, rejections, most)
    return queued


def _verdict_json(v: Verification, rejections: int) -> JsonObject:
    """The verdict as its event holds it in the log (`verified`, `rejected`, ...)."""
    first = v.first_failure()
    return {"run": v.run, "sha": v.sha, "card_version": v.card_version,
            "submission": v.submission, "rules_digest": v.rules_digest, "verdict": v.verdict,
            "passed": v.passed, "consecutive_rejections": rejections,
            "first_failure": first.name if first else None,
            "first_failure_step": first.step if first else None,
            "first_failure_code": first.code if first else None,
            "first_error": (first.first_error or first.detail)[:300] if first else None,
            "log": first.log_path if first else None, "changed_lines": v.changed_lines,
            "tests": v.tests(), "confinement": v.confinement,
            "checks": [{"name": r.name, "passed": r.passed, "blocking": r.blocking,
                        "code": r.code, "skipped": r.skipped} for r in v.results],
            "thresholds": [{**r.threshold, "passed": r.passed, "blocking": r.blocking,
                            "code": r.code} for r in v.results if r.threshold is not None]}


def interrupted(g: GateContext, att: AttemptRecord, v: Verification, exc: BaseException) -> None:
    """Record that the run stopped undecided; the attempt goes back to what its last completed
    verdict made it (a verified candidate stays verified)."""
    why = exc.why if isinstance(exc, VerifyInterrupted) else type(exc).__name__
    with g.store.write() as tx:
        ledger.record(tx, GateEvent.VERIFY_INTERRUPTED, actor="gate", task=att.card_id,
                      attempt=v.attempt,
                      payload=pv.VerifyInterrupted(run=v.run, sha=v.sha, why=why))
