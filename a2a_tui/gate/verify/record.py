"""Recording a verify: each result as it comes, then the verdict and what follows from it, or the
interruption (which decides nothing)."""

from __future__ import annotations

from typing import Any

from a2a_tui.gate import escalate
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.feedback import limit, queue_rejection_feedback
from a2a_tui.gate.gate_rules import GateRules
from a2a_tui.gate.verdicts import ATTEMPT_STATE, state_after_interrupt
from a2a_tui.gate.verify.interrupt import VerifyInterrupted
from a2a_tui.gate.verify.results import CheckResult, Verification

VERDICT_EVENT = {"passed": "verified", "rejected": "rejected", "flaky": "verify_flaky",
                 "contract_invalid": "contract_invalid",
                 "commit_missing": "verify_commit_missing"}


def result(g: GateContext, att, v: Verification, r: CheckResult) -> None:
    with g.store.write() as tx:
        seq = tx.append("check_result", actor="gate", task=att["card_id"], attempt=v.attempt,
                        payload={"run": v.run, "sha": v.sha, "card_version": v.card_version,
                                 "rules_digest": v.rules_digest,
                                 **{k: val for k, val in r.to_json().items()
                                    if k not in ("stdout_tail", "stderr_tail")}})
        tx.execute(
            "INSERT INTO check_results(attempt_id, submission_n, run, sha, card_version, name,"
            " kind, blocking, passed, exit_code, duration_s, detail, stdout_tail, stderr_tail,"
            " log_path, seq) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (v.attempt, v.submission, v.run, v.sha, v.card_version, r.name, r.kind,
             int(r.blocking), int(r.passed), r.exit_code, r.duration_s, r.detail,
             r.stdout_tail, r.stderr_tail, r.log_path, seq))


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


def conclude(g: GateContext, att, v: Verification, rules: GateRules) -> bool:
    """Record the verdict and its consequences; True when something was queued for a pane."""
    if v.verdict == "passed":
        v.flaky_across_runs = failed_before(g, v)
    verdict = v.verdict
    queued = False
    with g.store.write() as tx:
        cur = tx.one("SELECT rejections FROM attempts WHERE id=?", (v.attempt,))["rejections"]
        # Only a rejection is the worker's strike; flaky, contract_invalid and commit_missing
        # leave the count.
        rejections = {"passed": 0, "rejected": cur + 1}.get(verdict, cur)
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
        seq = tx.append(VERDICT_EVENT[verdict], actor="gate", task=att["card_id"],
                        attempt=v.attempt, payload={**_payload(v, rejections), **extra})
        tx.execute("UPDATE verifications SET state=?, ended_seq=? WHERE attempt_id=? AND run=?",
                   (verdict, seq, v.attempt, v.run))
        tx.execute("UPDATE attempts SET state=?, rejections=?, updated_seq=? WHERE id=?",
                   (ATTEMPT_STATE.get(verdict, "submitted"), rejections, seq, v.attempt))
        if verdict == "rejected":
            most = limit(tx, att, rules.feedback_rounds)
            queued |= bool(queue_rejection_feedback(tx, att, v, rejections, most)["sent"])
            queued |= escalate.test_suspects(tx, att, v)
            if rejections == most:
                queued |= escalate.feedback_stopped(tx, att, v, rejections, most)
    return queued


def _payload(v: Verification, rejections: int) -> dict[str, Any]:
    first = v.first_failure()
    return {"run": v.run, "sha": v.sha, "card_version": v.card_version,
            "submission": v.submission, "rules_digest": v.rules_digest, "verdict": v.verdict,
            "passed": v.passed, "consecutive_rejections": rejections,
            "first_failure": first.name if first else None,
            "first_failure_step": first.step if first else None,
            "first_failure_code": first.code if first else None,
            "first_error": (first.first_error or first.detail)[:300] if first else None,
            "log": first.log_path if first else None, "changed_lines": v.changed_lines,
            "tests": v.tests(),
            "checks": [{"name": r.name, "passed": r.passed, "blocking": r.blocking,
                        "code": r.code, "skipped": r.skipped} for r in v.results]}


def interrupted(g: GateContext, att, v: Verification, exc: BaseException) -> None:
    """Record that the run stopped undecided; the attempt goes back to what its last completed
    verdict made it (a verified candidate stays verified)."""
    why = exc.why if isinstance(exc, VerifyInterrupted) else type(exc).__name__
    with g.store.write() as tx:
        s = tx.append("verify_interrupted", actor="gate", task=att["card_id"],
                      attempt=v.attempt, payload={"run": v.run, "sha": v.sha, "why": why})
        tx.execute("UPDATE verifications SET state='interrupted', ended_seq=?"
                   " WHERE attempt_id=? AND run=?", (s, v.attempt, v.run))
        row = tx.one("SELECT state FROM attempts WHERE id=?", (v.attempt,))
        if row["state"] == "verifying":
            tx.execute("UPDATE attempts SET state=?, updated_seq=? WHERE id=?",
                       (state_after_interrupt(tx, v.attempt), s, v.attempt))
