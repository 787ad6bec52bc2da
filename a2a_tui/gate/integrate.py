"""integrate: advance the target branch to the verified SHA by compare-and-swap.

Intent first (in the store), then `git update-ref <ref> <new> <old>`, then an independent
read-back, then the outcome. A crash anywhere in between is resolved by reading the ref,
never by guessing (see recover.py).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.faults import crashpoint
from a2a_tui.gate.attempts import insert_score, score_facts
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.locks import op_lock
from a2a_tui.gate.model import Score
from a2a_tui.gate.review import blocking_review
from a2a_tui.gate.verdicts import last_verdict
from a2a_tui.git import GitError


def integrate(g: GateContext, attempt_id: str, score: Score) -> dict[str, Any]:
    g.attempt(attempt_id)
    with op_lock(g.repo.locks_dir, attempt_id, what=f"an operation on {attempt_id}"):
        att = g.attempt(attempt_id)
        if att["state"] != "verified":
            raise A2AError("not_verified",
                           f"attempt {attempt_id} is {att['state']}: only a verified"
                           " candidate can be integrated (`a2a verify` first)")
        if not g.caller.is_user and g.caller.actor == att["writer"]:
            raise A2AError("writer_cannot_integrate",
                           f"{g.caller.describe()} wrote {attempt_id}; integration is for the"
                           " executive controller or the user")
        sha = att["submitted_sha"]
        card = g.card(att["card_id"])
        last = last_verdict(g.store, attempt_id)  # an interrupted run decided nothing
        if (last is None or last["state"] != "passed" or last["sha"] != sha
                or last["submission_n"] != att["submission_n"]):
            raise A2AError("not_verified",
                           f"no passing verification of {sha[:12]} for {attempt_id}")
        if last["card_version"] != card["version"] or card["state"] != "ready":
            raise A2AError("stale_card_version",
                           f"{attempt_id} was verified against card version {last['card_version']};"
                           f" the card is now version {card['version']} ({card['state']}):"
                           " confirm the card, resubmit and verify again")
        failed = g.store.one(
            "SELECT name FROM check_results WHERE attempt_id=? AND run=? AND blocking=1"
            " AND passed=0",
            (attempt_id, last["run"]))
        if failed is not None:
            raise A2AError("not_verified", f"blocking check {failed['name']} did not pass")
        blocked = blocking_review(g, attempt_id, sha)
        if blocked is not None:
            raise A2AError("review_blocked", f"reviewer session {blocked['session']} blocked"
                           f" {sha[:12]}: {blocked['notes'][:200]}")
        ref = f"refs/heads/{att['target_branch']}"
        old = g.git.ref_value(ref)
        if old is None:
            raise A2AError("no_target", f"target branch {att['target_branch']} does not exist")
        if not g.git.is_ancestor(old, sha):
            _diagnose(g, att, "target_moved", old)
            raise A2AError("target_moved",
                           f"{att['target_branch']} moved to {old[:12]} since the claim and the"
                           f" verified candidate {sha[:12]} does not contain it; integrating would"
                           " land an unverified tree. Start a new attempt from the new head.")
        sync = None
        if g.git.current_branch(g.repo.root) == att["target_branch"]:
            dirty = _blocking_changes(g, g.repo.root, old, sha)
            if dirty:
                _diagnose(g, att, "main_worktree_dirty", old, files=dirty[:20])
                raise A2AError(
                    "main_worktree_dirty",
                    f"{att['target_branch']} is checked out in {g.repo.root} with uncommitted"
                    f" changes ({len(dirty)} path(s)); commit or stash them, then integrate again."
                    " Nothing was changed.")
            sync = str(g.repo.root)
        with g.store.write() as tx:
            seq = tx.append("integration_intent", actor=g.caller.actor, task=att["card_id"],
                            attempt=attempt_id, session=g.caller.session,
                            payload={"ref": ref, "old": old, "new": sha, "sync_worktree": sync,
                                     "score": score.to_json(), "actor": g.caller.actor})
            tx.execute("INSERT OR REPLACE INTO integrations(attempt_id, state, ref, old_sha,"
                       " new_sha, sync_worktree, intent_seq) VALUES (?,?,?,?,?,?,?)",
                       (attempt_id, "intent", ref, old, sha, sync, seq))
            tx.execute("UPDATE attempts SET state='integrating', updated_seq=? WHERE id=?",
                       (seq, attempt_id))
        crashpoint("integrate:after_intent")
        g.git.update_ref(ref, sha, old, message=f"a2a integrate {attempt_id}")
        crashpoint("integrate:after_update_ref")
        return resolve_intent(g, attempt_id, actor=g.caller.actor)


def resolve_intent(g: GateContext, attempt_id: str, *, actor: str, recovering: bool = False
                   ) -> dict[str, Any]:
    """Read the ref back and record what it shows. Called with the attempt's lock held."""
    it = g.store.one("SELECT * FROM integrations WHERE attempt_id=?", (attempt_id,))
    att = g.attempt(attempt_id)
    intent = g.store.one("SELECT payload FROM events WHERE seq=?", (it["intent_seq"],))
    score_json = json.loads(intent["payload"])["score"]
    score = Score(**score_json)
    observed = g.git.ref_value(it["ref"])
    synced = None
    if observed == it["new_sha"] and it["sync_worktree"]:
        synced = _sync_worktree(g, Path(it["sync_worktree"]), it["old_sha"], it["new_sha"],
                                att["target_branch"])
    now = time.time_ns()
    with g.store.write() as tx:
        base = {"ref": it["ref"], "old": it["old_sha"], "new": it["new_sha"], "observed": observed,
                "recovered": recovering}
        if observed == it["new_sha"]:
            facts = score_facts(tx, att, now)
            seq = tx.append("integrated", actor=actor, task=att["card_id"], attempt=attempt_id,
                            payload={**base, "score": score_json, "worktree_synced": synced,
                                     **facts})
            tx.execute("UPDATE integrations SET state='integrated', outcome_seq=?"
                       " WHERE attempt_id=?", (seq, attempt_id))
            tx.execute("UPDATE attempts SET state='integrated', ended_ns=?, updated_seq=?"
                       " WHERE id=?", (now, seq, attempt_id))
            insert_score(tx, attempt_id, "integrated", score, facts, actor, seq)
            state = "integrated"
        else:
            # Not moved (the CAS did not apply: the candidate stays verified) or moved elsewhere
            # (nobody can say what happened: unknown, for a person to decide).
            state, att_state = (("not_applied", "verified") if observed == it["old_sha"]
                                else ("unknown", "unknown"))
            seq = tx.append(f"integration_{state}", actor=actor, task=att["card_id"],
                            attempt=attempt_id, payload=base)
            tx.execute("UPDATE integrations SET state=?, outcome_seq=? WHERE attempt_id=?",
                       (state, seq, attempt_id))
            tx.execute("UPDATE attempts SET state=?, updated_seq=? WHERE id=?",
                       (att_state, seq, attempt_id))
    result = {"attempt": attempt_id, "state": state, "target": att["target_branch"],
              "old": it["old_sha"], "new": it["new_sha"], "observed": observed,
              "worktree_synced": synced, "recovered": recovering}
    if state == "not_applied" and not recovering:
        raise A2AError("cas_failed", f"{att['target_branch']} did not move: it changed under us"
                       f" (still {observed[:12] if observed else 'missing'});"
                       " nothing was integrated",
                       details=result)
    if state == "unknown" and not recovering:
        raise A2AError("outcome_unknown", f"{it['ref']} is {observed or 'missing'}, neither the old"
                       " nor the new commit: the outcome is unknown; look and decide",
                       details=result)
    return result


def _sync_worktree(g: GateContext, root: Path, old: str, new: str, branch: str) -> bool | str:
    """Bring the main worktree from `old` to `new` if it still shows `old` and is clean."""
    if g.git.current_branch(root) != branch:
        return "not checked out"
    index_tree = g.git.write_tree(root)
    if index_tree == g.git.tree_of(new) and not g.git.differs_from(new, root):
        return True
    if index_tree != g.git.tree_of(old) or g.git.differs_from(old, root):
        return "left alone: the worktree changed"
    try:
        g.git.read_tree(old, new, root)
    except GitError as exc:
        return f"{exc.operation} failed: {exc.stderr.strip()[:200]}"
    return True


def _blocking_changes(g: GateContext, root: Path, old: str, new: str) -> list[str]:
    """Uncommitted changes to tracked files, and untracked files the new tree would overwrite."""
    out = g.git.status(root, untracked=False)
    incoming = set(g.git.changed_paths(old, new))
    return out + [f"?? {p}" for p in g.git.untracked_files(root) if p in incoming]


def _diagnose(g: GateContext, att, code: str, head: str, **extra: Any) -> None:
    with g.store.write() as tx:
        tx.append("integrate_refused", actor=g.caller.actor, task=att["card_id"], attempt=att["id"],
                  session=g.caller.session, payload={"code": code, "target_head": head, **extra})
