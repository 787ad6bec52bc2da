"""reclaim: remove the clones of ended attempts, but only clean ones.

The clone's head is imported into the repository (gate/attempts/clones.py) and stays reachable under
`refs/a2a/attempts/<attempt>` before anything is removed; a dirty or unknown clone is kept and
reported. Whether a clone is clean is judged by the repository's own git with the clone as its
work tree and a scratch index, never by the clone's git (its config and hooks are its agent's).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate.attempts import clones
from a2a_tui.gate.attempts.findings import report_kept_worktree
from a2a_tui.gate.attempts.handback import Holdup, holdups, permit_force, settle
from a2a_tui.gate.attempts.locks import op_lock
from a2a_tui.gate.attempts.review_checkouts import reclaim_checkouts
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.ledger import GateEvent
from a2a_tui.gate.ledger.records import AttemptRecord
from a2a_tui.gate.model import ENDED, UNRESOLVED, WorktreeState, way_out
from a2a_tui.gate.roles import require_role
from a2a_tui.git import ZERO_SHA, GitError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads import attempts as pa


def hidden_ref(attempt_id: str) -> str:
    return f"refs/a2a/attempts/{attempt_id}"


@dataclass(frozen=True)
class Reclaimed:
    """What reclaim did with one ended attempt's clone: removed, kept (dirty, unknown), or
    held by its writer; where its head was kept, and why."""

    attempt: str
    worktree: str
    worktree_state: str = ""           # removed | kept_dirty | unknown | held
    changed: bool = False              # this reclaim recorded something (an event)
    forced: tuple[JsonObject, ...] = ()   # what `--force` overrode (gate/attempts/handback.py)
    kept_ref: str | None = None
    kept_sha: str | None = None
    reason: str | None = None
    git: str | None = None             # git's own message, when git failed
    files: tuple[str, ...] | None = None   # the uncommitted paths of a dirty clone
    review_checkouts: tuple[JsonObject, ...] = ()

    def payload_json(self) -> JsonObject:
        """The `worktree_removed`/`_kept`/`_unknown` event's payload."""
        out: JsonObject = {"attempt": self.attempt, "worktree": self.worktree}
        if self.forced:
            out["forced"] = list(self.forced)
        if self.kept_ref is not None:
            out |= {"kept_ref": self.kept_ref, "kept_sha": self.kept_sha}
        if self.reason is not None:
            out["reason"] = self.reason
        if self.git is not None:
            out["git"] = self.git
        if self.files is not None:
            out["files"] = list(self.files)
        return out

    def to_json(self) -> JsonObject:
        """One row of `a2a reclaim --json`."""
        if self.worktree_state == "held":
            out: JsonObject = {"attempt": self.attempt, "worktree": self.worktree,
                               "worktree_state": "held", "changed": False,
                               "reason": self.reason}
        else:
            out = self.payload_json() | {"worktree_state": self.worktree_state,
                                    "changed": self.changed}
        return out | {"review_checkouts": list(self.review_checkouts)}


def reclaim(g: GateContext, attempt_id: str | None = None, force: bool = False
            ) -> list[Reclaimed]:
    """Remove the clean worktrees of ended attempts (or of one), keeping their commits; a
    clone whose writer's pane is not idle or exited is left alone (gate/attempts/handback.py:
    one named attempt is refused, unless the user forces it; the others are listed as held)."""
    require_role(g, "reclaim")
    ledger.require_intact(g)
    if attempt_id is not None:
        att = g.attempt(attempt_id)
        if att.state not in ENDED:
            hint = (f"; {way_out(attempt_id, att.state)}" if att.state in UNRESOLVED
                    else "")
            raise A2AError("attempt_active", f"attempt {attempt_id} is {att.state}: only ended"
                           " attempts (integrated, abandoned, superseded, failed) are reclaimed"
                           + hint)
        if force:
            permit_force(g, att, "reclaim")
        forced = settle(g.store, att, None, what="reclaim", force=force, delivery=False)
        out = [_reclaim_one(g, att, forced)]
    else:
        rows = map(AttemptRecord.of, g.store.all(
            f"SELECT * FROM attempts WHERE state IN ({','.join('?' * len(ENDED))})"
            " AND worktree_state NOT IN ('removed') ORDER BY claimed_ns", ENDED))
        out = [_held(att, found) if (found := holdups(g.store, att, None, delivery=False))
               else _reclaim_one(g, att) for att in rows]
    # and the read-only checkouts its reviews were given
    return [replace(r, review_checkouts=tuple(reclaim_checkouts(g, r.attempt))) for r in out]


def _held(att: AttemptRecord, found: list[Holdup]) -> Reclaimed:
    """What a reclaim of every ended attempt says of one whose writer still holds its clone."""
    return Reclaimed(att.id, att.worktree, "held", reason="; ".join(h.reason for h in found)
                     + f" (`a2a reclaim {att.id}` says what to do)")


def _reclaim_one(g: GateContext, att: AttemptRecord,
                 forced: list[JsonObject] | None = None) -> Reclaimed:
    aid = att.id
    ledger.require_intact(g, att.card_id)
    with op_lock(g.repo.locks_dir, aid, what=f"an operation on {aid}"):
        att = g.attempt(aid)
        path = Path(att.worktree)
        result = Reclaimed(aid, str(path), forced=tuple(forced or ()))
        head = clones.head_of(att) if path.is_dir() else None
        try:
            if head is not None and not clones.bring_in(g, att, head):
                head = None
        except GitError as exc:
            return _record(g, att, "unknown", replace(
                result, reason=f"could not import the clone's head {head[:12]} ({exc.message});"
                               " nothing removed", git=exc.stderr))
        head = head or g.git.ref_value(f"refs/heads/{att.branch}") or att.submitted_sha
        ref = hidden_ref(aid)
        if head:
            current = g.git.ref_value(ref)
            if current != head:
                try:
                    g.git.update_ref(ref, head, current or ZERO_SHA, message=f"a2a keep {aid}")
                except GitError as exc:
                    return _record(g, att, "unknown", replace(
                        result, reason=f"could not keep {head[:12]} under {ref}"
                                       f" ({exc.message}); nothing removed", git=exc.stderr))
            result = replace(result, kept_ref=ref, kept_sha=head)
        if att.worktree_state == "removed":
            return replace(result, worktree_state="removed", changed=False)
        if not path.exists():
            g.git.worktree_prune()
            return _record(g, att, "removed",
                           replace(result, reason="worktree folder already gone"))
        if (path / ".git").is_file():
            return _reclaim_linked(g, att, path, result)
        seen = clones.head_of(att)
        if seen is None or seen != head:
            return _record(g, att, "unknown", replace(
                result, reason="the clone has no head the gate can read, or it moved; kept"))
        kept = _kept_if_dirty(g, att, result, lambda: clones.dirty_files(g, path, head))
        if kept is not None:
            return kept
        if clones.head_of(att) != head:
            return _record(g, att, "unknown", replace(
                result, reason="the clone's head moved while it was checked; kept"))
        try:
            shutil.rmtree(path)
        except OSError as exc:
            return _record(g, att, "unknown",
                           replace(result, reason=f"removing the clone failed: {exc}"))
        return _record(g, att, "removed", result)


def _kept_if_dirty(g: GateContext, att: AttemptRecord, result: Reclaimed,
                   read: Callable[[], list[str]]) -> Reclaimed | None:
    """The record of a worktree kept because `read` found uncommitted paths (or could not
    look); None when it is clean."""
    try:
        files = read()
    except GitError as exc:
        return _record(g, att, "unknown", replace(
            result, reason=f"cannot read the worktree's status:"
                           f" {exc.stderr.strip()[:200] or exc.message} ({exc.code})"))
    if files:
        return _record(g, att, "kept_dirty", replace(
            result, reason=f"{len(files)} uncommitted path(s); kept", files=tuple(files[:50])))
    return None


def _reclaim_linked(g: GateContext, att: AttemptRecord, path: Path,
                    result: Reclaimed) -> Reclaimed:
    """A linked worktree, as claims made before clones left them (its branch is in the
    repository): removed by git when clean, as then."""
    kept = _kept_if_dirty(g, att, result, lambda: g.git.status(path))
    if kept is not None:
        return kept
    try:
        g.git.worktree_remove(path)
    except GitError as exc:
        return _record(g, att, "unknown", replace(
            result, reason=f"git worktree remove failed: {exc.stderr.strip()[:200]}"))
    g.git.delete_branch(att.branch)
    return _record(g, att, "removed", result)


def _record(g: GateContext, att: AttemptRecord, state: str, result: Reclaimed) -> Reclaimed:
    kind = {WorktreeState.REMOVED: GateEvent.WORKTREE_REMOVED,
            WorktreeState.KEPT_DIRTY: GateEvent.WORKTREE_KEPT,
            WorktreeState.UNKNOWN: GateEvent.WORKTREE_UNKNOWN}[state]
    with g.store.write() as tx:
        ledger.record(tx, kind, actor=g.caller.actor, task=att.card_id, attempt=att.id,
                      session=g.caller.session,
                      payload=pa.WORKTREE_OUTCOME[kind].of(result.payload_json()))
        if state != "removed":
            report_kept_worktree(tx, att, result.worktree, result.reason or "",
                                 result.files or ())
    return replace(result, worktree_state=state, changed=True)
