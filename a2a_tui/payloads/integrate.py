"""The payloads of integrate and resolve (gate/integration/; folded by gate/ledger/attempts.py
and targets.py)."""

from __future__ import annotations

from typing import Any

from a2a_tui.kinds import GateEvent as G
from a2a_tui.payloads.base import Payload, key, payload


@payload(G.INTEGRATION_INTENT)
class IntegrationIntent(Payload):
    """The move the gate is about to make: `ref` from `old` to `new`, with the score given."""

    ref: str
    old: str
    new: str
    sync_worktree: str | None = None
    score: dict[str, Any] | None = None
    actor: str | None = None


@payload(G.INTEGRATION_NOT_APPLIED)
class IntegrationNotApplied(Payload):
    """An integrate's outcome: where the ref was `observed`, and git's error, if any."""

    ref: str
    old: str
    new: str
    observed: str | None = None
    recovered: bool = False
    error: dict[str, Any] | None = None


@payload(G.INTEGRATION_UNKNOWN)
class IntegrationUnknown(IntegrationNotApplied):
    pass


@payload(G.INTEGRATED)
class Integrated(IntegrationNotApplied):
    """The move made; the score and what the gate fills in beside it."""

    score: dict[str, Any] | None = None
    worktree_synced: Any = None
    changed_lines: dict[str, Any] | None = None   # added, removed (the metrics read it)
    rounds: int | None = None
    rejections: int | None = None
    duration_s: float | None = None
    facts: dict[str, Any] | None = None


@payload(G.ATTEMPT_RESOLVED)
class AttemptResolved(Payload):
    """The user's resolution of an unknown attempt (`as`: integrated, not_applied,
    abandoned); as integrated, the score of its intent travels here."""

    as_: str = key("as")
    reason: str
    sha: str
    target: str
    user_input: str | None = None
    observed: str | None = None
    target_contains: bool | None = None
    old: str | None = None
    intent_seq: int | None = None
    score: dict[str, Any] | None = None
    rounds: int | None = None
    rejections: int | None = None
    duration_s: float | None = None
    facts: dict[str, Any] | None = None


@payload("integrate_refused")
class IntegrateRefused(Payload):
    """An integration refused after reading the target: its code, the target's head, and
    what the refusal names (the divergence, the dirty files, the lock, git's message...)."""

    code: str
    target_head: str | None = None
    expected: str | None = None
    observed: str | None = None
    files: list[str] | None = None
    lock: str | None = None
    git: str | None = None
    start: str | None = None


TYPES: tuple[type[Payload], ...] = (
    IntegrateRefused, IntegrationIntent, IntegrationNotApplied, IntegrationUnknown, Integrated,
    AttemptResolved)
