"""The user's approval to integrate, for a card with `integrate_approval = "user"`.

An approval is the user's own act (`a2a approve`, or the workbench's key): a user input record
of kind approval and an `integration_approved` event, bound to the attempt's SHA, the card's
version and the digest of the evidence (the verify runs and the review records of that SHA).
Integration uses it once, in the same transaction as its intent (`approval_consumed`, and a
row whose primary key refuses a second use); a changed SHA, card version, evidence or target
makes it stale.

An approval is valid for a while (seed 001, "人工批准约束外部写入": target, parameters, task
version and a period): it names the branch it lets the candidate into and when it expires,
`approval_valid_s` of the gate rules in force (the user's: gate.toml as accepted) unless the
user gives `--valid-for`. The user may revoke it (`a2a approve --revoke`: `approval_revoked`).
At use, in the intent's transaction, an expired one (by a2a's clock) or a revoked one is
refused, and the user approves again.

Nothing else approves: text that says "approved" in an inbox entry, a board item or a commit
message, or a user message that is not bound to a SHA, authorizes nothing.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any

from a2a_tui.collab.user_input import record_user_input_in_tx
from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.ledger import GateEvent
from a2a_tui.gate.ledger.records import AttemptRecord, attempt_in
from a2a_tui.gate.model import AttemptState, CommandResult
from a2a_tui.gate.roles import admit
from a2a_tui.payloads import reviews as pl

# The evidence of a SHA: what each query returns, in a stable order.
EVIDENCE = {
    "verify_runs": "SELECT run, submission_n, card_version, state FROM verifications"
                   " WHERE attempt_id = ? AND sha = ? ORDER BY run",
    "checks": "SELECT run, name, kind, blocking, passed, exit_code FROM check_results"
              " WHERE attempt_id = ? AND sha = ? ORDER BY id",
    "reviews": "SELECT id, session, verdict, report_digest FROM reviews"
               " WHERE attempt_id = ? AND sha = ? ORDER BY id",
    "issues": "SELECT review_id, issue, title, evidence FROM review_issues"
              " WHERE attempt_id = ? AND sha = ? ORDER BY review_id, issue",
    "dispositions": "SELECT seq, review_id, issue, decision, reason, actor FROM"
                    " review_dispositions WHERE attempt_id = ? AND sha = ? ORDER BY seq",
    "overrides": "SELECT seq, reason, user_input FROM review_overrides"
                 " WHERE attempt_id = ? AND sha = ? ORDER BY seq",
}


def evidence_digest(db, attempt_id: str, sha: str) -> str:
    """sha256 of the verify runs, check results and review records of `sha`."""
    obj = {name: [list(r) for r in db.all(sql, (attempt_id, sha))]
           for name, sql in EVIDENCE.items()}
    raw = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(raw.encode()).hexdigest()


@dataclass(frozen=True)
class Approved(CommandResult):
    approval: str
    attempt: str
    sha: str
    card_version: int
    evidence: str                  # the digest of the evidence the approval binds
    user_input: str
    required: bool                 # whether the card asks for it
    target_branch: str             # the branch it lets the candidate into
    expires_ns: int                # by a2a's clock; used after it, it is refused


@dataclass(frozen=True)
class Revoked(CommandResult):
    revoked: str
    attempt: str
    reason: str
    user_input: str


def approve(g: GateContext, attempt_id: str, *, source: str = "cli",
            valid_for_s: int | None = None) -> Approved:
    """Record the user's approval to integrate the attempt's verified candidate as it is now,
    valid for `valid_for_s` (None: the gate rules' `approval_valid_s`)."""
    from a2a_tui.gate.cards.gate_rules import load  # lazy: pydantic, for approve alone

    admit(g, "approve", attempt_id)
    valid_s = valid_for_s if valid_for_s is not None else load(g).rules.approval_valid_s
    if valid_s <= 0:
        raise A2AError("usage", f"an approval is valid for a positive time, not {valid_s} s",
                       exit_code=2)
    with g.store.write() as tx:
        att = attempt_in(tx, attempt_id)
        if att.state != AttemptState.VERIFIED:
            raise A2AError("not_verified", f"attempt {attempt_id} is {att.state}: approve a"
                           " verified candidate (the approval binds its evidence)")
        card = tx.one("SELECT id, version, body FROM cards WHERE id = ?", (att.card_id,))
        sha, version = att.submitted_sha, card["version"]
        digest = evidence_digest(tx, attempt_id, sha)
        approval = f"A-{tx.next_counter('A')}"
        now = time.time_ns()
        expires, target = now + valid_s * 10**9, att.target_branch
        uid = record_user_input_in_tx(
            tx, "approval", f"approve integrating {attempt_id} at {sha} into {target} (card"
            f" {card['id']} v{version}, evidence {digest}), valid {valid_s} s",
            source=source, ref=approval, attempt=attempt_id)
        ledger.record(tx, GateEvent.INTEGRATION_APPROVED, actor="user", task=card["id"],
                      attempt=attempt_id, ts_ns=now,
                      payload=pl.IntegrationApproved(
                          approval=approval, user_input=uid, sha=sha,
                          submission=att.submission_n, card_version=version, evidence=digest,
                          target_branch=target, expires_ns=expires))
    required = json.loads(card["body"]).get("integrate_approval") == "user"
    return Approved(approval, attempt_id, sha, version, digest, uid, required, target, expires)


def revoke(g: GateContext, attempt_id: str, reason: str = "", *, source: str = "cli"
           ) -> Revoked:
    """The user takes back the attempt's approval that is still usable (latest, unused, not
    revoked): an integration after this needs a new one."""
    admit(g, "approve", attempt_id)
    with g.store.write() as tx:
        row = latest(tx, attempt_id)
        if row is None or row["used"] or row["revoked"]:
            raise A2AError("no_approval", f"{attempt_id} has no approval to revoke"
                           + (f" (approval {row['id']} was already"
                              f" {'used' if row['used'] else 'revoked'})" if row else ""))
        att = attempt_in(tx, attempt_id)
        uid = record_user_input_in_tx(tx, "action", f"revoke approval {row['id']} of"
                                      f" {attempt_id}" + (f": {reason}" if reason else ""),
                                      source=source, ref=row["id"], attempt=attempt_id)
        ledger.record(tx, GateEvent.APPROVAL_REVOKED, actor="user", task=att.card_id,
                      attempt=attempt_id, payload=pl.ApprovalRevoked(
                          approval=row["id"], reason=reason, user_input=uid))
    return Revoked(row["id"], attempt_id, reason, uid)


def latest(db, attempt_id: str):
    """The attempt's latest approval (a new one replaces those before it), with `used`: the
    event that used it, if one did; `revoked` and `revoke_reason`: the user's revocation."""
    return db.one("SELECT a.*, u.seq AS used, r.seq AS revoked, r.reason AS revoke_reason"
                  " FROM approvals a LEFT JOIN approval_uses u ON u.approval_id = a.id"
                  " LEFT JOIN approval_revocations r ON r.approval_id = a.id"
                  " WHERE a.attempt_id = ? ORDER BY a.seq DESC LIMIT 1", (attempt_id,))


def problem(db, att: AttemptRecord, row) -> str | None:
    """Why approval `row` does not fit the attempt's candidate as it is now (None: it does)."""
    sha = att.submitted_sha
    version = db.one("SELECT version FROM cards WHERE id = ?", (att.card_id,))["version"]
    stale = []
    if row["sha"] != sha:
        stale.append(f"it approved {row['sha'][:12]}, the candidate is {sha[:12]}")
    if row["card_version"] != version:
        stale.append(f"it approved card version {row['card_version']}, the card is at {version}")
    if row["evidence"] != evidence_digest(db, att.id, sha):
        stale.append("the evidence (verify runs, reviews) changed since")
    if row["target_branch"] is not None and row["target_branch"] != att.target_branch:
        stale.append(f"it approved integrating into {row['target_branch']}, the attempt goes"
                     f" into {att.target_branch}")
    return "; ".join(stale) or None


def lapse(row, now_ns: int) -> A2AError | None:
    """Why approval `row` may not be used at `now_ns` whatever it binds (the refusal, to raise
    or to show): the user revoked it, or it expired. None: it may."""
    if row["revoked"]:
        why = f": {row['revoke_reason']}" if row["revoke_reason"] else ""
        return A2AError("approval_revoked", f"approval {row['id']} was revoked by the user"
                        f" (event #{row['revoked']}){why}; the user approves again")
    if row["expires_ns"] is not None and now_ns > row["expires_ns"]:
        ago = (now_ns - row["expires_ns"]) / 1e9
        return A2AError("approval_expired", f"approval {row['id']} expired {ago:.0f} s ago"
                        f" (valid until {_clock(row['expires_ns'])}); the user approves again")
    return None


def _clock(ns: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(ns / 1e9))


def consume(tx, att: AttemptRecord, body: dict[str, Any], *, actor: str) -> str | None:
    """Use the user's approval for this integration, in the intent's transaction; raise when
    the card needs one and there is none that fits. Returns the approval used."""
    if body.get("integrate_approval", "none") != "user":
        return None
    aid, sha = att.id, att.submitted_sha
    row = latest(tx, aid)
    if row is None or row["used"]:
        raise A2AError("approval_required", f"card {att.card_id} needs the user's approval to"
                       f" integrate {aid} at {sha[:12]} (`a2a approve {aid}`, or the workbench)"
                       + (f"; approval {row['id']} was used by an earlier integration (event"
                          f" #{row['used']}) and is never used twice" if row else ""))
    lapsed = lapse(row, time.time_ns())
    if lapsed is not None:
        raise lapsed
    why = problem(tx, att, row)
    if why:
        raise A2AError("approval_stale", f"approval {row['id']} of {aid} is stale: {why};"
                       " the user approves again")
    ledger.record(tx, GateEvent.APPROVAL_CONSUMED, actor=actor, task=att.card_id, attempt=aid,
                  payload=pl.ApprovalConsumed(approval=row["id"], sha=sha,
                                              card_version=row["card_version"],
                                              evidence=row["evidence"]))
    return row["id"]
