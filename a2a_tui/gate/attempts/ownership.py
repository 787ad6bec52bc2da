"""claim, submit and abandon: ownership of an attempt, fenced by a strictly increasing epoch."""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass

from a2a_tui.collab.authorization import claim_refusal
from a2a_tui.errors import A2AError
from a2a_tui.faults import crashpoint
from a2a_tui.gate import ledger
from a2a_tui.gate.attempts import clones
from a2a_tui.gate.attempts.facts import ObjectiveFacts, objective_facts
from a2a_tui.gate.attempts.handback import clone_head, permit_force, settle
from a2a_tui.gate.attempts.leases import budget_refusal, enforce, previous
from a2a_tui.gate.attempts.locks import op_lock
from a2a_tui.gate.attempts.openitems import clean as clean_open_items
from a2a_tui.gate.attempts.target_record import observe, target_lock
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.escalate import tell_dispatcher
from a2a_tui.gate.ledger import GateEvent
from a2a_tui.gate.ledger.records import AttemptRecord, attempt_in
from a2a_tui.gate.model import (
    ACTIVE,
    SUBMITTABLE,
    UNRESOLVED,
    AttemptState,
    CardState,
    CommandResult,
    Score,
    parse_scores,
    way_out,
)
from a2a_tui.gate.roles import require_role
from a2a_tui.git import FULL_SHA, ZERO_SHA, GitError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads import attempts as pa
from a2a_tui.queue import wake


@dataclass(frozen=True)
class Claimed(CommandResult):
    attempt: str
    card: str
    fence: int
    branch: str
    worktree: str
    start_commit: str
    card_version: int
    writer: str
    superseded: tuple[str, ...]     # the card's attempts this claim fenced out


@dataclass(frozen=True)
class Submitted(CommandResult):
    attempt: str
    submission: int
    sha: str
    card_version: int
    fence: int
    state: AttemptState
    unresolved: tuple[str, ...]     # what the writer left open, kept with the candidate


@dataclass(frozen=True)
class Abandoned(CommandResult):
    attempt: str
    state: AttemptState
    score: Score | None             # None: an untouched attempt, nothing to judge
    rounds: int
    rejections: int
    duration_s: float
    facts: ObjectiveFacts           # beside the score (gate/attempts/facts.py)


@dataclass(frozen=True)
class WriterBound(CommandResult):
    attempt: str
    writer: str
    previous: str
    fence: int


def submitted_ref(attempt_id: str, n: int) -> str:
    """Where submission `n` of an attempt is kept from the moment it is submitted: git keeps a
    commit only while a ref reaches it, and the branch and worktree that reach it are the
    worker's, and the user's to clean up (reclaim keeps `refs/a2a/attempts/` later)."""
    return f"refs/a2a/submitted/{attempt_id}/{n}"


def claim(g: GateContext, card_id: str, *, writer: str | None = None,
          supersede: bool = False, force: bool = False, again: bool = False) -> Claimed:
    """Atomically allocate attempt n, a new fence, and a clone of the repository on a new
    branch at the target head (gate/attempts/clones.py: the agent writes only the clone's `.git`).

    The target must be where the gate last left it (targets.observe). The store transaction
    decides the winner; git runs only after it commits. A superseded attempt is taken from its
    writer only once it is done with it (gate/attempts/handback.py; `force`: the user's alone).
    """
    require_role(g, "claim")
    cfg = g.config
    g.card(card_id)  # unknown card: a clear error before anything else
    ledger.require_intact(g, card_id)
    from a2a_tui.gate.cards import gate_rules  # pydantic: only here (start-up)

    budget = gate_rules.load(g).rules.retry_budget
    writer = writer or g.caller.actor
    with op_lock(g.repo.locks_dir, f"card-{card_id}", what=f"a claim of {card_id}"):
        with g.store.snapshot() as tx:  # what needs no git is refused before the target is read
            _, active = _claim_refusal(tx, card_id, supersede, budget, again)
        olds = [g.attempt(old.id) for old in active]
        for old in olds if force else ():
            permit_force(g, old, "claim --supersede")
        heads = {old.id: clone_head(old) for old in olds}   # git, before the transaction
        with target_lock(g, cfg.target_branch):
            start = observe(g, cfg.target_branch, task=card_id)
        with g.store.write() as tx:
            card, active = _claim_refusal(tx, card_id, supersede, budget, again)
            follows = previous(tx, card_id)
            forced = {old.id: settle(tx, old, heads.get(old.id),
                                        what="claim --supersede of", force=force)
                      for old in active}
            n = 1 + (tx.one("SELECT COALESCE(MAX(n), 0) FROM attempts WHERE card_id=?",
                            (card_id,))[0])
            fence = card["fence"] + 1
            attempt_id = f"{card_id}-a{n}"
            branch = f"a2a/{attempt_id}"
            worktree = g.repo.worktrees_dir / attempt_id
            for old in active:
                overridden = forced[old.id]
                ledger.record(tx, GateEvent.ATTEMPT_SUPERSEDED, actor=g.caller.actor, task=card_id,
                              attempt=old.id, session=g.caller.session,
                              payload=pa.AttemptSuperseded(by=attempt_id, fence=fence,
                                                           was=old.state,
                                                           forced=overridden or None))
            ledger.record(
                tx, GateEvent.CLAIMED, actor=g.caller.actor, task=card_id, attempt=attempt_id,
                session=g.caller.session,
                payload=pa.Claimed(fence=fence, branch=branch, worktree=str(worktree),
                                   start_commit=start, card_version=card["version"],
                                   writer=writer, target_branch=cfg.target_branch,
                                   follows=follows, budget=[n, budget]))
        crashpoint("claim:after_record")
        # Outside the transaction: git.
        try:
            g.repo.worktrees_dir.mkdir(parents=True, exist_ok=True)
            g.git.make_clone(worktree, branch, start, cfg.target_branch, g.git.identity())
            crashpoint("claim:after_clone")
        except (A2AError, OSError) as exc:
            shutil.rmtree(worktree, ignore_errors=True)   # nothing half-made stays
            exc = exc if isinstance(exc, A2AError) else A2AError("worktree_failed", str(exc))
            with g.store.write() as tx:
                ledger.record(tx, GateEvent.WORKTREE_FAILED, actor="gate", task=card_id,
                              attempt=attempt_id, payload=pa.WorktreeFailed(
                                  error=exc.message, git=getattr(exc, "stderr", None)))
            raise A2AError("worktree_failed",
                           f"claim {attempt_id} recorded but its worktree failed:"
                           f" {exc.message}") from exc
        with g.store.write() as tx:
            ledger.record(tx, GateEvent.WORKTREE_CREATED,
                          actor="gate", task=card_id, attempt=attempt_id,
                          payload=pa.WorktreeCreated(path=str(worktree), branch=branch,
                                                     start_commit=start, layout="clone"))
    return Claimed(attempt_id, card_id, fence, branch, str(worktree), start, card["version"],
                   writer, tuple(a.id for a in active))


def _claim_refusal(tx, card_id: str, supersede: bool, budget: int, again: bool):
    """The card and its active attempts, if `card_id` may be claimed now; else the refusal."""
    card = tx.one("SELECT * FROM cards WHERE id = ?", (card_id,))
    if card["state"] != CardState.READY:
        raise A2AError("card_not_ready",
                       f"card {card_id} is {card['state']}: mark it ready first"
                       f" (`a2a card ready {card_id}`)")
    done = tx.one("SELECT id FROM attempts WHERE card_id = ? AND state = ? ORDER BY n DESC",
                  (card_id, AttemptState.INTEGRATED))
    if done is not None and not again:   # its work is in the target: new work is a choice
        raise A2AError("card_integrated",
                       f"card {card_id} was integrated by {done['id']}: its work is in the"
                       f" target already; `a2a claim {card_id} --again` starts another attempt")
    _check_authorization(tx, card_id)
    active = [AttemptRecord.of(r) for r in tx.all(
        f"SELECT * FROM attempts WHERE card_id = ? AND state IN"
        f" ({','.join('?' * len(ACTIVE))})", (card_id, *ACTIVE))]
    if active and not supersede:
        raise A2AError(
            "already_claimed",
            f"card {card_id} is already claimed by attempt {active[0].id}"
            f" ({active[0].state}); use --supersede to take it over")
    for old in active:
        if old.state in UNRESOLVED:
            raise A2AError("attempt_unresolved", f"attempt {old.id} is {old.state}:"
                           f" {way_out(old.id, old.state)}")
    spent = budget_refusal(tx, card_id, budget)
    if spent is not None:
        raise spent
    return card, active


def _check_authorization(tx, card_id: str) -> None:
    """A card that needs the user's authorization is claimable only through an authorized assign.

    The inbox lives in the collaboration records; when it holds no assignment for this card, or
    only unauthorized ones, the claim is refused.
    """
    reason = claim_refusal(tx, card_id)
    if reason:
        raise A2AError("unauthorized_assignment", reason)


def submit(g: GateContext, attempt_id: str, sha: str, card_version: int,
           fence: int, unresolved: list[str] | None = None,
           self_check: dict[str, str] | None = None) -> Submitted:
    """Accept a candidate only from the current owner: full SHA, current fence and card version.

    A refusal against a real attempt is kept as a diagnostic event and changes no state.
    `self_check`: the worker's own check (what it ran, what it saw: gate/attempts/selfcheck.py),
    kept with the submission and never read by the gate's decisions.
    """
    att = g.attempt(attempt_id)
    ledger.require_intact(g, att.card_id)
    require_role(g, "submit", attempt=att)
    open_items = clean_open_items(unresolved)
    sha_in = sha
    sha = sha.strip().lower()

    def refuse(code: str, message: str) -> A2AError:
        with g.store.write() as tx:
            tx.append("submit_refused", actor=g.caller.actor, task=att.card_id,
                      attempt=attempt_id, session=g.caller.session,
                      payload=pa.SubmitRefused(code=code, message=message, sha=sha_in,
                                                       fence=fence, card_version=card_version))
        return A2AError(code, message)

    found = _candidate_refusal(g, att, sha, sha_in)
    if found is not None:
        raise refuse(*found[:2]) from found[2]
    # The evidence is pinned before the record says it was submitted (git never runs inside
    # the transaction); a submission refused below leaves a pin that the next one replaces.
    pinned_n, pin = att.submission_n + 1, submitted_ref(attempt_id, att.submission_n + 1)
    try:
        _pin(g, pin, sha, f"a2a: {attempt_id} submission {pinned_n}")
    except GitError as exc:
        raise refuse(exc.code, f"could not keep {sha[:12]} under {pin}: {exc.message}") from exc
    lease_s = _lease_s(g)
    with g.store.write() as tx:
        att = attempt_in(tx, attempt_id)
        card = tx.one("SELECT * FROM cards WHERE id = ?", (att.card_id,))
        problem = _record_refusal(g, att, card, fence, card_version, pinned_n)
        isolated = enforce(g, tx, att, lease_s, time.time_ns()) if problem is None else None
        if isolated is not None:
            problem = (isolated.code, isolated.message)
        elif problem is None:
            n = att.submission_n + 1
            ledger.record(tx, GateEvent.SUBMITTED, actor=g.caller.actor, task=att.card_id,
                          attempt=attempt_id, session=g.caller.session,
                          payload=pa.Submitted(n=n, sha=sha, card_version=card_version,
                                               fence=fence, unresolved=open_items,
                                               self_check=self_check or None))
            told = tell_dispatcher(tx, attempt_id, f"{attempt_id} submitted {sha} (card"
                                   f" {att.card_id} v{card_version}, submission {n}):"
                                   f" `a2a verify {attempt_id}` checks it.")
    if problem is not None:
        raise refuse(*problem)
    if told is not None:
        wake(g.repo)   # the executive that dispatched it is told (after the commit)
    return Submitted(attempt_id, n, sha, card_version, fence, AttemptState.SUBMITTED,
                     tuple(open_items))


IMPORT_REFUSALS = ("tree_refused", "clone_unsafe", "git_timeout")


def _candidate_refusal(g: GateContext, att: AttemptRecord, sha: str, sha_in: str
                       ) -> tuple[str, str, A2AError | None] | None:
    """Why `sha` cannot be the attempt's candidate (code, message, the error behind it), read
    from git before anything is recorded; None when it can."""
    if not FULL_SHA.match(sha):
        return "bad_sha", f"{sha_in!r} is not a full 40-hex commit SHA", None
    try:
        # The commit is in the attempt's clone: imported, verified, pinned
        # (gate/attempts/clones.py).
        present = clones.bring_in(g, att, sha)
    except A2AError as exc:
        # What the clone holds was refused by name (its objects, a name git reserves, a time
        # limit): that code; any other failure of git is `import_failed`.
        why = f"{sha} could not be brought in from the attempt's clone: {exc.message}"
        if exc.code in IMPORT_REFUSALS:
            return exc.code, why, exc
        return ("import_failed", why, exc)
    if not present or not g.git.object_is_commit(sha):
        return "bad_sha", f"{sha} is not a commit in the attempt's clone or the repository", None
    if sha == att.start_commit:
        return "empty_submission", f"{sha} is the start commit itself: nothing was delivered", None
    if not g.git.is_ancestor(att.start_commit, sha):
        return ("not_descendant", f"{sha} does not descend from the start commit"
                f" {att.start_commit[:12]}", None)
    return None


def _record_refusal(g: GateContext, att: AttemptRecord, card, fence: int, card_version: int,
                    pinned_n: int) -> tuple[str, str] | None:
    """Why the record refuses the submission now, under the write lock (code, message)."""
    attempt_id = att.id
    if att.state not in SUBMITTABLE:
        return ("attempt_not_open",
                f"attempt {attempt_id} is {att.state}: it takes no submissions")
    if fence != att.fence or att.fence != card["fence"]:
        return ("stale_fence", f"fence {fence} is not current for {attempt_id}"
                f" (current: {card['fence']})")
    if card_version != card["version"]:
        return ("stale_card_version", f"card {card['id']} is at version {card['version']}, not"
                f" {card_version}: read the card again (`a2a card show {card['id']}`)")
    if card["state"] != CardState.READY:
        return "card_not_ready", f"card {card['id']} changed and is not confirmed ready"
    if not g.caller.is_user and g.caller.actor != att.writer:
        # The writer changed since the role check (a2a spawn --attempt hands it over).
        return ("role_forbidden", f"submit {attempt_id} is for its writer ({att.writer}) or"
                f" the user: {g.caller.describe()} may not")
    if att.submission_n + 1 != pinned_n:
        return ("attempt_changed", f"{attempt_id} was submitted again meanwhile (now submission"
                f" {att.submission_n}): submit again")
    return None


def _pin(g: GateContext, ref: str, sha: str, message: str) -> None:
    """`ref` at `sha`: made new (one git call), or moved from what a refused submission left."""
    try:
        g.git.update_ref(ref, sha, ZERO_SHA, message=message)
    except GitError as exc:
        if exc.code != "ref_moved":
            raise
        g.git.update_ref(ref, sha, g.git.ref_value(ref) or ZERO_SHA, message=message)


def abandon(g: GateContext, attempt_id: str, score: Score | None, reason: str = "",
            force: bool = False) -> Abandoned:
    """End an attempt without integrating it, with a score; its evidence stays. An untouched
    attempt (nothing submitted, no commit on its branch) has nothing to score: its score may be
    left out (None). Only once its writer is done with it (gate/attempts/handback.py;
    `force`: the user's alone, recorded)."""
    require_role(g, "abandon")
    att = g.attempt(attempt_id)
    ledger.require_intact(g, att.card_id)
    if force:
        permit_force(g, att, "abandon")
    # Read before the write transaction (no git inside it); a commit made meanwhile is only
    # a commit nobody submitted.
    head = clone_head(att)
    committed = head != att.start_commit
    with op_lock(g.repo.locks_dir, attempt_id, what=f"an operation on {attempt_id}"):
        with g.store.write() as tx:
            att = attempt_in(tx, attempt_id)
            if att.state in UNRESOLVED:
                raise A2AError("attempt_not_open", f"attempt {attempt_id} is {att.state}"
                               f" and cannot be abandoned: {way_out(attempt_id, att.state)}")
            if att.state not in ACTIVE:
                raise A2AError("attempt_not_open", f"attempt {attempt_id} is {att.state}:"
                               " it has ended")
            forced = settle(tx, att, head, what="abandon", force=force)
            if score is None and (att.submission_n or committed):
                score = parse_scores([])   # there is work to judge: it is scored
            now = time.time_ns()
            facts = score_facts(tx, att, now)
            scored = score.to_json() if score is not None else None
            ledger.record(tx, GateEvent.ABANDONED, actor=g.caller.actor, task=att.card_id,
                          attempt=attempt_id, session=g.caller.session, ts_ns=now,
                          payload=pa.Abandoned(reason=reason, score=scored, **facts.to_json(),
                                               forced=forced or None))
    return Abandoned(attempt_id, AttemptState.ABANDONED, score, facts.rounds, facts.rejections,
                     facts.duration_s, facts.facts)


def has_commits(att: AttemptRecord) -> bool:
    """Whether the attempt's clone has moved off its start commit. The branch is in the clone
    (read as data, gate/attempts/clones.py); a clone that cannot be read may hold work: True."""
    return clones.head_of(att) != att.start_commit


def untouched(att: AttemptRecord) -> bool:
    """Nothing submitted and no commit in the attempt's clone: an abandon has nothing to score
    (the workbench asks only a yes)."""
    return not att.submission_n and not has_commits(att)


@dataclass(frozen=True)
class ScoreFacts:
    """What the gate fills in beside a score: rounds, rejections, duration, and the facts."""

    rounds: int
    rejections: int
    duration_s: float
    facts: ObjectiveFacts

    def to_json(self) -> JsonObject:
        """As the ending event's payload holds them (beside its `score`)."""
        return {"rounds": self.rounds, "rejections": self.rejections,
                "duration_s": self.duration_s, "facts": self.facts.to_json()}


def score_facts(tx, att: AttemptRecord, now_ns: int) -> ScoreFacts:
    """What the gate fills in beside a score: rounds, rejections, duration."""
    rejections = tx.one("SELECT COUNT(*) FROM verifications"
                        " WHERE attempt_id=? AND state='rejected'", (att.id,))[0]
    return ScoreFacts(att.submission_n, rejections,
                      round((now_ns - att.claimed_ns) / 1e9, 3),
                      objective_facts(tx, att, now_ns))


def bind_writer(g: GateContext, attempt_id: str, session_id: str) -> WriterBound:
    """Make a managed session the sole writer of an open attempt (used by `a2a spawn --attempt`).

    Allowed for the user and for the attempt's current writer; the old writer loses the right.
    """
    ledger.require_intact(g, g.attempt(attempt_id).card_id)
    with g.store.write() as tx:
        att = attempt_in(tx, attempt_id)
        if att.state not in ACTIVE or att.state in UNRESOLVED:
            hint = f": {way_out(attempt_id, att.state)}" if att.state in UNRESOLVED else ""
            raise A2AError("attempt_not_open", f"attempt {attempt_id} is {att.state}{hint}")
        if not g.caller.is_user and g.caller.actor != att.writer:
            raise A2AError("not_writer", f"{g.caller.describe()} is not the writer of {attempt_id}"
                           f" ({att.writer}) and cannot hand it over")
        new = f"session:{session_id}"
        ledger.record(tx, GateEvent.WRITER_BOUND, actor=g.caller.actor, task=att.card_id,
                      attempt=attempt_id, session=session_id,
                      payload=pa.WriterBound(from_=att.writer, to=new, fence=att.fence))
    return WriterBound(attempt_id, new, att.writer, att.fence)


LEASE_DEFAULT_S = 3600   # gate.toml's lease_s when it names none (gate_rules.GateRules)


def _lease_s(g: GateContext) -> int:
    """The lease of the gate rules in force (gate.toml as the user accepted it, not as the file
    says now); rules that name none have the default, read without loading them (pydantic:
    `submit`, an agent's most frequent command, stays light)."""
    if "lease_s" not in g.repo.rule_file("gate.toml").text:
        return LEASE_DEFAULT_S
    from a2a_tui.gate.cards import gate_rules  # pydantic: only when gate.toml sets a lease

    return gate_rules.load(g).rules.lease_s
