"""The metrics' records: cards, attempts, sessions and the times the user was needed, as one
read of the event log leaves them, and the event as read (`Row`): metrics/history.py reads,
metrics/handlers.py applies."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads import payload_of
from a2a_tui.states import CONCLUDED, AttemptState

NO_TASK = "(no task)"


@dataclass
class Card:
    id: str
    title: str = ""
    task_type: str = "?"
    complexity: str = "?"


@dataclass
class Rejection:
    attempt: str
    task: str
    seq: int
    ts_ns: int
    step: str        # the verify step that failed first, or CHECK_STEP for one of the card's checks
    code: str        # the rejection code, else the failing check's name
    run: int | None


@dataclass
class Attempt:
    id: str
    task: str
    seq: int
    claimed_ns: int
    claimed_by: str | None            # the session that claimed it (None: the user)
    writer: str | None = None         # the session bound as its writer (None: the user)
    rounds: int = 0                   # submissions
    verify_runs: int = 0
    rejections: list[Rejection] = field(default_factory=list)
    flaky: int = 0
    contract_invalid: int = 0
    outcome: str | None = None        # integrated | abandoned | superseded | failed | unknown
    ended_ns: int | None = None
    verified_ns: int | None = None    # its last pass (when it became integrable)
    score: dict[str, Any] | None = None
    lines: tuple[int, int] | None = None   # (added, removed), when the gate recorded them
    # From the verify runs' test reports: the last run's tests run and passed, and the tests
    # masked and dropped over all its runs (None: no run reported tests).
    tests: dict[str, int] | None = None
    served: dict[str, list[str]] = field(default_factory=dict)   # session -> what it did
    # Turns its writer ended with the work still owed, no question, no error: the model's
    # behaviour, apart from the coordination's defects (gate/attempts/behaviour.py).
    stopped_early: list[str] = field(default_factory=list)   # the label of the model, each
    # The writer's own checks (gate/attempts/selfcheck.py): what the last submission's said, until
    # its first verdict; then each (said, the gate's verdict), "passed" or "failed".
    # A spot check of it once integrated (gate/integration/spotchecks.py): asked | ok | flagged.
    spot_check: str | None = None
    self_check: str | None = None
    self_checks: list[tuple[str, str]] = field(default_factory=list)

    @property
    def concluded(self) -> bool:
        return self.outcome in CONCLUDED

    @property
    def first_pass(self) -> bool:
        """Integrated with no rejection."""
        return self.outcome == AttemptState.INTEGRATED and not self.rejections

    @property
    def wall_s(self) -> float | None:
        return None if self.ended_ns is None else (self.ended_ns - self.claimed_ns) / 1e9

    def serve(self, session: str | None, what: str) -> None:
        if session and what not in self.served.setdefault(session, []):
            self.served[session].append(what)


@dataclass
class Session:
    id: str
    role: str
    cli: str
    model: str
    effort: str
    launched_ns: int
    attempt: str | None = None
    relaunch: dict[str, str] = field(default_factory=dict)   # revives / forks / restarts
    turns: int = 0
    dispatches: int = 0
    first_ns: int | None = None       # its first and last event in the period
    last_ns: int | None = None
    exited_ns: int | None = None

    @property
    def label(self) -> str:
        return model_label(self.cli, self.model, self.effort)

    @property
    def wall_s(self) -> float | None:
        start = max(self.launched_ns, self.first_ns or self.launched_ns)
        end = self.exited_ns or self.last_ns
        return None if end is None else max(0.0, (end - start) / 1e9)


@dataclass
class Attention:
    """One time the user was needed. `waits` says whether a wait applies (an intervention is the
    user's own move: nothing waited for it)."""

    kind: str
    ref: str
    seq: int
    asked_ns: int
    acted_ns: int | None = None
    task: str | None = None
    attempt: str | None = None
    session: str | None = None
    waits: bool = True

    @property
    def waited_s(self) -> float | None:
        if not self.waits or self.acted_ns is None:
            return None
        return max(0.0, (self.acted_ns - self.asked_ns) / 1e9)

    @property
    def state(self) -> str:
        return "open" if self.waits and self.acted_ns is None else "done"


@dataclass(frozen=True)
class Retro:
    """A retrospective kept (`retro_saved`): its id, text, and the period it looked at."""

    seq: int
    ts_ns: int
    session: str | None
    id: str | None
    since_ns: int | None
    text: str | None


@dataclass
class History:
    last_seq: int
    start_seq: int
    since_ns: int | None
    now_ns: int                      # the time of the last event: open things are measured to it
    project: str = ""
    cards: dict[str, Card] = field(default_factory=dict)
    attempts: dict[str, Attempt] = field(default_factory=dict)
    sessions: dict[str, Session] = field(default_factory=dict)
    attention: list[Attention] = field(default_factory=list)
    retros: list[Retro] = field(default_factory=list)

    def card(self, task: str) -> Card:
        return self.cards.get(task) or Card(task)

    def writer_of(self, a: Attempt) -> Session | None:
        return self.sessions.get(a.writer) if a.writer else None

    def task_of(self, item: Attention) -> str:
        if item.task:
            return item.task
        if item.attempt and item.attempt in self.attempts:
            return self.attempts[item.attempt].task
        s = self.sessions.get(item.session or "")
        if s and s.attempt and s.attempt in self.attempts:
            return self.attempts[s.attempt].task
        return NO_TASK

    def only_task(self, task: str) -> History:
        """The same history cut down to one task, its attempts and the sessions that served it."""
        attempts = {k: a for k, a in self.attempts.items() if a.task == task}
        serving = {s for a in attempts.values() for s in (a.writer, *a.served) if s}
        return History(
            self.last_seq, self.start_seq, self.since_ns, self.now_ns, self.project,
            {k: c for k, c in self.cards.items() if k == task}, attempts,
            {k: s for k, s in self.sessions.items() if k in serving},
            [i for i in self.attention if self.task_of(i) == task], [])


def model_label(cli: str | None, model: str | None, effort: str | None) -> str:
    """'cli model effort' with blanks dropped; '(user)' for no session."""
    return " ".join(x for x in (cli, model, effort) if x) or "(user)"


class Row:
    """One event; its payload is decoded only if a handler reads it (most never do)."""

    __slots__ = ("seq", "ts_ns", "kind", "task", "attempt", "session", "_raw", "_payload",
                 "_typed")

    def __init__(self, seq: int, ts_ns: int, kind: str, task: str | None, attempt: str | None,
                 session: str | None, raw: str | dict[str, Any]) -> None:
        self.seq, self.ts_ns, self.kind = seq, ts_ns, kind
        self.task, self.attempt, self.session = task, attempt, session
        self._raw = raw
        self._payload: dict[str, Any] | None = raw if isinstance(raw, dict) else None
        self._typed: Any = None

    @property
    def payload_json(self) -> JsonObject:
        """The payload as the log stores it (a JSON object; or the fields a query extracted)."""
        if self._payload is None:
            self._payload = json.loads(self._raw)
        return self._payload

    @property
    def typed(self) -> Any:
        """The payload as its kind's type (a2a_tui/payloads `payload_of`), read once."""
        if self._typed is None:
            self._typed = payload_of(self.kind, self.payload_json)
        return self._typed
