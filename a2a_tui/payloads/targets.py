"""The payloads of the gate's record of its target branches (gate/attempts/target_record.py,
gate/integration/targets.py; folded by gate/ledger/targets.py)."""

from __future__ import annotations

from a2a_tui.kinds import GateEvent as G
from a2a_tui.payloads.base import Payload, key, payload


@payload(G.TARGET_OBSERVED)
class TargetObserved(Payload):
    """The first look at a target with no record: its head, the baseline from now on."""

    target: str
    head: str
    source: str


@payload(G.TARGET_DIVERGED)
class TargetDiverged(Payload):
    """A head off the record, and the board item raised for it (older events name none)."""

    target: str
    expected: str
    observed: str
    reflog: list[str] = ()   # type: ignore[assignment]
    baseline_seq: int | None = None
    baseline_source: str | None = None
    finding: str | None = None


@payload(G.TARGET_ADOPTED)
class TargetAdopted(Payload):
    """The user took the diverged head as the new baseline."""

    target: str
    previous: str
    head: str
    reason: str
    user_input: str
    diverged_seq: int | None = None


@payload(G.TARGET_RESTORED)
class TargetRestored(Payload):
    """The user put the target back at its baseline (`head`), from the diverged head."""

    target: str
    from_: str = key("from")
    head: str
    moved: bool
    reason: str
    user_input: str
    intent_seq: int | None = None
    worktree_synced: bool | str | None = None


@payload("target_restore_intent")
class TargetRestoreIntent(Payload):
    """The user's restore, about to move the target back (`from` the head `to` the baseline)."""

    target: str
    from_: str = key("from")
    to: str
    user_input: str


@payload("target_restore_failed")
class TargetRestoreFailed(Payload):
    """A restore that could not move the target: git's code and message, where it is."""

    target: str
    intent_seq: int
    code: str
    git: str | None = None
    observed: str | None = None


TYPES: tuple[type[Payload], ...] = (TargetObserved, TargetDiverged, TargetAdopted, TargetRestored,
                                    TargetRestoreIntent, TargetRestoreFailed)
