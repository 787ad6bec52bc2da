"""The metrics' fold, one handler per event kind: `HANDLERS[kind](state, row)` changes the records
of the history being read (metrics/records.py), in sequence order. A handler reads a typed
kind's payload as its type (`row.typed`: a2a_tui/payloads), the others' as a dict. The same
apply style as the gate's ledger (gate/ledger/writer.py), keyed by the one registry of kinds
(a2a_tui/kinds.py).

A handler takes the `Folding` state (the history and what is still open: questions, stops,
unknown outcomes, divergences) and the event; it writes nothing outside the history.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from a2a_tui.kinds import EventKind, GateEvent
from a2a_tui.metrics.kinds import CHECK_STEP, RESOLUTIONS, STEPS, THRESHOLD_STEP
from a2a_tui.metrics.records import (
    Attempt,
    Attention,
    History,
    Rejection,
    Retro,
    Row,
    Session,
    model_label,
)
from a2a_tui.payloads.attempts import Abandoned
from a2a_tui.payloads.collab import BoardItemAnswered, BoardItemClosed, BoardItemPosted
from a2a_tui.payloads.integrate import Integrated
from a2a_tui.payloads.retro import RetroSaved
from a2a_tui.payloads.sessions import HumanIntervention, ModelStoppedEarly, SessionLaunching
from a2a_tui.payloads.verify import Rejected, Verified
from a2a_tui.states import AttemptState, SelfCheck


class Launches(Protocol):
    """The sessions' launches, by session (history.py reads them)."""

    def get(self, sid: str | None) -> Row | None: ...


@dataclass
class Folding:
    """What the fold carries between events: the history, the sessions' launches (read first),
    and the attention items still open, by what ends them. `nearest` looks up in the log the
    time of a session's nearest event of some kinds (history.py: SQL over the indexes)."""

    h: History
    launches: Launches
    nearest: Callable[[str | None, int, tuple[str, ...], bool], int | None]
    questions: dict[str, Attention] = field(default_factory=dict)
    stops: dict[str, Attention] = field(default_factory=dict)      # attempt -> three-strike stop
    unknowns: dict[str, Attention] = field(default_factory=dict)   # attempt -> unknown outcome
    diverged: dict[str, Attention] = field(default_factory=dict)   # target -> divergence

    def attempt(self, r: Row) -> Attempt | None:
        return self.h.attempts.get(r.attempt or "")

    def session(self, sid: str) -> Session:
        """The session's record, made once from its launch."""
        s = self.h.sessions.get(sid)
        if s is None:
            r = self.launches.get(sid)
            p: SessionLaunching = r.typed if r else SessionLaunching()
            back = {"revives": p.revives, "forks": p.forks, "restarts": p.restarts}
            s = Session(sid, p.role or "?", p.cli or "?", p.model or "", p.effort or "",
                        r.ts_ns if r else 0,
                        relaunch={k: str(v) for k, v in back.items() if v})
            if r is not None and r.attempt:
                s.attempt = r.attempt
            self.h.sessions[sid] = s
        return s

    def ask(self, kind: str, ref: str, r: Row, *, waits: bool = True) -> Attention:
        """One time the user is needed, from this event on."""
        item = Attention(kind, ref, r.seq, r.ts_ns, task=r.task, attempt=r.attempt,
                         session=r.session, waits=waits)
        self.h.attention.append(item)
        return item

    def end_stop(self, attempt: str, r: Row) -> None:
        if (item := self.stops.pop(attempt, None)) is not None:
            item.acted_ns = r.ts_ns

    def end(self, a: Attempt, r: Row, outcome: str) -> None:
        a.outcome, a.ended_ns = outcome, r.ts_ns
        self.end_stop(a.id, r)


Handler = Callable[[Folding, Row], None]


# --- attempts ------------------------------------------------------------------------------------

def _claimed(f: Folding, r: Row) -> None:
    if r.attempt and r.task:
        f.h.attempts[r.attempt] = Attempt(r.attempt, r.task, r.seq, r.ts_ns, r.session)
        f.h.attempts[r.attempt].serve(r.session, "claim")


def _writer_bound(f: Folding, r: Row) -> None:
    a = f.attempt(r)
    if a is not None and r.session:
        a.writer = r.session
        a.served.pop(r.session, None)
        f.session(r.session).attempt = a.id


def _submitted(f: Folding, r: Row) -> None:
    if (a := f.attempt(r)) is not None:
        a.rounds += 1
        told = r.typed.self_check
        a.self_check = told.get("saw") if isinstance(told, dict) else None
        if r.session != a.writer:
            a.serve(r.session, "submit")
        f.end_stop(a.id, r)


def _served(what: str) -> Handler:
    """A handler that notes the session served the attempt (`what` it did)."""
    def handler(f: Folding, r: Row) -> None:
        if (a := f.attempt(r)) is not None:
            a.serve(r.session, what)
    return handler


def _tests(a: Attempt, p: Verified) -> None:
    t = p.tests
    if not isinstance(t, dict):
        return
    before = a.tests or {"masked": 0, "dropped": 0}
    a.tests = {"run": int(t.get("run", 0)), "passed": int(t.get("passed", 0)),
               "masked": before["masked"] + int(t.get("masked", 0)),
               "dropped": before["dropped"] + int(t.get("dropped", 0))}


def _judged(a: Attempt, gate: str) -> None:
    """The first verdict of a submission that carried a self-check: the pair is kept."""
    if a.self_check is not None:
        a.self_checks.append((a.self_check, gate))
        a.self_check = None


def _verified(f: Folding, r: Row) -> None:
    if (a := f.attempt(r)) is not None:
        _judged(a, SelfCheck.PASSED)
        a.verify_runs += 1
        a.verified_ns = r.ts_ns
        _tests(a, r.typed)


def _rejected(f: Folding, r: Row) -> None:
    if (a := f.attempt(r)) is None:
        return
    a.verify_runs += 1
    _judged(a, SelfCheck.FAILED)
    p: Rejected = r.typed
    _tests(a, p)
    first = p.first_failure or "unknown"
    step = p.step or (first if first in STEPS else THRESHOLD_STEP
                      if p.first_failure_step == THRESHOLD_STEP else CHECK_STEP)
    a.rejections.append(Rejection(a.id, a.task, r.seq, r.ts_ns, step, p.code or first, p.run))


def _flaky(f: Folding, r: Row) -> None:
    if (a := f.attempt(r)) is not None:
        a.verify_runs += 1
        a.flaky += 1
        _tests(a, r.typed)


def _contract_invalid(f: Folding, r: Row) -> None:
    if (a := f.attempt(r)) is not None:
        a.contract_invalid += 1


def _reviewed(f: Folding, r: Row) -> None:
    if (a := f.attempt(r)) is None:
        return
    a.serve(r.session, "review")
    verdict = r.typed.verdict
    if verdict in ("block", "fail"):
        a.rejections.append(Rejection(a.id, a.task, r.seq, r.ts_ns, "review", verdict, None))


def _facts(a: Attempt, p: Integrated | Abandoned) -> None:
    score = p.score or {}
    if "boundary" in score or "taste" in score:
        a.score = score
    lines = p.changed_lines
    if isinstance(lines, dict) and "added" in lines and "removed" in lines:
        a.lines = (int(lines["added"]), int(lines["removed"]))


def _integrated(f: Folding, r: Row) -> None:
    if (a := f.attempt(r)) is not None:
        f.end(a, r, AttemptState.INTEGRATED)
        _facts(a, r.typed)


def _abandoned(f: Folding, r: Row) -> None:
    if (a := f.attempt(r)) is not None:
        a.serve(r.session, "abandon")
        f.end(a, r, AttemptState.ABANDONED)
        _facts(a, r.typed)


def _ended(outcome: str) -> Handler:
    """A handler that ends the attempt with `outcome` (superseded, failed)."""
    def handler(f: Folding, r: Row) -> None:
        if (a := f.attempt(r)) is not None:
            f.end(a, r, outcome)
    return handler


def _integration_unknown(f: Folding, r: Row) -> None:
    if (a := f.attempt(r)) is not None:
        a.outcome, a.ended_ns = AttemptState.UNKNOWN, r.ts_ns
        f.unknowns[a.id] = f.ask("unknown", a.id, r)


def _resolved(f: Folding, r: Row) -> None:
    if (a := f.attempt(r)) is None:
        return
    outcome = RESOLUTIONS.get(str(r.typed.as_ or "").lower())
    a.outcome, a.ended_ns = outcome, (r.ts_ns if outcome else None)
    if (item := f.unknowns.pop(a.id, None)) is not None:
        item.acted_ns = r.ts_ns


def _approved(f: Folding, r: Row) -> None:
    a = f.attempt(r)
    item = f.ask("approval", r.attempt or "", r)
    item.asked_ns = (a.verified_ns if a and a.verified_ns else r.ts_ns)
    item.acted_ns = r.ts_ns


# --- attention -----------------------------------------------------------------------------------

def _posted(f: Folding, r: Row) -> None:
    p: BoardItemPosted = r.typed
    if p.kind == "question":
        ref = p.id or ""
        f.questions[ref] = f.ask("question", ref, r)


def _answered(f: Folding, r: Row) -> None:
    answered: BoardItemAnswered | BoardItemClosed = r.typed
    item = f.questions.pop(answered.id or "", None)
    if item is not None:
        item.acted_ns = r.ts_ns


def _released(f: Folding, r: Row) -> None:
    # How long the pane sat stuck: from the last thing heard from it (or written to it: an
    # Enter, also one written again) to the release.
    item = f.ask("release", r.session or "", r)
    quiet = f.nearest(r.session, r.seq, (EventKind.SIGNAL, EventKind.DISPATCH_SENT,
                                         EventKind.DISPATCH_ENTER_RESENT), True)
    item.asked_ns, item.acted_ns = (quiet or r.ts_ns), r.ts_ns


def _intervention(f: Folding, r: Row) -> None:
    p: HumanIntervention = r.typed
    via = p.kind or p.via or "intervention"
    f.ask("intervention", str(via), r, waits=False)


def _stalled(f: Folding, r: Row) -> None:
    f.ask("stall", r.session or "", r)   # its end is looked up with the pane waits


def _feedback_stopped(f: Folding, r: Row) -> None:
    if r.attempt and r.attempt not in f.stops:   # one stop, however many say so
        f.stops[r.attempt] = f.ask("feedback_stop", r.attempt, r)


def _feedback(f: Folding, r: Row) -> None:
    # Feedback not sent to a managed writer: the three-strike stop (before feedback_stopped).
    a = f.attempt(r)
    if r.typed.sent is False and a is not None and a.writer:
        _feedback_stopped(f, r)


def _target_key(r: Row) -> str:
    # The divergence's and the adoption's payload types name the target; a `ref` is older.
    return str(r.typed.target or r.payload_json.get("ref") or "")


def _diverged(f: Folding, r: Row) -> None:
    key = _target_key(r)
    f.diverged.setdefault(key, f.ask("divergence", key, r))


def _adopted(f: Folding, r: Row) -> None:
    item = f.diverged.pop(_target_key(r), None) or (
        f.diverged.pop(next(iter(f.diverged))) if f.diverged else None)
    if item is not None:
        item.acted_ns = r.ts_ns


def _exited(f: Folding, r: Row) -> None:
    if r.session:
        f.session(r.session).exited_ns = r.ts_ns


def _stopped_early(f: Folding, r: Row) -> None:
    a = f.attempt(r)
    if a is not None:
        p: ModelStoppedEarly = r.typed
        a.stopped_early.append(model_label(p.cli, p.model, p.effort))


def _spot_check_asked(f: Folding, r: Row) -> None:
    if (a := f.attempt(r)) is not None:
        a.spot_check = "asked"


def _spot_check(f: Folding, r: Row) -> None:
    if (a := f.attempt(r)) is not None:
        a.spot_check = r.typed.verdict or "asked"


def _retro_saved(f: Folding, r: Row) -> None:
    p: RetroSaved = r.typed
    f.h.retros.append(Retro(r.seq, r.ts_ns, r.session, p.id, p.since_ns, p.text))


# Every kind the fold applies, in sequence order, with its handler.
HANDLERS: dict[str, Handler] = {
    GateEvent.CLAIMED: _claimed,
    GateEvent.WRITER_BOUND: _writer_bound,
    GateEvent.SUBMITTED: _submitted,
    GateEvent.VERIFY_STARTED: _served("verify"),
    GateEvent.VERIFIED: _verified,
    GateEvent.REJECTED: _rejected,
    GateEvent.VERIFY_FLAKY: _flaky,
    GateEvent.CONTRACT_INVALID: _contract_invalid,
    GateEvent.REVIEW_STARTED: _served("review"),
    GateEvent.REVIEWED: _reviewed,
    GateEvent.INTEGRATION_INTENT: _served("integrate"),
    GateEvent.INTEGRATED: _integrated,
    GateEvent.ABANDONED: _abandoned,
    GateEvent.ATTEMPT_SUPERSEDED: _ended(AttemptState.SUPERSEDED),
    GateEvent.WORKTREE_FAILED: _ended(AttemptState.FAILED),
    GateEvent.INTEGRATION_UNKNOWN: _integration_unknown,
    GateEvent.ATTEMPT_RESOLVED: _resolved,
    GateEvent.INTEGRATION_APPROVED: _approved,
    GateEvent.TARGET_DIVERGED: _diverged,
    GateEvent.TARGET_ADOPTED: _adopted,
    EventKind.GATE_FEEDBACK: _feedback,
    EventKind.FEEDBACK_STOPPED: _feedback_stopped,
    EventKind.PANE_EXITED: _exited,
    EventKind.PANE_RELEASED: _released,
    EventKind.PANE_STALLED: _stalled,
    EventKind.MODEL_STOPPED_EARLY: _stopped_early,
    EventKind.SPOT_CHECK_REQUESTED: _spot_check_asked,
    EventKind.SPOT_CHECK_DONE: _spot_check,
    EventKind.HUMAN_INTERVENTION: _intervention,
    EventKind.BOARD_ITEM_POSTED: _posted,
    EventKind.BOARD_ITEM_ANSWERED: _answered,
    EventKind.BOARD_ITEM_CLOSED: _answered,
    EventKind.RETRO_SAVED: _retro_saved,
}
