"""The gate's own view of each target branch, and the user's two answers when it is moved.

The gate records where it last left each target: the head it saw at `a2a init` (or, for a
branch it has no record of, the first time it looks), then every advance it makes, every head
the user adopts and every restore. Before a claim starts from a target and before an
integration moves it, the target's head is compared with that record (`observe`, the record
itself: gate/attempts/target_record.py). Any
difference — rewound, fast-forwarded, moved sideways — is a divergence: recorded once per head
seen (`target_diverged`, with git's reflog lines), raised as a protected board item, and
nothing claims from or integrates into that target until the user decides:
`a2a target adopt BRANCH` makes the new head the baseline, `a2a target restore BRANCH` moves the
branch back to the baseline by compare-and-swap. Both are user inputs.

Every read-compare-move of a target happens under its target lock, so the gate's own moves are
never mistaken for someone else's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from a2a_tui.collab.board import close_in_tx
from a2a_tui.collab.user_input import record_user_input_in_tx
from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate.attempts.target_record import (
    SOURCE,
    TargetView,
    git_refusal,
    read_head,
    ref_of,
    refuse_pending,
    seed_in_tx,
    target_lock,
    view,
)
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.integration.mainworktree import (
    IndexLock,
    blocking_changes,
    checked_out_here,
    dirty_error,
    sync_worktree,
)
from a2a_tui.gate.ledger import GateEvent
from a2a_tui.gate.model import CommandResult
from a2a_tui.gate.roles import require_role
from a2a_tui.git import GitError
from a2a_tui.payloads import targets as pt


@dataclass(frozen=True)
class Adopted(CommandResult):
    """`a2a target adopt`: the branch's head became the baseline."""

    target: str
    previous: str
    head: str
    user_input: str
    finding_closed: str | None


@dataclass(frozen=True)
class Restored(CommandResult):
    """`a2a target restore`: the branch is back at the baseline (moved, or there already)."""

    target: str
    from_: str
    head: str
    moved: bool
    user_input: str
    worktree_synced: bool | str | None
    finding_closed: str | None


def _decided_in_tx(tx, t: TargetView, reason: str) -> None:
    """The user decided (the event made its head the baseline, gate/ledger/targets.py): the
    divergence's board item is closed."""
    if t.finding:
        close_in_tx(tx, t.finding, reason, actor="user", session=None, role=None)


def _reason(reason: str | None) -> str:
    if reason is None or not reason.strip():
        raise A2AError("reason_required", "say why with --reason: it is kept with the decision",
                       exit_code=2)
    return reason.strip()


def _undecided(g: GateContext, branch: str) -> tuple[str, TargetView]:
    """The head and the record of a target the user is deciding about (target lock held)."""
    head = read_head(g, branch)
    with g.store.write() as tx:
        refuse_pending(tx, branch)
        t = view(tx, branch) or seed_in_tx(tx, branch, head)
    if t.diverged_head is None and head == t.baseline:
        raise A2AError("target_not_diverged", f"{branch} is at {head[:12]}, where the gate last"
                       f" left it ({SOURCE[t.source]}): there is nothing to decide")
    return head, t


def adopt(g: GateContext, branch: str, reason: str | None) -> Adopted:
    """The user's decision: the branch's current head becomes the gate's baseline."""
    require_role(g, "target adopt")
    reason = _reason(reason)
    with target_lock(g, branch):
        head, t = _undecided(g, branch)
        with g.store.write() as tx:
            uid = record_user_input_in_tx(
                tx, "action", f"a2a target adopt {branch}: {head} is the gate's baseline"
                f" (was {t.baseline}). {reason}", source="cli")
            ledger.record(tx, GateEvent.TARGET_ADOPTED,
                          actor=g.caller.actor, session=g.caller.session,
                          payload=pt.TargetAdopted(target=branch, previous=t.baseline,
                                                   head=head, reason=reason, user_input=uid,
                                                   diverged_seq=t.diverged_seq))
            _decided_in_tx(tx, t, f"adopted {head[:12]} ({uid})")
    return Adopted(branch, t.baseline, head, uid, t.finding)


def restore(g: GateContext, branch: str, reason: str | None) -> Restored:
    """The user's decision: move the branch back to the gate's baseline, by compare-and-swap.

    The intent is recorded before the move and the outcome after it, as for an integration; a
    refused or unreadable move leaves the divergence open.
    """
    require_role(g, "target restore")
    reason = _reason(reason)
    with target_lock(g, branch):
        head, t = _undecided(g, branch)
        moved, synced, intent, uid = head != t.baseline, None, None, None
        said = f"a2a target restore {branch}: back from {head} to {t.baseline}. {reason}"
        if moved:
            uid, intent, synced = _move_back(g, branch, head, t, said)
        with g.store.write() as tx:
            if uid is None:
                uid = record_user_input_in_tx(tx, "action", said, source="cli")
            ledger.record(tx, GateEvent.TARGET_RESTORED, actor=g.caller.actor,
                          session=g.caller.session,
                          payload=pt.TargetRestored(
                              target=branch, from_=head, head=t.baseline, moved=moved,
                              reason=reason, user_input=uid, intent_seq=intent,
                              worktree_synced=synced))
            _decided_in_tx(tx, t, f"restored to {t.baseline[:12]} ({uid})")
    return Restored(branch, head, t.baseline, moved, uid, synced, t.finding)


def _move_back(g: GateContext, branch: str, head: str, t: TargetView, said: str
               ) -> tuple[int, int, Any]:
    """Move the branch from `head` back to the baseline by compare-and-swap, the intent
    recorded first (with the user's input) and a failed or unclear move after it; the main
    worktree's files brought along when the branch is checked out there. Returns (user input,
    intent seq, how the worktree was synced)."""
    ref = ref_of(branch)
    if not g.git.object_is_commit(t.baseline):
        raise A2AError("baseline_missing", f"the gate's baseline {t.baseline[:12]} is"
                       " no longer a commit here: adopt the current head instead")
    root = checked_out_here(g, branch)
    synced = None
    if root is not None:
        dirty = blocking_changes(g, root, head, t.baseline)
        if dirty:
            raise dirty_error(branch, root, dirty, "restore")
        IndexLock(g, root).probe(branch, "restore")   # before anything moves (mainworktree.py)
    try:
        g.git.check_ref_update(ref, t.baseline, head)
    except GitError as exc:
        raise git_refusal(exc, branch) from exc
    with g.store.write() as tx:
        uid = record_user_input_in_tx(tx, "action", said, source="cli")
        intent = tx.append("target_restore_intent", actor=g.caller.actor,
                           session=g.caller.session,
                           payload=pt.TargetRestoreIntent(target=branch, from_=head,
                                                       to=t.baseline, user_input=uid))
    try:
        g.git.update_ref(ref, t.baseline, head, message=f"a2a target restore {branch}")
    except GitError as exc:
        with g.store.write() as tx:
            tx.append("target_restore_failed", actor="gate",
                      payload=pt.TargetRestoreFailed(target=branch, intent_seq=intent,
                                                  code=exc.code, git=exc.stderr,
                                                  observed=g.git.ref_value(ref)))
        raise git_refusal(exc, branch) from exc
    observed = g.git.ref_value(ref)
    if observed != t.baseline:  # moved again at once by someone else: not restored
        with g.store.write() as tx:
            tx.append("target_restore_failed", actor="gate",
                      payload=pt.TargetRestoreFailed(target=branch, intent_seq=intent,
                                                  code="outcome_unknown", observed=observed))
        raise A2AError("outcome_unknown", f"{branch} is at {(observed or '?')[:12]}"
                       f" right after it was moved to {t.baseline[:12]}: someone else"
                       " moves it too; look, then decide again")
    if root is not None:
        synced = sync_worktree(g, root, head, t.baseline, branch)
    return uid, intent, synced
