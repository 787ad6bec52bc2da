"""Resolve what a crash left half-done, by reading facts: never guess, never retry blindly.

Run at the start of every gate command and by `a2a recover`. A record is looked at only when
its operation lock is free, i.e. its owner is gone.
"""

from __future__ import annotations

from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate.attempts import clones
from a2a_tui.gate.attempts.locks import lock_is_free, op_lock
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.integration.advance import resolve_intent
from a2a_tui.gate.ledger import GateEvent
from a2a_tui.gate.ledger.records import AttemptRecord
from a2a_tui.git import clone_head
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads import attempts as pa
from a2a_tui.payloads import verify as pv


def recover(g: GateContext) -> list[JsonObject]:
    """Settle what crashed operations left; what was settled, as `a2a recover --json` and every
    command's `recovered` say it."""
    done: list[JsonObject] = []
    for it in g.store.all("SELECT attempt_id FROM integrations WHERE state='intent'"):
        aid = it["attempt_id"]
        try:
            with op_lock(g.repo.locks_dir, aid):
                row = g.store.one("SELECT state FROM integrations WHERE attempt_id=?", (aid,))
                if row["state"] == "intent":
                    res = resolve_intent(g, aid, actor="gate", recovering=True)
                    done.append({"kind": "integration", **res.to_json()})
        except A2AError as exc:
            if exc.code != "busy":
                raise
    for v in g.store.all("SELECT attempt_id, run, sha FROM verifications WHERE state='running'"):
        aid = v["attempt_id"]
        if not lock_is_free(g.repo.locks_dir, aid):
            continue
        with op_lock(g.repo.locks_dir, aid), g.store.write() as tx:
            row = tx.one("SELECT state FROM verifications WHERE attempt_id=? AND run=?",
                         (aid, v["run"]))
            if row["state"] != "running":
                continue
            # A verify changes nothing outside the store: it is safe to run again later.
            ledger.record(tx, GateEvent.VERIFY_INTERRUPTED, actor="gate", attempt=aid,
                          task=aid.rsplit("-a", 1)[0],
                          payload=pv.VerifyInterrupted(run=v["run"], sha=v["sha"],
                                                       recovered=True))
            done.append({"kind": "verification", "attempt": aid, "run": v["run"],
                         "state": "interrupted"})
    for row in g.store.all("SELECT * FROM attempts WHERE worktree_state='pending'"):
        att = AttemptRecord.of(row)
        if not lock_is_free(g.repo.locks_dir, f"card-{att.card_id}"):
            continue
        done.append(_pending_worktree_json(g, att))
    return done


def _pending_worktree_json(g: GateContext, att: AttemptRecord) -> JsonObject:
    """A claim that died before recording its clone: look at what is on disk. A clone whose
    head is the start commit and whose files match it is the claim's, complete; anything
    else is failed (its folder kept as unknown, for the user to look at)."""
    path = Path(att.worktree)
    head = clone_head(path)
    complete = False
    if head == att.start_commit:
        try:
            complete = not clones.dirty_files(g, path, head)
        except A2AError:
            complete = False
    with g.store.write() as tx:
        if complete:
            ledger.record(tx, GateEvent.WORKTREE_CREATED, actor="gate", task=att.card_id,
                          attempt=att.id, payload=pa.WorktreeCreated(
                              path=str(path), recovered=True, start_commit=att.start_commit,
                              layout="clone"))
            return {"kind": "claim", "attempt": att.id, "worktree_state": "present"}
        # A folder left on disk stays, as unknown, for the user (gate/ledger/attempts.py).
        ledger.record(tx, GateEvent.WORKTREE_FAILED, actor="gate", task=att.card_id,
                      attempt=att.id, payload=pa.WorktreeFailed(
                          recovered=True, clone_head=head, exists=path.exists(),
                          error="the claim died before its worktree was recorded"))
        return {"kind": "claim", "attempt": att.id, "state": "failed"}
