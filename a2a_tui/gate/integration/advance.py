"""integrate: advance the target branch to the verified SHA by compare-and-swap.

Intent first (in the store), then `git update-ref <ref> <new> <old>`, then an independent
read-back, then the outcome. A crash anywhere in between is resolved by reading the ref,
never by guessing (see recovery.py); what nobody can read is `unknown`, for the user to
resolve (resolution.py). The outcome `integrated` is also the target's new baseline (targets.py).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.faults import crashpoint
from a2a_tui.gate import ledger
from a2a_tui.gate.attempts.locks import op_lock
from a2a_tui.gate.attempts.ownership import score_facts
from a2a_tui.gate.attempts.target_record import git_refusal, observe, ref_of, target_lock
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.integration import spotchecks
from a2a_tui.gate.integration.mainworktree import (
    IndexLock,
    blocking_changes,
    checked_out_here,
    dirty_error,
    sync_worktree,
)
from a2a_tui.gate.ledger import GateEvent
from a2a_tui.gate.ledger.records import AttemptRecord
from a2a_tui.gate.model import (
    UNRESOLVED,
    AttemptState,
    CardState,
    CommandResult,
    IntegrationState,
    Score,
    VerifyState,
    parse_scores,
    way_out,
)
from a2a_tui.gate.reviews.dispositions import check_integrable
from a2a_tui.gate.roles import require_role
from a2a_tui.git import GitError
from a2a_tui.payloads import integrate as pi
from a2a_tui.payloads.integrate import IntegrateRefused


@dataclass(frozen=True)
class Integration(CommandResult):
    """What the target's read-back showed after a move (or a recovery's look at one)."""

    attempt: str
    state: IntegrationState
    target: str
    old: str
    new: str
    observed: str | None
    worktree_synced: bool | str | None   # the checked-out target's worktree brought along
    recovered: bool


def integrate(g: GateContext, attempt_id: str, score: Score | None) -> Integration:
    """Move the attempt's target to its verified SHA, by compare-and-swap, and record it.

    Under the attempt's lock and then its target's: the target must be where the gate last left
    it (targets.observe), contain the attempt's start and be contained in the candidate; git is
    asked first whether the move would apply, then the intent is recorded, the ref moved, read
    back, and the outcome recorded.
    """
    require_role(g, "integrate")
    card_id = g.attempt(attempt_id).card_id   # an unknown attempt: refused before the lock
    with op_lock(g.repo.locks_dir, attempt_id, what=f"an operation on {attempt_id}"):
        # The log decides: one read of it, after the checks, for everything decided below.
        facts = ledger.before_integrate(g, card_id)
        att = AttemptRecord.of(facts.attempt(attempt_id))
        sha = _check_candidate(g, att, facts)
        if score is None:   # asked only of a candidate that can be integrated
            score = parse_scores([])
        branch = att.target_branch
        ref = ref_of(branch)
        with target_lock(g, branch):
            try:
                old = observe(g, branch, task=att.card_id, attempt=attempt_id)
            except A2AError as exc:
                if exc.code == "target_diverged":
                    _diagnose(g, att, exc.code, exc.details["observed"],
                              expected=exc.details["expected"], observed=exc.details["observed"])
                raise
            _check_lineage(g, att, old, sha)
            root = _check_checkout(g, att, branch, old, sha)
            return _move(g, att, ref, old, sha, score, root)


def _check_checkout(g: GateContext, att: AttemptRecord, branch: str, old: str,
                    sha: str) -> Path | None:
    """Where the target is checked out: its files must be clean, and git must be able to take
    its index, before anything moves (mainworktree.py); None where it is not checked out."""
    root = checked_out_here(g, branch)
    if root is None:
        return None
    dirty = blocking_changes(g, root, old, sha)
    if dirty:
        _diagnose(g, att, "main_worktree_dirty", old, files=dirty[:20])
        raise dirty_error(branch, root, dirty, "integrate")
    try:
        IndexLock(g, root).probe(branch, "integrate")
    except A2AError as exc:
        _diagnose(g, att, exc.code, old, **exc.details)
        raise
    return root


def _move(g: GateContext, att: AttemptRecord, ref: str, old: str, sha: str, score: Score,
          root: Path | None) -> Integration:
    """Ask git, record the intent, move the ref and resolve what happened."""
    attempt_id, branch = att.id, att.target_branch
    sync = str(root) if root is not None else None
    try:
        g.git.check_ref_update(ref, sha, old)
    except GitError as exc:
        refusal = git_refusal(exc, branch)
        _diagnose(g, att, refusal.code, old, git=exc.stderr, **exc.details)
        raise refusal from exc
    with g.store.write() as tx:
        # Reviews and the user's approval decide here; the approval is used in this tx.
        check_integrable(g, att, tx)
        ledger.record(tx, GateEvent.INTEGRATION_INTENT, actor=g.caller.actor,
                      task=att.card_id, attempt=attempt_id, session=g.caller.session,
                      payload=pi.IntegrationIntent(ref=ref, old=old, new=sha,
                                                   sync_worktree=sync, score=score.to_json(),
                                                   actor=g.caller.actor))
    crashpoint("integrate:after_intent")
    failure = None
    try:
        g.git.update_ref(ref, sha, old, message=f"a2a integrate {attempt_id}")
    except GitError as exc:
        failure = exc  # the read-back below decides what happened; git says why
    crashpoint("integrate:after_update_ref")
    return resolve_intent(g, attempt_id, actor=g.caller.actor, failure=failure)


def _check_candidate(g: GateContext, att: AttemptRecord, facts: ledger.Ledger) -> str:
    """The verified SHA, if everything the gate decided about it still holds (read from the
    log's view `facts`, not from the tables)."""
    attempt_id = att.id
    if att.state != AttemptState.VERIFIED:
        hint = f": {way_out(attempt_id, att.state)}" if att.state in UNRESOLVED else \
            " (`a2a verify` first)"
        raise A2AError("not_verified", f"attempt {attempt_id} is {att.state}: only a verified"
                       f" candidate can be integrated{hint}")
    if not g.caller.is_user and g.caller.actor == att.writer:
        raise A2AError("writer_cannot_integrate",
                       f"{g.caller.describe()} wrote {attempt_id}; integration is for the"
                       " executive controller or the user")
    sha = att.submitted_sha
    card = facts.get("cards", att.card_id)
    last = facts.last_verdict(attempt_id)  # an interrupted run decided nothing
    if (last is None or last["state"] != VerifyState.PASSED or last["sha"] != sha
            or last["submission_n"] != att.submission_n):
        raise A2AError("not_verified", f"no passing verification of {sha[:12]} for {attempt_id}")
    if last["card_version"] != card["version"] or card["state"] != CardState.READY:
        raise A2AError("stale_card_version",
                       f"{attempt_id} was verified against card version {last['card_version']};"
                       f" the card is now version {card['version']} ({card['state']}):"
                       " confirm the card, resubmit and verify again")
    failed = facts.failed_blocking_check(attempt_id, last["run"])
    if failed is not None:
        raise A2AError("not_verified", f"blocking check {failed['name']} did not pass")
    return sha


def _check_lineage(g: GateContext, att: AttemptRecord, old: str, sha: str) -> None:
    """Moving `old` to `sha` lands exactly the commits verify judged (start..sha): the target
    must contain the attempt's start, and the candidate must contain the target."""
    branch, start = att.target_branch, att.start_commit
    if not g.git.is_ancestor(old, sha):
        _diagnose(g, att, "target_moved", old)
        raise A2AError("target_moved",
                       f"{branch} moved to {old[:12]} since the claim and the verified candidate"
                       f" {sha[:12]} does not contain it; integrating would land an unverified"
                       " tree. Start a new attempt from the new head.")
    if not g.git.is_ancestor(start, old):
        _diagnose(g, att, "target_moved", old, start=start)
        raise A2AError("target_moved",
                       f"{branch} at {old[:12]} no longer contains {start[:12]}, the commit"
                       f" {att.id} started from (the user moved {branch} back); integrating"
                       " would bring back what was undone. Start a new attempt from the new head.")


def resolve_intent(g: GateContext, attempt_id: str, *, actor: str, recovering: bool = False,
                   failure: GitError | None = None) -> Integration:
    """Read the ref back and record what it shows. Called with the attempt's lock held.

    `failure` is git's refusal of the move, if it refused: recorded with the outcome, and the
    answer names its cause (`ref_locked`, `cas_failed`, `git_failed`)."""
    it = g.store.one("SELECT * FROM integrations WHERE attempt_id=?", (attempt_id,))
    att = g.attempt(attempt_id)
    intent = g.store.one("SELECT payload FROM events WHERE seq=?", (it["intent_seq"],))
    score_json = json.loads(intent["payload"])["score"]
    observed = g.git.ref_value(it["ref"])
    synced = None
    if recovering and it["sync_worktree"]:   # a crash may have left a2a's own index lock
        IndexLock(g, Path(it["sync_worktree"])).clear_own_stale()
    if observed == it["new_sha"] and it["sync_worktree"]:
        synced = sync_worktree(g, Path(it["sync_worktree"]), it["old_sha"], it["new_sha"],
                               att.target_branch)
    from a2a_tui.gate.cards import gate_rules  # pydantic: only here (start-up)

    every = gate_rules.load(g).rules.spot_check_every
    now = time.time_ns()
    with g.store.write() as tx:
        base = {"ref": it["ref"], "old": it["old_sha"], "new": it["new_sha"], "observed": observed,
                "recovered": recovering}
        if failure is not None:
            base["error"] = {"code": failure.code, "git": failure.stderr, **failure.details}
        # The outcome moves the attempt, its integration, its score and (integrated) the
        # target's baseline: the fold writes them (gate/ledger/).
        if observed == it["new_sha"]:
            state = IntegrationState.INTEGRATED
            ev = ledger.record(tx, GateEvent.INTEGRATED,
                               actor=actor, task=att.card_id, attempt=attempt_id,
                               ts_ns=now, payload=pi.Integrated.of(
                                   {**base, "score": score_json, "worktree_synced": synced,
                                    **score_facts(tx, att, now).to_json()}))
            spotchecks.after_integrated(tx, every, ev.seq)
        elif observed == it["old_sha"]:
            # Not moved: the CAS did not apply, the candidate stays verified.
            state = IntegrationState.NOT_APPLIED
            ledger.record(tx, GateEvent.INTEGRATION_NOT_APPLIED, actor=actor, task=att.card_id,
                          attempt=attempt_id, payload=pi.IntegrationNotApplied.of(base))
        else:
            # Moved elsewhere: nobody can say what happened, for a person to decide.
            state = IntegrationState.UNKNOWN
            ledger.record(tx, GateEvent.INTEGRATION_UNKNOWN, actor=actor, task=att.card_id,
                          attempt=attempt_id, payload=pi.IntegrationUnknown.of(base))
    result = Integration(attempt_id, state, att.target_branch, it["old_sha"], it["new_sha"],
                         observed, synced, recovering)
    if state == IntegrationState.NOT_APPLIED and not recovering:
        if failure is not None:
            refusal = git_refusal(failure, att.target_branch)
            raise A2AError(refusal.code, refusal.message + "; nothing was integrated",
                           details={**result.to_json(), **refusal.details})
        raise A2AError("cas_failed", f"{att.target_branch} did not move: it changed under us"
                       f" (still {observed[:12] if observed else 'missing'});"
                       " nothing was integrated",
                       details=result.to_json())
    if state == IntegrationState.UNKNOWN and not recovering:
        raise A2AError("outcome_unknown", f"{it['ref']} is {observed or 'missing'}, neither the old"
                       f" nor the new commit: the outcome is unknown; {way_out(attempt_id, state)}",
                       details=result.to_json())
    return result


def _diagnose(g: GateContext, att: AttemptRecord, code: str, head: str, **extra: Any) -> None:
    with g.store.write() as tx:
        tx.append("integrate_refused", actor=g.caller.actor, task=att.card_id, attempt=att.id,
                  session=g.caller.session,
                  payload=IntegrateRefused(code=code, target_head=head, **extra))
