"""An attempt's verdicts as the gate reads them: the last one a verify completed.

A verify that was interrupted (a signal, a closed pipe, a crash) decided nothing, so it never
stands in for an earlier completed run: integrate reads `last_verdict`, and an interruption puts
the attempt back where that verdict left it (`state_after_interrupt`).
"""

from __future__ import annotations

COMPLETED = ("passed", "rejected", "flaky", "contract_invalid", "commit_missing")
# flaky, contract_invalid, commit_missing: the attempt goes back to `submitted`
ATTEMPT_STATE = {"passed": "verified", "rejected": "rejected"}


def last_verdict(db, attempt_id: str):
    """The attempt's latest completed verification (a row of `verifications`), or None."""
    return db.one(f"SELECT * FROM verifications WHERE attempt_id = ? AND state IN"
                  f" ({','.join('?' * len(COMPLETED))}) ORDER BY run DESC LIMIT 1",
                  (attempt_id, *COMPLETED))


def state_after_interrupt(db, attempt_id: str) -> str:
    """The attempt's state once a verify of its current submission was interrupted: what the last
    completed verdict of that submission made it, else `submitted`."""
    att = db.one("SELECT submission_n FROM attempts WHERE id = ?", (attempt_id,))
    last = last_verdict(db, attempt_id)
    if last is None or att is None or last["submission_n"] != att["submission_n"]:
        return "submitted"
    return ATTEMPT_STATE.get(last["state"], "submitted")
