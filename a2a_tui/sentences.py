"""Each event as one sentence a person reads: "w1 finished prompt #14", "verify T-1-a1 passed
7/7", "you answered Q-1: option a (recommended)".

The Events panel and `a2a events` show these; `--json` and the panel's Enter show the event
itself. Every kind of the registry (a2a_tui/kinds.py) has its own sentence (a test holds it);
a kind outside it is said from its name and where it happened. `FOLDED` are the kinds (and
signals) that say how a prompt travelled, one row per step: the panel folds them until asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from a2a_tui.kinds import EventKind as K
from a2a_tui.kinds import GateEvent as G
from a2a_tui.store.db import Event

# How a prompt travels (queued and finished are said; the steps between are folded), and the
# signals that only say a pane is still at work.
FOLDED_KINDS = frozenset({K.DISPATCH_SENT, K.DISPATCH_ENTER_RESENT, "dispatch_sending",
                          "dispatch_confirmed", "dispatch_done"})
FOLDED_SIGNALS = frozenset({"prompt", "tool", "start", None})


def folded(e: Event) -> bool:
    """Whether the panel folds the event by default (one key shows it)."""
    if e.kind == K.SIGNAL:
        return e.payload.get("kind") in FOLDED_SIGNALS
    return e.kind in FOLDED_KINDS


def who(actor: str) -> str:
    """An actor as a person says it: you, w1, the gate, a2a."""
    if actor == "user":
        return "you"
    if actor.startswith("session:"):
        return actor.removeprefix("session:")
    return {"gate": "the gate", "orchestrator": "a2a", "a2a": "a2a"}.get(actor, actor)


def _p(e: Event, key: str, default: Any = "?") -> Any:
    value = e.payload.get(key)
    return default if value in (None, "") else value


def _att(e: Event) -> str:
    return e.attempt or e.task or "?"


def _sess(e: Event) -> str:
    return e.session or who(e.actor)


def _short(sha: Any) -> str:
    return str(sha)[:12] if sha else "?"


def _checks(e: Event) -> str:
    """"5/7 passed, unit-tests failed": how many checks passed, and the first that failed."""
    checks = [c for c in e.payload.get("checks") or [] if isinstance(c, dict)]
    passed = sum(1 for c in checks if c.get("passed"))
    failed = [c.get("name", "?") for c in checks
              if not c.get("passed") and not c.get("skipped")]
    return f"{passed}/{len(checks)} passed" + (f", {failed[0]} failed" if failed else "")


def _signal(e: Event) -> str:
    s, kind = _sess(e), e.payload.get("kind")
    if kind == "stop":
        n = e.payload.get("finished")
        return f"{s} finished prompt #{n}" if n else f"{s} finished its turn"
    if kind == "prompt":
        n = e.payload.get("confirmed")
        return f"{s} took prompt #{n}" if n else f"{s} took a prompt typed in its pane"
    if kind == "tool":
        tool = (e.payload.get("detail") or {}).get("tool_name") or "a tool"
        return f"{s} runs {tool}"
    if kind == "waiting":
        return f"{s} waits for you"
    if kind == "start":
        return f"{s} started"
    if kind == "exited":
        return f"{s}'s process exited"
    return f"{s} signalled {e.payload.get('event') or kind}"


def _answered(e: Event) -> str:
    option = e.payload.get("option")
    said = f"option {option}" if option else "in words"
    return (f"{who(e.actor)} answered {_p(e, 'id')}: {said}"
            + (" (recommended)" if e.payload.get("adopted") else ""))


def _user_input(e: Event) -> str:
    text = str(e.payload.get("text") or "").replace("\n", " ⏎ ")
    to = f" to {e.session}" if e.session else ""
    return f"{_p(e, 'id')}: you ({_p(e, 'kind')}{to}): {text[:80]}"


SENTENCES: dict[str, Callable[[Event], str]] = {
    # cards and attempts
    G.CARD_ADDED: lambda e: f"{who(e.actor)} added card {e.task}",
    G.CARD_VERSIONED: lambda e: f"{who(e.actor)} wrote a new version of card {e.task}",
    G.CARD_REVISED: lambda e: f"{who(e.actor)} revised card {e.task}",
    G.CARD_READY: lambda e: f"{who(e.actor)} made card {e.task} v{_p(e, 'version')} ready",
    G.CLAIMED: lambda e: f"{who(e.actor)} claimed {e.task} as {e.attempt}"
                         f" (fence {_p(e, 'fence')})",
    G.ATTEMPT_SUPERSEDED: lambda e: f"{e.attempt} was superseded by {_p(e, 'by')}",
    G.WORKTREE_CREATED: lambda e: f"the gate made {e.attempt}'s clone on {_p(e, 'branch')}",
    G.WORKTREE_FAILED: lambda e: f"{e.attempt}'s clone failed: {_p(e, 'error')}",
    G.WRITER_BOUND: lambda e: f"{e.attempt} is now written by {who(str(_p(e, 'to')))}",
    G.SUBMITTED: lambda e: f"{who(e.actor)} submitted {_short(_p(e, 'sha'))} for {e.attempt}"
                           f" (candidate {_p(e, 'n')})",
    G.ABANDONED: lambda e: f"{who(e.actor)} abandoned {e.attempt}",
    G.LEASE_EXPIRED: lambda e: f"{e.attempt}'s lease expired: isolated until renewed",
    G.LEASE_RENEWED: lambda e: f"{who(e.actor)} renewed {e.attempt}'s lease",
    # verify
    G.VERIFY_STARTED: lambda e: f"verify {e.attempt} started on {_short(_p(e, 'sha'))}"
                                f" (run {_p(e, 'run')})",
    G.CHECK_RESULT: lambda e: f"check {_p(e, 'name')} of {e.attempt} "
                              + ("passed" if e.payload.get("passed") else "failed"),
    G.TESTS_REPORTED: lambda e: f"the tests of {e.attempt} ({_p(e, 'source')}) were read",
    G.VERIFIED: lambda e: f"verify {e.attempt} passed {_checks(e).removesuffix(' passed')}",
    G.REJECTED: lambda e: f"verify {e.attempt} rejected it: {_checks(e)}",
    G.VERIFY_FLAKY: lambda e: f"verify {e.attempt} was flaky: {_checks(e)}",
    G.CONTRACT_INVALID: lambda e: f"card {e.task}'s contract cannot be checked"
                                  f" ({_p(e, 'item')} on the board)",
    G.VERIFY_COMMIT_MISSING: lambda e: f"verify {e.attempt}: the submitted commit is missing",
    G.VERIFY_INTERRUPTED: lambda e: f"verify {e.attempt} was interrupted ({_p(e, 'why')})",
    # integrate, resolve, reclaim
    G.INTEGRATION_INTENT: lambda e: f"{who(e.actor)} is integrating {e.attempt}",
    G.INTEGRATED: lambda e: f"{e.attempt} integrated: {_short(_p(e, 'old'))} →"
                            f" {_short(_p(e, 'new'))}",
    G.INTEGRATION_NOT_APPLIED: lambda e: f"{e.attempt}'s integration did not happen",
    G.INTEGRATION_UNKNOWN: lambda e: f"{e.attempt}'s integration cannot be read: you decide",
    G.ATTEMPT_RESOLVED: lambda e: f"{who(e.actor)} resolved {e.attempt} as {_p(e, 'as')}",
    G.WORKTREE_REMOVED: lambda e: f"{e.attempt}'s clone was removed (its commits kept)",
    G.WORKTREE_KEPT: lambda e: f"{e.attempt}'s clone was kept: {_p(e, 'reason')}",
    G.WORKTREE_UNKNOWN: lambda e: f"{e.attempt}'s clone could not be read",
    # reviews, approvals, line comments
    G.REVIEW_REQUESTED: lambda e: f"{who(e.actor)} asked for review {_p(e, 'review')}",
    G.REVIEW_STARTED: lambda e: f"{e.session} started reviewing {e.attempt}",
    G.REVIEW_LAUNCH_FAILED: lambda e: f"review {_p(e, 'review')} did not start",
    G.REVIEWED: lambda e: f"{e.session} reviewed {e.attempt}: "
                          f"{len(e.payload.get('blocking_issues') or [])} blocking issue(s)",
    G.REVIEW_DISPOSITION: lambda e: f"{who(e.actor)} {_p(e, 'decision')}ed issue"
                                    f" {_p(e, 'issue')} of {e.attempt}",
    G.REVIEW_OVERRIDDEN: lambda e: f"{who(e.actor)} overrode the review of {e.attempt}",
    G.INTEGRATION_APPROVED: lambda e: f"{who(e.actor)} approved integrating {e.attempt}"
                                      f" ({_p(e, 'approval')})",
    G.APPROVAL_CONSUMED: lambda e: f"approval {_p(e, 'approval')} was used for {e.attempt}",
    G.APPROVAL_REVOKED: lambda e: f"{who(e.actor)} revoked approval {_p(e, 'approval')}",
    G.REVIEW_COMMENT_ADDED: lambda e: f"{who(e.actor)} commented {_p(e, 'path')}:"
                                      f"{_p(e, 'line')} of {e.attempt}",
    G.REVIEW_COMMENT_EDITED: lambda e: f"{who(e.actor)} edited comment {_p(e, 'id')}",
    G.REVIEW_COMMENT_REMOVED: lambda e: f"{who(e.actor)} removed comment {_p(e, 'id')}",
    G.REVIEW_COMMENTS_SENT: lambda e: f"{who(e.actor)} sent"
                                      f" {len(e.payload.get('comments') or [])} comment(s)"
                                      f" to {e.session}",
    # the targets' record
    G.TARGET_OBSERVED: lambda e: f"the gate saw {_p(e, 'target')} at {_short(_p(e, 'head'))}",
    G.TARGET_DIVERGED: lambda e: f"{_p(e, 'target', 'the target')} moved outside the gate",
    G.TARGET_ADOPTED: lambda e: f"{who(e.actor)} adopted {_p(e, 'target')} at"
                                f" {_short(_p(e, 'head'))}",
    G.TARGET_RESTORED: lambda e: f"{who(e.actor)} restored {_p(e, 'target')} to"
                                 f" {_short(_p(e, 'head'))}",
    # outside the gate's tables
    K.INITIALIZED: lambda e: f"{who(e.actor)} set a2a up here (target branch"
                             f" {_p(e, 'target_branch')})",
    K.GATE_FEEDBACK: lambda e: f"the gate {'sent' if e.payload.get('sent') else 'held'} the"
                               f" feedback of {e.attempt}",
    K.FEEDBACK_STOPPED: lambda e: f"feedback to {e.attempt} stopped: you decide",
    K.SESSION_LAUNCHING: lambda e: f"{who(e.actor)} started {e.session}"
                                   f" ({_p(e, 'role')}, {_p(e, 'cli')})",
    K.PANE_EXITED: lambda e: f"{e.session}'s pane exited",
    K.PANE_RELEASED: lambda e: f"{who(e.actor)} released {e.session}",
    K.PANE_STALLED: lambda e: f"{e.session} is busy and silent: on the board as"
                              f" {_p(e, 'item')}",
    K.TURN_REMINDED: lambda e: f"{e.session}'s turn is long: a reminder is on the board",
    K.TURN_STOPPED: lambda e: f"a2a stopped {e.session}'s turn ({_p(e, 'why')},"
                              f" {_p(e, 'limit_s')} s)",
    K.PROJECT_PROFILE_CONFIRMED: lambda e: f"{who(e.actor)} confirmed the project's profile",
    K.MODEL_STOPPED_EARLY: lambda e: f"{e.session} stopped with {e.attempt} still owed",
    K.HUMAN_INTERVENTION: lambda e: f"a person's hand in {_att(e)} ({_p(e, 'via')})",
    K.SIGNAL: _signal,
    K.DISPATCH_QUEUED: lambda e: f"{who(e.actor)} queued prompt #{_p(e, 'n')} for {e.session}",
    K.DISPATCH_SENT: lambda e: f"a2a typed prompt #{_p(e, 'n')} into {e.session}",
    K.DISPATCH_ENTER_RESENT: lambda e: f"a2a pressed Enter again for prompt #{_p(e, 'n')}"
                                       f" in {e.session}",
    K.BOARD_ITEM_POSTED: lambda e: f"{who(e.actor)} asked {_p(e, 'id')}: {_p(e, 'title')}"
                                   if e.payload.get("kind") == "question" else
                                   f"{who(e.actor)} posted {_p(e, 'id')}: {_p(e, 'title')}",
    K.BOARD_ITEM_ANSWERED: _answered,
    K.BOARD_ITEM_CLOSED: lambda e: f"{who(e.actor)} closed {_p(e, 'id')}",
    K.SPOT_CHECK_REQUESTED: lambda e: f"the gate asks you to spot-check {e.attempt}",
    K.SPOT_CHECK_DONE: lambda e: f"{who(e.actor)} spot-checked {e.attempt}:"
                                 f" {_p(e, 'verdict')}",
    K.RETRO_STARTED: lambda e: f"{who(e.actor)} started retrospective {_p(e, 'id')}",
    K.RETRO_SAVED: lambda e: f"retrospective {_p(e, 'id')} was saved",
    K.RETRO_PROPOSED: lambda e: f"a2a proposes a retrospective ({_p(e, 'question')})",
    # a few more of the log's own
    "user_input": _user_input,
    "dispatch_sending": lambda e: f"a2a is typing prompt #{_p(e, 'n')} into {e.session}",
    "dispatch_confirmed": lambda e: f"{e.session} took prompt #{_p(e, 'n')}",
    "dispatch_done": lambda e: f"{e.session} is done with prompt #{_p(e, 'n')}",
    "dispatch_ended": lambda e: f"prompt #{_p(e, 'n')} for {e.session} ended: {_p(e, 'why')}",
    "session_launched": lambda e: f"{e.session} runs in pane {_p(e, 'pane')}",
    "session_ended": lambda e: f"{who(str(_p(e, 'ended_by')))} ended {e.session}",
    "pane_paused": lambda e: f"{who(e.actor)} paused {e.session}",
    "pane_resumed": lambda e: f"{who(e.actor)} resumed {e.session}",
    "orchestrator_started": lambda e: f"the orchestrator started (pid {_p(e, 'pid')})",
    "orchestrator_stopped": lambda e: f"the orchestrator stopped (pid {_p(e, 'pid')})",
    "demo_step": lambda e: f"demo: {_p(e, 'text')}",
    "inbox_posted": lambda e: f"{who(e.actor)} posted {_p(e, 'kind')} {_p(e, 'id')} for the"
                              f" {_p(e, 'recipient')} controller",
    "records_delivered": lambda e: f"{', '.join(e.payload.get('records') or [])} went to"
                                   f" {e.session} in prompt #{_p(e, 'dispatch')}",
}


def sentence(e: Event) -> str:
    """The event as one sentence (a kind without one: its name and where it happened)."""
    say = SENTENCES.get(e.kind)
    if say is not None:
        return say(e)
    where = " ".join(x for x in (e.attempt or e.task, e.session) if x)
    return f"{who(e.actor)}: {e.kind.replace('_', ' ')}" + (f" ({where})" if where else "")
