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
from a2a_tui.payloads import payload_of
from a2a_tui.payloads.collab import BoardItemAnswered, UserInput
from a2a_tui.payloads.sessions import Signal
from a2a_tui.payloads.verify import Verified
from a2a_tui.store.db import Event

# How a prompt travels (queued and finished are said; the steps between are folded), and the
# signals that only say a pane is still at work.
FOLDED_KINDS = frozenset({K.DISPATCH_SENT, K.DISPATCH_ENTER_RESENT, "dispatch_sending",
                          "dispatch_confirmed", "dispatch_done"})
FOLDED_SIGNALS = frozenset({"prompt", "tool", "start", None})


def folded(e: Event) -> bool:
    """Whether the panel folds the event by default (one key shows it)."""
    if e.kind == K.SIGNAL:
        return payload_of(e.kind, e.payload).kind in FOLDED_SIGNALS
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


def _v(value: Any, default: Any = "?") -> Any:
    """A payload's value as said: `default` for none or empty."""
    return default if value in (None, "") else value


def _typed(say: Callable[[Event, Any], str]) -> Callable[[Event], str]:
    """The sentence of a kind with a payload type, said from that type (a2a_tui/payloads)."""
    return lambda e: say(e, payload_of(e.kind, e.payload))


def _att(e: Event) -> str:
    return e.attempt or e.task or "?"


def _sess(e: Event) -> str:
    return e.session or who(e.actor)


def _short(sha: Any) -> str:
    return str(sha)[:12] if sha else "?"


def _checks(p: Verified) -> str:
    """"5/7 passed, unit-tests failed": how many checks passed, and the first that failed."""
    checks = [c for c in p.checks or [] if isinstance(c, dict)]
    passed = sum(1 for c in checks if c.get("passed"))
    failed = [c.get("name", "?") for c in checks
              if not c.get("passed") and not c.get("skipped")]
    return f"{passed}/{len(checks)} passed" + (f", {failed[0]} failed" if failed else "")


def _signal(e: Event, p: Signal) -> str:
    s, kind = _sess(e), p.kind
    if kind == "stop":
        n = p.finished
        return f"{s} finished prompt #{n}" if n else f"{s} finished its turn"
    if kind == "prompt":
        n = p.confirmed
        return f"{s} took prompt #{n}" if n else f"{s} took a prompt typed in its pane"
    if kind == "tool":
        tool = (p.detail or {}).get("tool_name") or "a tool"
        return f"{s} runs {tool}"
    if kind == "waiting":
        return f"{s} waits for you"
    if kind == "start":
        return f"{s} started"
    if kind == "exited":
        return f"{s}'s process exited"
    return f"{s} signalled {p.event or kind}"


def _answered(e: Event, p: BoardItemAnswered) -> str:
    said = f"option {p.option}" if p.option else "in words"
    return (f"{who(e.actor)} answered {_v(p.id)}: {said}"
            + (" (recommended)" if p.adopted else ""))


def _user_input(e: Event, p: UserInput) -> str:
    text = str(p.text or "").replace("\n", " ⏎ ")
    to = f" to {e.session}" if e.session else ""
    return f"{_v(p.id)}: you ({_v(p.kind)}{to}): {text[:80]}"


SENTENCES: dict[str, Callable[[Event], str]] = {
    # cards and attempts (typed: a2a_tui/payloads/attempts.py)
    G.CARD_ADDED: lambda e: f"{who(e.actor)} added card {e.task}",
    G.CARD_VERSIONED: lambda e: f"{who(e.actor)} wrote a new version of card {e.task}",
    G.CARD_REVISED: lambda e: f"{who(e.actor)} revised card {e.task}",
    G.CARD_READY: _typed(lambda e, p: f"{who(e.actor)} made card {e.task} v{_v(p.version)}"
                                      " ready"),
    G.CLAIMED: _typed(lambda e, p: f"{who(e.actor)} claimed {e.task} as {e.attempt}"
                                   f" (fence {_v(p.fence)})"),
    G.ATTEMPT_SUPERSEDED: _typed(lambda e, p: f"{e.attempt} was superseded by {_v(p.by)}"),
    G.WORKTREE_CREATED: _typed(lambda e, p: f"the gate made {e.attempt}'s clone on"
                                            f" {_v(p.branch)}"),
    G.WORKTREE_FAILED: _typed(lambda e, p: f"{e.attempt}'s clone failed: {_v(p.error)}"),
    G.WRITER_BOUND: _typed(lambda e, p: f"{e.attempt} is now written by {who(str(_v(p.to)))}"),
    G.SUBMITTED: _typed(lambda e, p: f"{who(e.actor)} submitted {_short(p.sha)} for"
                                     f" {e.attempt} (candidate {_v(p.n)})"),
    G.ABANDONED: lambda e: f"{who(e.actor)} abandoned {e.attempt}",
    G.LEASE_EXPIRED: lambda e: f"{e.attempt}'s lease expired: isolated until renewed",
    G.LEASE_RENEWED: lambda e: f"{who(e.actor)} renewed {e.attempt}'s lease",
    # verify (typed: a2a_tui/payloads/verify.py)
    G.VERIFY_STARTED: _typed(lambda e, p: f"verify {e.attempt} started on {_short(p.sha)}"
                                          f" (run {_v(p.run)})"),
    G.CHECK_RESULT: _typed(lambda e, p: f"check {_v(p.name)} of {e.attempt} "
                                        + ("passed" if p.passed else "failed")),
    G.TESTS_REPORTED: _typed(lambda e, p: f"the tests of {e.attempt} ({_v(p.source)}) were"
                                          " read"),
    G.VERIFIED: _typed(lambda e, p: f"verify {e.attempt} passed"
                                    f" {_checks(p).removesuffix(' passed')}"),
    G.REJECTED: _typed(lambda e, p: f"verify {e.attempt} rejected it: {_checks(p)}"),
    G.VERIFY_FLAKY: _typed(lambda e, p: f"verify {e.attempt} was flaky: {_checks(p)}"),
    G.CONTRACT_INVALID: _typed(lambda e, p: f"card {e.task}'s contract cannot be checked"
                                            f" ({_v(p.item)} on the board)"),
    G.VERIFY_COMMIT_MISSING: lambda e: f"verify {e.attempt}: the submitted commit is missing",
    G.VERIFY_INTERRUPTED: _typed(lambda e, p: f"verify {e.attempt} was interrupted"
                                              f" ({_v(p.why)})"),
    # integrate, resolve, reclaim (typed: a2a_tui/payloads/integrate.py, attempts.py)
    G.INTEGRATION_INTENT: lambda e: f"{who(e.actor)} is integrating {e.attempt}",
    G.INTEGRATED: _typed(lambda e, p: f"{e.attempt} integrated: {_short(p.old)} →"
                                      f" {_short(p.new)}"),
    G.INTEGRATION_NOT_APPLIED: lambda e: f"{e.attempt}'s integration did not happen",
    G.INTEGRATION_UNKNOWN: lambda e: f"{e.attempt}'s integration cannot be read: you decide",
    G.ATTEMPT_RESOLVED: _typed(lambda e, p: f"{who(e.actor)} resolved {e.attempt} as"
                                            f" {_v(p.as_)}"),
    G.WORKTREE_REMOVED: lambda e: f"{e.attempt}'s clone was removed (its commits kept)",
    G.WORKTREE_KEPT: _typed(lambda e, p: f"{e.attempt}'s clone was kept: {_v(p.reason)}"),
    G.WORKTREE_UNKNOWN: lambda e: f"{e.attempt}'s clone could not be read",
    # reviews, approvals, line comments (typed: a2a_tui/payloads/reviews.py)
    G.REVIEW_REQUESTED: _typed(lambda e, p: f"{who(e.actor)} asked for review {_v(p.review)}"),
    G.REVIEW_STARTED: lambda e: f"{e.session} started reviewing {e.attempt}",
    G.REVIEW_LAUNCH_FAILED: _typed(lambda e, p: f"review {_v(p.review)} did not start"),
    G.REVIEWED: _typed(lambda e, p: f"{e.session} reviewed {e.attempt}: "
                                    f"{len(p.blocking_issues or [])} blocking issue(s)"),
    G.REVIEW_DISPOSITION: _typed(lambda e, p: f"{who(e.actor)} {_v(p.decision)}ed issue"
                                              f" {_v(p.issue)} of {e.attempt}"),
    G.REVIEW_OVERRIDDEN: lambda e: f"{who(e.actor)} overrode the review of {e.attempt}",
    G.INTEGRATION_APPROVED: _typed(lambda e, p: f"{who(e.actor)} approved integrating"
                                                f" {e.attempt} ({_v(p.approval)})"),
    G.APPROVAL_CONSUMED: _typed(lambda e, p: f"approval {_v(p.approval)} was used for"
                                             f" {e.attempt}"),
    G.APPROVAL_REVOKED: _typed(lambda e, p: f"{who(e.actor)} revoked approval"
                                            f" {_v(p.approval)}"),
    G.REVIEW_COMMENT_ADDED: _typed(lambda e, p: f"{who(e.actor)} commented {_v(p.path)}:"
                                                f"{_v(p.line)} of {e.attempt}"),
    G.REVIEW_COMMENT_EDITED: _typed(lambda e, p: f"{who(e.actor)} edited comment {_v(p.id)}"),
    G.REVIEW_COMMENT_REMOVED: _typed(lambda e, p: f"{who(e.actor)} removed comment"
                                                  f" {_v(p.id)}"),
    G.REVIEW_COMMENTS_SENT: _typed(lambda e, p: f"{who(e.actor)} sent"
                                                f" {len(p.comments or [])} comment(s)"
                                                f" to {e.session}"),
    # the targets' record (typed: a2a_tui/payloads/targets.py)
    G.TARGET_OBSERVED: _typed(lambda e, p: f"the gate saw {_v(p.target)} at"
                                           f" {_short(p.head)}"),
    G.TARGET_DIVERGED: _typed(lambda e, p: f"{_v(p.target, 'the target')} moved outside the"
                                           " gate"),
    G.TARGET_ADOPTED: _typed(lambda e, p: f"{who(e.actor)} adopted {_v(p.target)} at"
                                          f" {_short(p.head)}"),
    G.TARGET_RESTORED: _typed(lambda e, p: f"{who(e.actor)} restored {_v(p.target)} to"
                                           f" {_short(p.head)}"),
    # outside the gate's tables
    K.INITIALIZED: _typed(lambda e, p: f"{who(e.actor)} set a2a up here (target branch"
                                       f" {_v(p.target_branch)})"),
    K.GATE_FEEDBACK: _typed(lambda e, p: f"the gate {'sent' if p.sent else 'held'} the"
                                         f" feedback of {e.attempt}"),
    K.FEEDBACK_STOPPED: lambda e: f"feedback to {e.attempt} stopped: you decide",
    K.SESSION_LAUNCHING: _typed(lambda e, p: f"{who(e.actor)} started {e.session}"
                                             f" ({_v(p.role)}, {_v(p.cli)})"),
    K.PANE_EXITED: lambda e: f"{e.session}'s pane exited",
    K.PANE_RELEASED: lambda e: f"{who(e.actor)} released {e.session}",
    K.PANE_STALLED: _typed(lambda e, p: f"{e.session} is busy and silent: on the board as"
                                        f" {_v(p.item)}"),
    K.TURN_REMINDED: lambda e: f"{e.session}'s turn is long: a reminder is on the board",
    K.TURN_STOPPED: _typed(lambda e, p: f"a2a stopped {e.session}'s turn ({_v(p.why)},"
                                        f" {_v(p.limit_s)} s)"),
    K.PROJECT_PROFILE_CONFIRMED: lambda e: f"{who(e.actor)} confirmed the project's profile",
    K.MODEL_STOPPED_EARLY: lambda e: f"{e.session} stopped with {e.attempt} still owed",
    K.HUMAN_INTERVENTION: _typed(lambda e, p: f"a person's hand in {_att(e)} ({_v(p.via)})"),
    K.SIGNAL: _typed(_signal),
    K.DISPATCH_QUEUED: _typed(lambda e, p: f"{who(e.actor)} queued prompt #{_v(p.n)} for"
                                           f" {e.session}"),
    K.DISPATCH_SENT: _typed(lambda e, p: f"a2a typed prompt #{_v(p.n)} into {e.session}"),
    K.DISPATCH_ENTER_RESENT: _typed(lambda e, p: f"a2a pressed Enter again for prompt"
                                                 f" #{_v(p.n)} in {e.session}"),
    K.BOARD_ITEM_POSTED: _typed(lambda e, p: f"{who(e.actor)}"
                                             f" {'asked' if p.kind == 'question' else 'posted'}"
                                             f" {_v(p.id)}: {_v(p.title)}"),
    K.BOARD_ITEM_ANSWERED: _typed(_answered),
    K.BOARD_ITEM_CLOSED: _typed(lambda e, p: f"{who(e.actor)} closed {_v(p.id)}"),
    K.SPOT_CHECK_REQUESTED: lambda e: f"the gate asks you to spot-check {e.attempt}",
    K.SPOT_CHECK_DONE: _typed(lambda e, p: f"{who(e.actor)} spot-checked {e.attempt}:"
                                           f" {_v(p.verdict)}"),
    K.RETRO_STARTED: _typed(lambda e, p: f"{who(e.actor)} started retrospective {_v(p.id)}"),
    K.RETRO_SAVED: _typed(lambda e, p: f"retrospective {_v(p.id)} was saved"),
    K.RETRO_PROPOSED: _typed(lambda e, p: f"a2a proposes a retrospective ({_v(p.question)})"),
    # a few more of the log's own
    "user_input": _typed(_user_input),
    "dispatch_sending": _typed(lambda e, p: f"a2a is typing prompt #{_v(p.n)} into"
                                            f" {e.session}"),
    "dispatch_confirmed": _typed(lambda e, p: f"{e.session} took prompt #{_v(p.n)}"),
    "dispatch_done": _typed(lambda e, p: f"{e.session} is done with prompt #{_v(p.n)}"),
    "dispatch_ended": _typed(lambda e, p: f"prompt #{_v(p.n)} for {e.session} ended:"
                                          f" {_v(p.why)}"),
    "session_launched": _typed(lambda e, p: f"{e.session} runs in pane {_v(p.pane)}"),
    "session_ended": _typed(lambda e, p: f"{who(str(_v(p.ended_by)))} ended {e.session}"),
    "pane_paused": lambda e: f"{who(e.actor)} paused {e.session}",
    "pane_resumed": lambda e: f"{who(e.actor)} resumed {e.session}",
    "orchestrator_started": _typed(lambda e, p: f"the orchestrator started (pid {_v(p.pid)})"),
    "orchestrator_stopped": _typed(lambda e, p: f"the orchestrator stopped (pid {_v(p.pid)})"),
    "demo_step": _typed(lambda e, p: f"demo: {_v(p.text)}"),
    "inbox_posted": _typed(lambda e, p: f"{who(e.actor)} posted {_v(p.kind)} {_v(p.id)} for"
                                        f" the {_v(p.recipient)} controller"),
    "records_delivered": _typed(lambda e, p: f"{', '.join(p.records or [])} went to"
                                             f" {e.session} in prompt #{_v(p.dispatch)}"),
}


def sentence(e: Event) -> str:
    """The event as one sentence (a kind without one: its name and where it happened)."""
    say = SENTENCES.get(e.kind)
    if say is not None:
        return say(e)
    where = " ".join(x for x in (e.attempt or e.task, e.session) if x)
    return f"{who(e.actor)}: {e.kind.replace('_', ' ')}" + (f" ({where})" if where else "")
