"""resolve: the user's way out of `unknown`, after looking at the target.

An attempt is `unknown` when the process that integrated it died between its intent and its
outcome and the target now shows neither the old nor the new commit: nothing the gate can read
says whether the move happened. Only the user decides what it was (seed 001: an outcome that
cannot be confirmed stays unknown and goes to a person), and the decision is checked against
what can be checked: `integrated` needs the target to contain the candidate, `not-applied`
needs it not to. The decision is a user input and an `attempt_resolved` event; the attempt
leaves `unknown` (integrated, verified again, or abandoned), so its card can be worked again.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from a2a_tui.collab.user_input import record_user_input_in_tx
from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate.attempts.locks import op_lock
from a2a_tui.gate.attempts.ownership import score_facts
from a2a_tui.gate.attempts.target_record import ref_of, target_lock
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.ledger import GateEvent
from a2a_tui.gate.ledger.records import AttemptRecord
from a2a_tui.gate.model import AttemptState, CommandResult, Resolution, Score
from a2a_tui.gate.roles import require_role
from a2a_tui.payloads import integrate as pi

RESOLUTIONS = tuple(Resolution)
# The attempt's state after each resolution; not-applied makes it a verified candidate again
# (an outcome known not to have happened may be tried again, by the usual checks).
ATTEMPT_STATE = {Resolution.INTEGRATED: AttemptState.INTEGRATED,
                 Resolution.NOT_APPLIED: AttemptState.VERIFIED,
                 Resolution.ABANDONED: AttemptState.ABANDONED}


@dataclass(frozen=True)
class Resolved(CommandResult):
    attempt: str
    as_: Resolution
    state: AttemptState
    sha: str
    target: str
    observed: str | None           # the target's head the user decided against
    user_input: str
    event: int


def resolve(g: GateContext, attempt_id: str, as_: str, reason: str | None) -> Resolved:
    """Record the user's decision about an `unknown` attempt, if the target does not refute it."""
    require_role(g, "resolve")
    if as_ not in RESOLUTIONS:
        raise A2AError("usage", f"--as must be one of {', '.join(RESOLUTIONS)}", exit_code=2)
    if reason is None or not reason.strip():
        raise A2AError("reason_required", "say what you saw with --reason: it is kept with the"
                       " decision", exit_code=2)
    reason = reason.strip()
    g.attempt(attempt_id)
    with op_lock(g.repo.locks_dir, attempt_id, what=f"an operation on {attempt_id}"):
        att = g.attempt(attempt_id)
        if att.state != AttemptState.UNKNOWN:
            raise A2AError("attempt_not_unknown", f"attempt {attempt_id} is {att.state}: only"
                           " an attempt whose outcome is unknown is resolved by the user")
        it = g.store.one("SELECT * FROM integrations WHERE attempt_id=?", (attempt_id,))
        sha, branch = it["new_sha"], att.target_branch
        with target_lock(g, branch):
            head = g.git.ref_value(ref_of(branch))
            contains = head is not None and g.git.is_ancestor(sha, head)
            if as_ == Resolution.INTEGRATED and not contains:
                raise A2AError("target_lacks_sha", f"{branch} ({(head or 'missing')[:12]}) does"
                               f" not contain {sha[:12]}: {attempt_id} cannot have been"
                               " integrated; resolve it as not-applied or abandoned")
            if as_ == Resolution.NOT_APPLIED and contains:
                raise A2AError("target_has_sha", f"{branch} ({head[:12]}) contains {sha[:12]}:"
                               f" the candidate of {attempt_id} is on it; resolve it as integrated"
                               " (or abandoned, to end it without counting it)")
            return _record(g, att, it, as_, reason, head, contains)


def _record(g: GateContext, att: AttemptRecord, it, as_: str, reason: str, head: str | None,
            contains: bool) -> Resolved:
    attempt_id, branch, sha = att.id, att.target_branch, it["new_sha"]
    now = time.time_ns()
    state = ATTEMPT_STATE[as_]
    with g.store.write() as tx:
        uid = record_user_input_in_tx(
            tx, "action", f"a2a resolve {attempt_id} --as {as_}: {reason}", source="cli",
            attempt=attempt_id)
        payload: dict[str, Any] = {
            "as": as_, "reason": reason, "sha": sha, "target": branch, "user_input": uid,
            "observed": head, "target_contains": contains, "old": it["old_sha"],
            "intent_seq": it["intent_seq"]}
        if as_ == Resolution.INTEGRATED:
            # The score given at integrate, and the facts beside it, travel in the event: the
            # log alone makes the scores row (gate/ledger/attempts.py).
            intent = tx.one("SELECT payload FROM events WHERE seq=?", (it["intent_seq"],))
            score = Score(**json.loads(intent["payload"])["score"])
            payload.update(score=score.to_json(), **score_facts(tx, att, now).to_json())
        # The attempt, its integration, score and the target's baseline: written by the fold.
        seq = ledger.record(tx, GateEvent.ATTEMPT_RESOLVED,
                            actor=g.caller.actor, task=att.card_id,
                            attempt=attempt_id, session=g.caller.session, ts_ns=now,
                            payload=pi.AttemptResolved.of(payload)).seq
    return Resolved(attempt_id, Resolution(as_), state, sha, branch, head, uid, seq)
