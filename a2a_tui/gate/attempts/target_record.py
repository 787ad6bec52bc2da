"""The gate's own record of each target branch: where it last left it, compared with the
branch's head before a claim starts from it and before an integration moves it (`observe`),
under the target's lock. Any difference is a divergence, recorded once per head seen and raised
as a protected board item; the user's answers (`a2a target adopt|restore`) are
gate/integration/targets.py. With the attempts, because a claim reads it first; the integration
builds on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import quote

from a2a_tui.collab.board import post_finding_in_tx
from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate.attempts.locks import op_lock
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.ledger import GateEvent
from a2a_tui.git import GitError, error_line
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads import targets as pt

# The target lock is held for a compare and a move (and a worktree sync): briefly. A claim or an
# integration waits this long for another one into the same target rather than failing at once.
LOCK_WAIT_S = 15.0

SOURCE = {"init": "the head seen at `a2a init`", "first_seen": "the head it first saw",
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

    def to_json(self) -> JsonObject:
        return {"target": self.branch, "baseline": self.baseline, "source": self.source,
                "seq": self.seq, "diverged": self.diverged_head is not None,
                "diverged_head": self.diverged_head, "diverged_seq": self.diverged_seq,
                "finding": self.finding}


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
        refuse_pending(tx, branch)
        t = view(tx, branch) or seed_in_tx(tx, branch, head)
        if t.diverged_head is None and head == t.baseline:
            return head
        if t.diverged_head != head:
            finding = t.finding or post_finding_in_tx(
                tx, title=f"{branch} moved outside the gate", blocking=True, category="other",
                body=f"{branch} is at {head}, not at {t.baseline} where the gate last left it"
                     f" ({SOURCE[t.source]}, event #{t.seq}). Nothing integrates into"
                     f" {branch} until the user decides: `a2a target adopt {branch}` keeps"
                     f" the new head, `a2a target restore {branch}` moves it back.\n"
                     + "\n".join(reflog[:10]),
                actor="gate", session=None, task=task, attempt=attempt)
            ledger.record(tx, GateEvent.TARGET_DIVERGED, actor="gate", task=task, attempt=attempt,
                          payload=pt.TargetDiverged(
                              target=branch, expected=t.baseline, observed=head, reflog=reflog,
                              baseline_seq=t.seq, baseline_source=t.source, finding=finding))
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
        msg = (f"{t.branch} is at {head[:12]}, not at {t.baseline[:12]} ({SOURCE[t.source]}):"
               f" it was moved outside the gate{f' (reflog: {said})' if said else ''};"
               f" {decide}")
    return A2AError("target_diverged", msg, details={
        "target": t.branch, "expected": t.baseline, "observed": head, "reflog": reflog,
        "finding": t.finding})


def refuse_pending(tx, branch: str) -> None:
    # Under the target lock a pending intent has a dead owner (its integrate held this lock).
    row = tx.one("SELECT attempt_id FROM integrations WHERE state='intent' AND ref=?",
                 (ref_of(branch),))
    if row is not None:
        raise A2AError("integration_pending",
                       f"the integration of {row['attempt_id']} into {branch} was left"
                       " half-done; `a2a recover` reads its outcome from the branch")


def seed_in_tx(tx, branch: str, head: str) -> TargetView:
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
                  payload=pt.TargetObserved(target=branch, head=baseline, source=source))
    t = view(tx, branch)
    assert t is not None
    return t


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
