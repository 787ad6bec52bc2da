"""One read of the event log into plain records: cards, attempts, sessions, attention.

Only events are read, never a projection table, so a view written later works on history
recorded before it. High-volume kinds (signals, dispatches) are counted in SQL over the indexes
of migration 3; the rest is folded here in sequence order. `--since` keeps what started in the
period (attempts claimed, sessions launched or active, attention asked at or after the instant)
and follows each to its end.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from a2a_tui.metrics.kinds import (
    CHECK_STEP,
    KINDS,
    RESOLUTIONS,
    SIGNAL_TURN_END,
    SIGNAL_WAITING,
    STEPS,
)

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

    @property
    def concluded(self) -> bool:
        return self.outcome in ("integrated", "abandoned", "superseded")

    @property
    def first_pass(self) -> bool:
        """Integrated with no rejection."""
        return self.outcome == "integrated" and not self.rejections

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
    retros: list[dict[str, Any]] = field(default_factory=list)

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


# --- reading -----------------------------------------------------------------------------------

_ROLE = {kind: role for role, kind in KINDS.items()}
_LAUNCH = ("role", "cli", "model", "effort", "revives", "forks", "restarts")
_FOLDED = ("claimed", "submitted", "verify_started", "verified", "rejected", "flaky",
           "contract_invalid", "integration_intent", "integrated", "abandoned", "superseded",
           "claim_failed", "integration_unknown", "resolved", "approved", "diverged", "adopted",
           "feedback", "feedback_stopped", "review_started", "reviewed", "writer_bound",
           "exited", "released", "stalled", "intervention", "posted", "answered", "closed",
           "retro_saved")


class Row:
    """One event; its payload is decoded only if a handler reads it (most never do)."""

    __slots__ = ("seq", "ts_ns", "kind", "task", "attempt", "session", "_raw", "_payload")

    def __init__(self, seq: int, ts_ns: int, kind: str, task: str | None, attempt: str | None,
                 session: str | None, raw: str | dict[str, Any]) -> None:
        self.seq, self.ts_ns, self.kind = seq, ts_ns, kind
        self.task, self.attempt, self.session = task, attempt, session
        self._raw = raw
        self._payload: dict[str, Any] | None = raw if isinstance(raw, dict) else None

    @property
    def payload(self) -> dict[str, Any]:
        if self._payload is None:
            self._payload = json.loads(self._raw)
        return self._payload


def load(store, *, since_ns: int | None = None) -> History:
    """Read the history (from `since_ns` on) in one read transaction."""
    with store.snapshot() as tx:
        last = int(tx.one("SELECT COALESCE(MAX(seq), 0) FROM events")[0])
        start = 1
        if since_ns is not None:
            # Through the time index (alone, MIN(seq) would walk the table from the start).
            row = tx.one("SELECT MIN(seq) FROM (SELECT seq FROM events INDEXED BY events_ts"
                         " WHERE ts_ns >= ?)", (since_ns,))
            start = row[0] if row[0] is not None else last + 1
        now = tx.one("SELECT ts_ns FROM events WHERE seq = ?", (last,))
        h = History(last_seq=last, start_seq=start, since_ns=since_ns,
                    now_ns=now[0] if now else 0)
        _Fold(h, tx).run()
    return h


def _rows(tx, kinds: list[str], start: int, fields: tuple[str, ...] = (), *,
          few: bool = False) -> list[Row]:
    """Events of `kinds` from seq `start` on, in order. With `fields` (JSON paths such as
    "card.title"), only those are read out of the payload, in SQL. `few`: the kinds are rare
    (cards, launches), so look them up in the kind index; the planner, counting many kinds,
    would scan the table, which is the faster way to read the fold's share of a long log."""
    marks = ",".join("?" * len(kinds))
    how = "INDEXED BY events_kind" if few else ""
    cols = ", ".join(f"json_extract(payload, '$.{f}')" for f in fields) or "payload"
    rows = tx.all(f"SELECT seq, ts_ns, kind, task, attempt, session, {cols} FROM events {how}"
                  f" WHERE kind IN ({marks}) AND seq >= ? ORDER BY seq", (*kinds, start))
    if not fields:
        return [Row(*r) for r in rows]
    return [Row(*r[:6], dict(zip(fields, r[6:], strict=True))) for r in rows]


# Signals by their payload kind, through migration 3's partial index. The kind is written into
# the SQL (a constant of KINDS, never input): a partial index serves only a literal condition.
_SIGNALS = (f"FROM events INDEXED BY events_signal_kind WHERE kind = '{KINDS['signal']}'"
            " AND json_extract(payload, '$.kind') = ?")


class _Fold:
    """The sequence-order fold: one handler per meaning in KINDS."""

    def __init__(self, h: History, tx) -> None:
        self.h, self.tx = h, tx
        self.questions: dict[str, Attention] = {}
        self.stops: dict[str, Attention] = {}      # attempt -> open three-strike stop
        self.unknowns: dict[str, Attention] = {}   # attempt -> open unknown outcome
        self.diverged: dict[str, Attention] = {}   # target -> open divergence
        self.handlers: dict[str, Callable[[Row], None]] = {
            role: getattr(self, f"on_{role}") for role in _FOLDED}

    def run(self) -> None:
        h, tx = self.h, self.tx
        init = tx.one("SELECT payload FROM events WHERE kind = ? ORDER BY seq LIMIT 1",
                      (KINDS["initialized"],))
        if init is not None:
            h.project = Path(json.loads(init[0]).get("root") or "").name
        # Cards and launches are read from the start: a period's attempt may use an older card,
        # and an older session may serve it.
        for r in _rows(tx, [KINDS["card_added"], KINDS["card_revised"]], 1,
                       ("card.title", "card.task_type", "card.complexity"), few=True):
            p = r.payload
            h.cards[r.task or ""] = Card(r.task or "", p["card.title"] or "",
                                         p["card.task_type"] or "?", p["card.complexity"] or "?")
        self.launches = {r.session: r for r in _rows(tx, [KINDS["launching"]], 1, _LAUNCH, few=True)
                         if r.session}
        for r in _rows(tx, [KINDS[k] for k in _FOLDED], h.start_seq):
            self.handlers[_ROLE[r.kind]](r)
        self._counts()
        self._pane_waits()

    # --- attempts ---
    def attempt(self, r: Row) -> Attempt | None:
        return self.h.attempts.get(r.attempt or "")

    def on_claimed(self, r: Row) -> None:
        if r.attempt and r.task:
            self.h.attempts[r.attempt] = Attempt(r.attempt, r.task, r.seq, r.ts_ns, r.session)
            self.h.attempts[r.attempt].serve(r.session, "claim")

    def on_writer_bound(self, r: Row) -> None:
        a = self.attempt(r)
        if a is not None and r.session:
            a.writer = r.session
            a.served.pop(r.session, None)
            self.session(r.session).attempt = a.id

    def on_submitted(self, r: Row) -> None:
        if (a := self.attempt(r)) is not None:
            a.rounds += 1
            if r.session != a.writer:
                a.serve(r.session, "submit")
            self._end_stop(a.id, r)

    def on_verify_started(self, r: Row) -> None:
        if (a := self.attempt(r)) is not None:
            a.serve(r.session, "verify")

    def on_verified(self, r: Row) -> None:
        if (a := self.attempt(r)) is not None:
            a.verify_runs += 1
            a.verified_ns = r.ts_ns
            self._tests(a, r.payload)

    def _tests(self, a: Attempt, p: dict[str, Any]) -> None:
        t = p.get("tests")
        if not isinstance(t, dict):
            return
        before = a.tests or {"masked": 0, "dropped": 0}
        a.tests = {"run": int(t.get("run", 0)), "passed": int(t.get("passed", 0)),
                   "masked": before["masked"] + int(t.get("masked", 0)),
                   "dropped": before["dropped"] + int(t.get("dropped", 0))}

    def on_rejected(self, r: Row) -> None:
        if (a := self.attempt(r)) is None:
            return
        a.verify_runs += 1
        p = r.payload
        self._tests(a, p)
        first = p.get("first_failure") or "unknown"
        step = p.get("step") or (first if first in STEPS else CHECK_STEP)
        a.rejections.append(Rejection(a.id, a.task, r.seq, r.ts_ns, step, p.get("code") or first,
                                      p.get("run")))

    def on_flaky(self, r: Row) -> None:
        if (a := self.attempt(r)) is not None:
            a.verify_runs += 1
            a.flaky += 1
            self._tests(a, r.payload)

    def on_contract_invalid(self, r: Row) -> None:
        if (a := self.attempt(r)) is not None:
            a.contract_invalid += 1

    def on_reviewed(self, r: Row) -> None:
        if (a := self.attempt(r)) is None:
            return
        a.serve(r.session, "review")
        verdict = r.payload.get("verdict")
        if verdict in ("block", "fail"):
            a.rejections.append(Rejection(a.id, a.task, r.seq, r.ts_ns, "review", verdict,
                                          None))

    def on_review_started(self, r: Row) -> None:
        if (a := self.attempt(r)) is not None:
            a.serve(r.session, "review")

    def on_integration_intent(self, r: Row) -> None:
        if (a := self.attempt(r)) is not None:
            a.serve(r.session, "integrate")

    def _end(self, a: Attempt, r: Row, outcome: str) -> None:
        a.outcome, a.ended_ns = outcome, r.ts_ns
        self._end_stop(a.id, r)

    def on_integrated(self, r: Row) -> None:
        if (a := self.attempt(r)) is not None:
            self._end(a, r, "integrated")
            self._facts(a, r.payload)

    def on_abandoned(self, r: Row) -> None:
        if (a := self.attempt(r)) is not None:
            a.serve(r.session, "abandon")
            self._end(a, r, "abandoned")
            self._facts(a, r.payload)

    def _facts(self, a: Attempt, p: dict[str, Any]) -> None:
        score = p.get("score") or {}
        if "boundary" in score or "taste" in score:
            a.score = score
        lines = p.get("changed_lines")
        if isinstance(lines, dict) and "added" in lines and "removed" in lines:
            a.lines = (int(lines["added"]), int(lines["removed"]))

    def on_superseded(self, r: Row) -> None:
        if (a := self.attempt(r)) is not None:
            self._end(a, r, "superseded")

    def on_claim_failed(self, r: Row) -> None:
        if (a := self.attempt(r)) is not None:
            self._end(a, r, "failed")

    def on_integration_unknown(self, r: Row) -> None:
        if (a := self.attempt(r)) is not None:
            a.outcome, a.ended_ns = "unknown", r.ts_ns
            self.unknowns[a.id] = self.ask("unknown", a.id, r)

    def on_resolved(self, r: Row) -> None:
        a = self.attempt(r)
        if a is None:
            return
        outcome = RESOLUTIONS.get(str(r.payload.get("as", "")).lower())
        a.outcome, a.ended_ns = outcome, (r.ts_ns if outcome else None)
        if (item := self.unknowns.pop(a.id, None)) is not None:
            item.acted_ns = r.ts_ns

    def on_approved(self, r: Row) -> None:
        a = self.attempt(r)
        item = self.ask("approval", r.attempt or "", r)
        item.asked_ns = (a.verified_ns if a and a.verified_ns else r.ts_ns)
        item.acted_ns = r.ts_ns

    # --- attention ---
    def ask(self, kind: str, ref: str, r: Row, *, waits: bool = True) -> Attention:
        item = Attention(kind, ref, r.seq, r.ts_ns, task=r.task, attempt=r.attempt,
                         session=r.session, waits=waits)
        self.h.attention.append(item)
        return item

    def on_posted(self, r: Row) -> None:
        if r.payload.get("kind") == "question":
            self.questions[r.payload.get("id", "")] = self.ask("question", r.payload.get("id", ""),
                                                               r)

    def on_answered(self, r: Row) -> None:
        item = self.questions.pop(r.payload.get("id", ""), None)
        if item is not None:
            item.acted_ns = r.ts_ns

    on_closed = on_answered

    def on_released(self, r: Row) -> None:
        # How long the pane sat stuck: from the last thing heard from it (or written to it: an
        # Enter, also one written again) to the release.
        item = self.ask("release", r.session or "", r)
        quiet = _nearest(self.tx, r.session, r.seq, ("signal", "dispatch_sent", "enter_resent"),
                         before=True)
        item.asked_ns, item.acted_ns = (quiet or r.ts_ns), r.ts_ns

    def on_intervention(self, r: Row) -> None:
        via = r.payload.get("kind") or r.payload.get("via") or "intervention"
        self.ask("intervention", str(via), r, waits=False)

    def on_stalled(self, r: Row) -> None:
        self.ask("stall", r.session or "", r)   # its end is looked up with the pane waits

    def on_feedback(self, r: Row) -> None:
        # Feedback not sent to a managed writer: the three-strike stop (before feedback_stopped).
        a = self.attempt(r)
        if r.payload.get("sent") is False and a is not None and a.writer:
            self.on_feedback_stopped(r)

    def on_feedback_stopped(self, r: Row) -> None:
        if r.attempt and r.attempt not in self.stops:   # one stop, however many say so
            self.stops[r.attempt] = self.ask("feedback_stop", r.attempt, r)

    def _end_stop(self, attempt: str, r: Row) -> None:
        if (item := self.stops.pop(attempt, None)) is not None:
            item.acted_ns = r.ts_ns

    def on_diverged(self, r: Row) -> None:
        key = str(r.payload.get("target") or r.payload.get("ref") or "")
        self.diverged.setdefault(key, self.ask("divergence", key, r))

    def on_adopted(self, r: Row) -> None:
        key = str(r.payload.get("target") or r.payload.get("ref") or "")
        item = self.diverged.pop(key, None) or (
            self.diverged.pop(next(iter(self.diverged))) if self.diverged else None)
        if item is not None:
            item.acted_ns = r.ts_ns

    def on_exited(self, r: Row) -> None:
        if r.session:
            self.session(r.session).exited_ns = r.ts_ns

    def on_retro_saved(self, r: Row) -> None:
        self.h.retros.append({"seq": r.seq, "ts_ns": r.ts_ns, "session": r.session,
                              **{k: r.payload.get(k) for k in ("id", "since_ns", "text")}})

    # --- sessions ---
    def session(self, sid: str) -> Session:
        s = self.h.sessions.get(sid)
        if s is None:   # made once, from its launch
            r = self.launches.get(sid)
            p = r.payload if r else {}
            s = Session(sid, p.get("role") or "?", p.get("cli") or "?", p.get("model") or "",
                        p.get("effort") or "", r.ts_ns if r else 0,
                        relaunch={k: str(p[k]) for k in ("revives", "forks", "restarts")
                                  if p.get(k)})
            if r is not None and r.attempt:
                s.attempt = r.attempt
            self.h.sessions[sid] = s
        return s

    def _counts(self) -> None:
        """Turns, dispatches and first/last event per session, counted over indexes."""
        h, tx = self.h, self.tx
        for sid, r in self.launches.items():
            if r.seq >= h.start_seq:
                self.session(sid)
        for a in h.attempts.values():
            for sid in (a.writer, *a.served):
                if sid and sid not in h.sessions and sid in self.launches:
                    self.session(sid)
        start = h.start_seq
        for sid, n in tx.all(f"SELECT session, COUNT(*) {_SIGNALS} AND seq >= ?"
                             " GROUP BY session", (SIGNAL_TURN_END, start)):
            if sid in self.launches:
                self.session(sid).turns = n
        for sid, n in tx.all(
                "SELECT session, COUNT(*) FROM events INDEXED BY events_kind_session"
                " WHERE kind = ? AND seq >= ? GROUP BY session", (KINDS["dispatch_queued"], start)):
            if sid in self.launches:
                self.session(sid).dispatches = n
        for s in h.sessions.values():
            # A session launched before the period starts with its first event in it; one
            # that has not exited lasts to its last event (both looked up by the session index).
            if s.launched_ns and self.launches[s.id].seq < start:
                s.first_ns = _ts(tx, "SELECT MIN(seq) FROM events WHERE session = ?"
                                 " AND seq >= ?", (s.id, start))
            if s.exited_ns is None:
                s.last_ns = _ts(tx, "SELECT MAX(seq) FROM events WHERE session = ?", (s.id,))

    def _pane_waits(self) -> None:
        """Permission prompts (a `waiting` signal) and stalls: each waits until the pane is
        heard from again, released or gone (looked up in SQL, one statement for them all)."""
        h, tx = self.h, self.tx
        acted, params = _nearest_sql(("signal", "released", "exited"), before=False,
                                     session="w.session", seq="w.seq")
        for seq, ts, sid, attempt, done in tx.all(
                f"SELECT w.seq, w.ts_ns, w.session, w.attempt, {acted}"
                f" {_SIGNALS.replace('FROM events', 'FROM events AS w')} AND w.seq >= ?",
                (*params, SIGNAL_WAITING, h.start_seq)):
            h.attention.append(Attention("permission", sid or "", seq, ts, acted_ns=done,
                                         attempt=attempt, session=sid))
        for item in h.attention:
            if item.kind == "stall" and item.session:
                item.acted_ns = _nearest(tx, item.session, item.seq,
                                         ("signal", "released", "exited"), before=False)
        h.attention.sort(key=lambda i: i.seq)


_NO_SEQ = 1 << 62


def _nearest_sql(kinds: tuple[str, ...], *, before: bool, session: str, seq: str
                 ) -> tuple[str, list[Any]]:
    """An SQL expression for the time of the session's last event of `kinds` before `seq` (or
    its first after): one seek per kind in the (kind, session) index, then one row. `session`
    and `seq` are SQL (a column of an outer query, or `?` to bind)."""
    agg, cmp, none = ("MAX", "<", -1) if before else ("MIN", ">", _NO_SEQ)
    parts, params = [], []
    for k in kinds:   # binds, per kind: the kind, then `session` and `seq` where they are `?`
        parts.append(f"COALESCE((SELECT {agg}(seq) FROM events INDEXED BY events_kind_session"
                     f" WHERE kind = ? AND session = {session} AND seq {cmp} {seq}), {none})")
        params.append(KINDS[k])
    pick = parts[0] if len(parts) == 1 else f"{agg}({', '.join(parts)})"
    return f"(SELECT ts_ns FROM events WHERE seq = {pick})", params  # params: the kinds


def _nearest(tx, session: str | None, seq: int, kinds: tuple[str, ...], *, before: bool
             ) -> int | None:
    """The time of the session's last event of `kinds` before `seq` (or its first after)."""
    expr, _ = _nearest_sql(kinds, before=before, session="?", seq="?")
    values: list[Any] = []
    for k in kinds:
        values += [KINDS[k], session, seq]
    return tx.one(f"SELECT {expr}", values)[0]


def _ts(tx, sql: str, params: tuple[Any, ...]) -> int | None:
    """The time of the event whose seq `sql` selects."""
    row = tx.one(f"SELECT ts_ns FROM events WHERE seq = ({sql})", params)
    return row[0] if row else None
