"""The payloads of cards and attempts (gate/cards/commands.py, gate/attempts/; folded by
gate/ledger/attempts.py). A field marked "older" is one an older a2a wrote, read and never
written."""

from __future__ import annotations

from typing import Any

from a2a_tui.kinds import GateEvent as G
from a2a_tui.payloads.base import Payload, key, payload


@payload(G.CARD_ADDED)
class CardAdded(Payload):
    """A card's version as stored: its body, digest, and the file it came from."""

    version: int
    digest: str
    source: str | None = None
    card: dict[str, Any]
    filled: list[str] = ()   # type: ignore[assignment]  # what the gate filled in


@payload(G.CARD_VERSIONED)
class CardVersioned(CardAdded):
    """A new version of the card's contract (a draft again)."""


@payload(G.CARD_REVISED)
class CardRevised(CardAdded):
    """A change outside the contract, in the same version."""


@payload(G.CARD_READY)
class CardReady(Payload):
    version: int
    digest: str | None = None


@payload(G.ATTEMPT_SUPERSEDED)
class AttemptSuperseded(Payload):
    """An open attempt replaced by a new claim (`by`); `forced`: what the user's override
    settled."""

    by: str
    fence: int
    was: str
    forced: Any = None


@payload(G.CLAIMED)
class Claimed(Payload):
    """An attempt started: its fence, clone, branch, start and target. `follows`: the attempt
    before (since migration 14); `budget`: [this attempt's number, the card's retry budget]."""

    fence: int
    branch: str
    worktree: str
    start_commit: str
    card_version: int
    writer: str
    target_branch: str
    follows: str | None = None
    budget: list[int | None] | None = None


@payload(G.WORKTREE_CREATED)
class WorktreeCreated(Payload):
    path: str | None = None
    branch: str | None = None
    start_commit: str | None = None
    layout: str | None = None
    recovered: bool = False


@payload(G.WORKTREE_FAILED)
class WorktreeFailed(Payload):
    """A claim's clone failed; a recovered one says whether its folder was left (`exists`;
    before clones: `branch_exists`, `registered`)."""

    error: str | None = None
    git: str | None = None
    recovered: bool = False
    clone_head: str | None = None
    exists: bool | None = None
    branch_exists: bool | None = None   # older
    registered: bool | None = None      # older


@payload(G.WRITER_BOUND)
class WriterBound(Payload):
    from_: str = key("from")
    to: str
    fence: int


@payload(G.SUBMITTED)
class Submitted(Payload):
    """A candidate: its number, commit, card version and fence; the board items it left open;
    the writer's own account of its checks, when it gave one."""

    n: int
    sha: str
    card_version: int
    fence: int
    unresolved: list[Any] = ()   # type: ignore[assignment]
    self_check: Any = None


@payload(G.ABANDONED)
class Abandoned(Payload):
    reason: str
    score: dict[str, Any] | None = None
    rounds: int | None = None
    rejections: int | None = None
    duration_s: float | None = None
    facts: dict[str, Any] | None = None
    changed_lines: dict[str, Any] | None = None   # added, removed (the metrics read it)
    forced: Any = None


@payload(G.LEASE_EXPIRED)
class LeaseExpired(Payload):
    writer: str
    last_report_ns: int | None = None
    expires_ns: int | None = None
    fence: int | None = None


@payload(G.LEASE_RENEWED)
class LeaseRenewed(Payload):
    isolated: int | None = None   # the seq of the expiry it ends
    reason: str | None = None


@payload(G.WORKTREE_REMOVED)
class WorktreeRemoved(Payload):
    """What a reclaim did with the attempt's clone; its commits are kept under `kept_ref`."""

    attempt: str | None = None
    worktree: str | None = None
    forced: Any = None
    kept_ref: str | None = None
    kept_sha: str | None = None
    reason: str | None = None
    git: str | None = None
    files: list[str] | None = None


@payload(G.WORKTREE_KEPT)
class WorktreeKept(WorktreeRemoved):
    """A clone kept: uncommitted paths in it (`files`)."""


@payload(G.WORKTREE_UNKNOWN)
class WorktreeUnknown(WorktreeRemoved):
    """A clone the gate could not read or remove (`reason`)."""


@payload("card_weakening_refused")
class CardWeakeningRefused(Payload):
    """A session's new version of a card under way that weakens its checks, refused."""

    version: int
    weakens: list[str]
    message: str


@payload("attempt_assigned")
class AttemptAssigned(Payload):
    """A session started on an attempt was given its task (the dispatch), by whom."""

    dispatch: int
    by: str


@payload("submit_refused")
class SubmitRefused(Payload):
    """A refused submission, kept as a diagnostic: the code, and what the caller gave."""

    code: str
    message: str
    sha: str
    fence: int | None = None
    card_version: int | None = None


# The reclaim's three outcomes, by kind (gate/attempts/cleanup.py records one).
WORKTREE_OUTCOME: dict[str, type[WorktreeRemoved]] = {
    G.WORKTREE_REMOVED: WorktreeRemoved, G.WORKTREE_KEPT: WorktreeKept,
    G.WORKTREE_UNKNOWN: WorktreeUnknown}
# A card's version as stored, by kind (gate/cards/commands.py records one).
CARD_BODY: dict[str, type[CardAdded]] = {
    G.CARD_ADDED: CardAdded, G.CARD_VERSIONED: CardVersioned, G.CARD_REVISED: CardRevised}

TYPES: tuple[type[Payload], ...] = (
    CardAdded, CardVersioned, CardRevised, CardReady, AttemptSuperseded, Claimed,
    WorktreeCreated, WorktreeFailed, WriterBound, Submitted, Abandoned, LeaseExpired,
    LeaseRenewed, WorktreeRemoved, WorktreeKept, WorktreeUnknown, CardWeakeningRefused,
    AttemptAssigned, SubmitRefused,
)
