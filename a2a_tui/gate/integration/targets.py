"""The gate's own view of each target branch, and the user's two answers when it is moved.

The gate records where it last left each target: the head it saw at `a2a init` (or, for a
branch it has no record of, the first time it looks), then every advance it makes, every head
the user adopts and every restore. Before a claim starts from a target and before an
integration moves it, the target's head is compared with that record (`observe`). Any
difference — rewound, fast-forwarded, moved sideways — is a divergence: recorded once per head
seen (`target_diverged`, with git's reflog lines), raised as a protected board item, and
nothing claims from or integrates into that target until the user decides:
`a2a target adopt BRANCH` makes the new head the baseline, `a2a target restore BRANCH` moves the
branch back to the baseline by compare-and-swap. Both are user inputs.

Every read-compare-move of a target happens under its target lock, so the gate's own moves are
never mistaken for someone else's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from a2a_tui.collab.board import close_in_tx, post_finding_in_tx
from a2a_tui.collab.user_input import record_user_input_in_tx
from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate.attempts.locks import op_lock
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
from a2a_tui.git import GitError, error_line

# The target lock is held for a compare and a move (and a worktree sync): briefly. A claim or an
# integration waits this long for another one into the same target rather than failing at once.
LOCK_WAIT_S = 15.0

_SOURCE = {"init": "the head seen at `a2a init`", "first_seen": "the head it first saw",
           "integrated": "its last advance", "adopted": "the head the user adopted",
           "restored": "where the user restored it", "resolved": "the user's resolve"}


@dataclass(frozen=True)
class TargetView:
    branch: str
    baseline: str                  # where the gate last left the branch
    source: str                    # init | first_seen | integrated | adopted | restored | resolved
    seq: int                       # the event that set the baseline
    diverged_head: str | None      # the last head seen off the record, until the user decides
    diverged_seq: int | None
    finding: str | None            # the board item raised for the divergence

    def to_json(self) -> dict[str, Any]:
        return {"target": self.branch, "baseline": self.baseline, "source": self.source,
                "seq": self.seq, "diverged": self.diverged_head is not None,
                "diverged_head": self.diverged_head, "diverged_seq": self.diverged_seq,
                "finding": self.finding}


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


def ref_of(branch: str) -> str:
    return f"refs/heads/{branch}"


@contextmanager
def target_lock(g: GateContext, branch: str) -> Iterator[None]:
    """Serialise every compare and move of `branch` by the gate (claims, integrations, restores)."""
    with op_lock(g.repo.locks_dir, "target-" + quote(branch, safe=""),
                 what=f"a claim or move of {branch}", wait_s=LOCK_WAIT_S):
        yield


def read_head(g: GateContext, branch: str) -> str:
    head = g.git.ref_value(ref_of(branch))
    if head is None:
        raise A2AError("no_target", f"target branch {branch!r} does not exist")
    return head


def view(db, branch: str) -> TargetView | None:
    """The gate's record of `branch` (a Store or an open transaction), if it has one."""
    row = db.one("SELECT * FROM gate_targets WHERE branch = ?", (branch,))
    return None if row is None else TargetView(**dict(row))


def observe(g: GateContext, branch: str, *, task: str | None = None,
            attempt: str | None = None) -> str:
    """The head of `branch`, when it is where the gate last left it. Hold the target lock.

    Otherwise the divergence is recorded (a `target_diverged` event per new head seen, one
    protected board item per divergence) and `target_diverged` is raised.
    """
    head = read_head(g, branch)
    known = view(g.store, branch)
    off = known is None or known.diverged_head is not None or known.baseline != head
    reflog = g.git.reflog(ref_of(branch)) if off else []
    with g.store.write() as tx:
        _refuse_pending(tx, branch)
        t = view(tx, branch) or _seed_in_tx(tx, branch, head)
        if t.diverged_head is None and head == t.baseline:
            return head
        if t.diverged_head != head:
            finding = t.finding or post_finding_in_tx(
                tx, title=f"{branch} moved outside the gate", blocking=True, category="other",
                body=f"{branch} is at {head}, not at {t.baseline} where the gate last left it"
                     f" ({_SOURCE[t.source]}, event #{t.seq}). Nothing integrates into"
                     f" {branch} until the user decides: `a2a target adopt {branch}` keeps"
                     f" the new head, `a2a target restore {branch}` moves it back.\n"
                     + "\n".join(reflog[:10]),
                actor="gate", session=None, task=task, attempt=attempt)
            ledger.record(tx, GateEvent.TARGET_DIVERGED, actor="gate", task=task, attempt=attempt,
                          payload={"target": branch, "expected": t.baseline, "observed": head,
                                   "reflog": reflog, "baseline_seq": t.seq,
                                   "baseline_source": t.source, "finding": finding})
            t = view(tx, branch)
            assert t is not None
    raise _diverged(t, head, reflog)


def _diverged(t: TargetView, head: str, reflog: list[str]) -> A2AError:
    decide = (f"nothing claims from or integrates into {t.branch} until the user decides:"
              f" `a2a target adopt {t.branch}` keeps the new head, `a2a target restore"
              f" {t.branch}` moves it back")
    if head == t.baseline:
        msg = (f"{t.branch} was seen off the gate's record at event #{t.diverged_seq} and is back"
               f" at {head[:12]}; {decide}")
    else:
        said = next((line.split(" ", 2)[2] for line in reflog
                     if line.startswith(head) and line.count(" ") >= 2), None)
        msg = (f"{t.branch} is at {head[:12]}, not at {t.baseline[:12]} ({_SOURCE[t.source]}):"
               f" it was moved outside the gate{f' (reflog: {said})' if said else ''};"
               f" {decide}")
    return A2AError("target_diverged", msg, details={
        "target": t.branch, "expected": t.baseline, "observed": head, "reflog": reflog,
        "finding": t.finding})


def _refuse_pending(tx, branch: str) -> None:
    # Under the target lock a pending intent has a dead owner (its integrate held this lock).
    row = tx.one("SELECT attempt_id FROM integrations WHERE state='intent' AND ref=?",
                 (ref_of(branch),))
    if row is not None:
        raise A2AError("integration_pending",
                       f"the integration of {row['attempt_id']} into {branch} was left"
                       " half-done; `a2a recover` reads its outcome from the branch")


def _seed_in_tx(tx, branch: str, head: str) -> TargetView:
    """A target with no record: its last advance in the log, else the head `a2a init` saw,
    else the head seen now."""
    row = tx.one("SELECT json_extract(payload, '$.new') AS sha FROM events"
                 " WHERE kind='integrated' AND json_extract(payload, '$.ref') = ?"
                 " ORDER BY seq DESC LIMIT 1", (ref_of(branch),))
    baseline, source = (row["sha"], "integrated") if row and row["sha"] else (None, "")
    if baseline is None:
        row = tx.one("SELECT json_extract(payload, '$.target_head') AS sha FROM events"
                     " WHERE kind='initialized' AND json_extract(payload, '$.target_branch') = ?"
                     " ORDER BY seq DESC LIMIT 1", (branch,))
        baseline, source = (row["sha"], "init") if row and row["sha"] else (head, "first_seen")
    ledger.record(tx, GateEvent.TARGET_OBSERVED, actor="gate",
                  payload={"target": branch, "head": baseline, "source": source})
    t = view(tx, branch)
    assert t is not None
    return t


def _decided_in_tx(tx, t: TargetView, reason: str) -> None:
    """The user decided (the event made its head the baseline, gate/ledger/targets.py): the
    divergence's board item is closed."""
    if t.finding:
        close_in_tx(tx, t.finding, reason, actor="user", session=None, role=None)


def git_refusal(exc: GitError, branch: str) -> A2AError:
    """What a refused move of `branch` means for the user, with git's own words."""
    first = error_line(exc.stderr) or exc.message
    details = {"git": exc.stderr, **exc.details}
    if exc.code == "ref_locked":
        return A2AError(
            "ref_locked",
            f"{branch} cannot move: {exc.details['lock']} exists, so another git process holds"
            " it or one crashed and left the lock behind. a2a never removes a lock it did not"
            f" take: if no git process is running, remove the file yourself (git: {first})",
            details=details)
    if exc.code == "ref_moved":
        return A2AError("cas_failed", f"{branch} did not move: it is no longer where it was"
                        f" read a moment ago (git: {first}); nothing was changed",
                        details=details)
    return A2AError("git_failed", f"{branch} did not move: {exc.message}", details=details)


def _reason(reason: str | None) -> str:
    if reason is None or not reason.strip():
        raise A2AError("reason_required", "say why with --reason: it is kept with the decision",
                       exit_code=2)
    return reason.strip()


def _undecided(g: GateContext, branch: str) -> tuple[str, TargetView]:
    """The head and the record of a target the user is deciding about (target lock held)."""
    head = read_head(g, branch)
    with g.store.write() as tx:
        _refuse_pending(tx, branch)
        t = view(tx, branch) or _seed_in_tx(tx, branch, head)
    if t.diverged_head is None and head == t.baseline:
        raise A2AError("target_not_diverged", f"{branch} is at {head[:12]}, where the gate last"
                       f" left it ({_SOURCE[t.source]}): there is nothing to decide")
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
                          payload={"target": branch, "previous": t.baseline, "head": head,
                                   "reason": reason, "user_input": uid,
                                   "diverged_seq": t.diverged_seq})
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
                          payload={"target": branch, "from": head, "head": t.baseline,
                                   "moved": moved, "reason": reason, "user_input": uid,
                                   "intent_seq": intent, "worktree_synced": synced})
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
                           payload={"target": branch, "from": head, "to": t.baseline,
                                    "user_input": uid})
    try:
        g.git.update_ref(ref, t.baseline, head, message=f"a2a target restore {branch}")
    except GitError as exc:
        with g.store.write() as tx:
            tx.append("target_restore_failed", actor="gate",
                      payload={"target": branch, "intent_seq": intent,
                               "code": exc.code, "git": exc.stderr,
                               "observed": g.git.ref_value(ref)})
        raise git_refusal(exc, branch) from exc
    observed = g.git.ref_value(ref)
    if observed != t.baseline:  # moved again at once by someone else: not restored
        with g.store.write() as tx:
            tx.append("target_restore_failed", actor="gate",
                      payload={"target": branch, "intent_seq": intent,
                               "code": "outcome_unknown", "observed": observed})
        raise A2AError("outcome_unknown", f"{branch} is at {(observed or '?')[:12]}"
                       f" right after it was moved to {t.baseline[:12]}: someone else"
                       " moves it too; look, then decide again")
    if root is not None:
        synced = sync_worktree(g, root, head, t.baseline, branch)
    return uid, intent, synced
