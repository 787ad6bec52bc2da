"""The fold of the gate's record of each target branch (gate/integration/targets.py): the
baseline where the gate last left it, and a divergence seen until the user decides. The target
kinds' handlers are given their payload type (a2a_tui/payloads/targets.py)."""

from __future__ import annotations

from a2a_tui.gate.ledger.attempts import Handler
from a2a_tui.gate.ledger.rows import Rows
from a2a_tui.gate.model import Resolution
from a2a_tui.kinds import GateEvent
from a2a_tui.payloads import integrate as pi
from a2a_tui.payloads import targets as t_
from a2a_tui.store import Event

HEADS = "refs/heads/"


def _observed(rows: Rows, ev: Event, p: t_.TargetObserved) -> None:
    """The first look at a target with no record: its baseline
    (gate/attempts/target_record.py seed_in_tx)."""
    rows.put("gate_targets", {"branch": p.target, "baseline": p.head,
                              "source": p.source, "seq": ev.seq, "diverged_head": None,
                              "diverged_seq": None, "finding": None})


def _diverged(rows: Rows, ev: Event, p: t_.TargetDiverged) -> None:
    """A head off the record; the board item raised for it (older events did not name it)."""
    rows.set("gate_targets", (p.target,), diverged_head=p.observed, diverged_seq=ev.seq,
             finding=p.finding)


def _advance(rows: Rows, branch: str, sha: str, source: str, seq: int) -> None:
    """The gate (or the user's resolve) put `branch` at `sha`: the new baseline; a divergence
    seen before stays open."""
    if rows.get("gate_targets", branch) is None:
        rows.add("gate_targets", {"branch": branch, "baseline": sha, "source": source, "seq": seq,
                                  "diverged_head": None, "diverged_seq": None, "finding": None})
    else:
        rows.set("gate_targets", (branch,), baseline=sha, source=source, seq=seq)


def _integrated(rows: Rows, ev: Event, p: pi.Integrated) -> None:
    if p.ref.startswith(HEADS):
        _advance(rows, p.ref[len(HEADS):], p.new, "integrated", ev.seq)


def _resolved(rows: Rows, ev: Event, p: pi.AttemptResolved) -> None:
    """The record moves to the candidate only if nothing was recorded since the move it
    intended; a head beyond it is then seen as a divergence, for the user."""
    if p.as_ != Resolution.INTEGRATED:
        return
    t = rows.get("gate_targets", p.target)
    if t is None or t["baseline"] == p.old:
        _advance(rows, p.target, p.sha, "resolved", ev.seq)


def _decided(source: str) -> Handler:
    """The user decided (adopt, restore): the head is the baseline, the divergence is closed."""
    def handle(rows: Rows, ev: Event, p: t_.TargetAdopted | t_.TargetRestored) -> None:
        rows.set("gate_targets", (p.target,), baseline=p.head,
                 source=source, seq=ev.seq, diverged_head=None, diverged_seq=None, finding=None)
    return handle


HANDLERS: dict[GateEvent, Handler] = {
    GateEvent.TARGET_OBSERVED: _observed,
    GateEvent.TARGET_DIVERGED: _diverged,
    GateEvent.INTEGRATED: _integrated,
    GateEvent.ATTEMPT_RESOLVED: _resolved,
    GateEvent.TARGET_ADOPTED: _decided("adopted"),
    GateEvent.TARGET_RESTORED: _decided("restored"),
}
