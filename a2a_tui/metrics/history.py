"""One read of the event log into plain records: cards, attempts, sessions, attention.

Only events are read, never a projection table, so a view written later works on history
recorded before it. High-volume kinds (signals, dispatches) are counted in SQL over the indexes
of migration 3; the rest is folded in sequence order, one handler per kind (metrics/handlers.py).
`--since` keeps what started in the period (attempts claimed, sessions launched or active,
attention asked at or after the instant) and follows each to its end.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from a2a_tui.kinds import EventKind, GateEvent
from a2a_tui.metrics.handlers import HANDLERS, Folding
from a2a_tui.metrics.kinds import SIGNAL_TURN_END, SIGNAL_WAITING
from a2a_tui.metrics.records import (
    NO_TASK,
    Attempt,
    Attention,
    Card,
    History,
    Rejection,
    Row,
    Session,
    model_label,
)

__all__ = ["NO_TASK", "Attempt", "Attention", "Card", "History", "Rejection", "Row", "Session",
           "load", "model_label"]

# --- reading -----------------------------------------------------------------------------------

_LAUNCH = ("role", "cli", "model", "effort", "revives", "forks", "restarts")
# The kinds read in SQL besides the fold's (HANDLERS): what the metrics read, for the reference.
READ_IN_SQL = (EventKind.INITIALIZED, GateEvent.CARD_ADDED, GateEvent.CARD_REVISED,
               EventKind.SESSION_LAUNCHING, EventKind.SIGNAL, EventKind.DISPATCH_QUEUED,
               EventKind.DISPATCH_SENT, EventKind.DISPATCH_ENTER_RESENT, EventKind.RETRO_STARTED,
               EventKind.RETRO_PROPOSED)


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
        _Reader(h, tx).run()
    return h


def _rows(tx, kinds: list[str], start: int, fields: tuple[str, ...] = (), *,
          few: bool = False, session: str | None = None, task: str | None = None) -> list[Row]:
    """Events of `kinds` from seq `start` on, in order. With `fields` (JSON paths such as
    "card.title"), only those are read out of the payload, in SQL. `few`: the kinds are rare
    (cards, launches), so look them up in the kind index; the planner, counting many kinds,
    would scan the table, which is the faster way to read the fold's share of a long log.
    `session` / `task`: only that one's events, looked up in its index."""
    marks = ",".join("?" * len(kinds))
    how, where, params = "INDEXED BY events_kind" if few else "", "", [*kinds, start]
    if session is not None:
        how, where = "INDEXED BY events_kind_session", " AND session = ?"
        params.append(session)
    elif task is not None:
        how, where = "INDEXED BY events_task", " AND task = ?"
        params.append(task)
    cols = ", ".join(f"json_extract(payload, '$.{f}')" for f in fields) or "payload"
    rows = tx.all(f"SELECT seq, ts_ns, kind, task, attempt, session, {cols} FROM events {how}"
                  f" WHERE kind IN ({marks}) AND seq >= ?{where} ORDER BY seq", params)
    if not fields:
        return [Row(*r) for r in rows]
    return [Row(*r[:6], dict(zip(fields, r[6:], strict=True))) for r in rows]


def _from(start: int, index: str, alias: str = "") -> str:
    """The FROM of a count over the events from seq `start` on: through `index` over the whole
    log; for a period (`--since`), a scan of the period alone by seq (the indexes lead with the
    kind, so a period's rows are spread over all of the log's in them)."""
    how = f"INDEXED BY {index}" if start <= 1 else "NOT INDEXED"
    return f"FROM events {f'AS {alias} ' if alias else ''}{how}"


def _signals(start: int, alias: str = "") -> str:
    """Signals by their payload kind (bind it), through migration 3's partial index for the
    whole log. The kind is written into the SQL (a member of the registry, never input): a
    partial index serves only a literal condition."""
    a = f"{alias}." if alias else ""
    return (f"{_from(start, 'events_signal_kind', alias)} WHERE {a}kind ="
            f" '{EventKind.SIGNAL.value}' AND json_extract({a}payload, '$.kind') = ?")


class _Launches:
    """Sessions' launches: the period's own read at once; an older one (a session launched
    before the period that is heard from in it) looked up in the (kind, session) index when
    asked for, so a `--since` read costs the period, not the log before it."""

    def __init__(self, tx, start: int) -> None:
        self.tx, self.start = tx, start
        self.own = {r.session: r for r in _rows(tx, [EventKind.SESSION_LAUNCHING], start,
                                                _LAUNCH, few=True) if r.session}
        self.older: dict[str, Row | None] = {}

    def get(self, sid: str | None) -> Row | None:
        if not sid:
            return None
        if sid in self.own:
            return self.own[sid]
        if self.start <= 1:
            return None
        if sid not in self.older:
            found = _rows(self.tx, [EventKind.SESSION_LAUNCHING], 1, _LAUNCH, session=sid)
            self.older[sid] = found[-1] if found else None
        return self.older[sid]

    def __contains__(self, sid: object) -> bool:
        return isinstance(sid, str) and self.get(sid) is not None

    def __getitem__(self, sid: str) -> Row:
        r = self.get(sid)
        if r is None:
            raise KeyError(sid)
        return r


class _Reader:
    """The read: the period's launches first (older ones when asked for), then the fold of the
    period's events through HANDLERS, the cards of its tasks, then what is counted in SQL
    (turns, dispatches, pane waits)."""

    def __init__(self, h: History, tx) -> None:
        self.h, self.tx = h, tx
        self.launches = _Launches(tx, h.start_seq)
        self.state = Folding(h, self.launches,
                             lambda sid, seq, kinds, before: _nearest(tx, sid, seq, kinds,
                                                                      before=before))

    def run(self) -> None:
        h, tx = self.h, self.tx
        init = tx.one("SELECT payload FROM events WHERE kind = ? ORDER BY seq LIMIT 1",
                      (EventKind.INITIALIZED,))
        if init is not None:
            h.project = Path(json.loads(init[0]).get("root") or "").name
        for r in _rows(tx, list(HANDLERS), h.start_seq):
            HANDLERS[r.kind](self.state, r)
        self._cards()
        self._counts()
        self._pane_waits()

    def _cards(self) -> None:
        """Each card as last revised: all of them for the whole log; for a period, those of
        its tasks (a period's attempt may use an older card), each looked up by its task."""
        h, kinds = self.h, [GateEvent.CARD_ADDED, GateEvent.CARD_REVISED]
        fields = ("card.title", "card.task_type", "card.complexity")
        if h.start_seq <= 1:
            rows = _rows(self.tx, kinds, 1, fields, few=True)
        else:
            named = self.tx.all("SELECT DISTINCT task FROM events NOT INDEXED WHERE seq >= ?"
                                " AND task IS NOT NULL", (h.start_seq,))
            tasks = {a.task for a in h.attempts.values()} | {t for (t,) in named}
            rows = [r for t in sorted(tasks) for r in _rows(self.tx, kinds, 1, fields, task=t)]
        for r in rows:
            p = r.payload_json
            h.cards[r.task or ""] = Card(r.task or "", p["card.title"] or "",
                                         p["card.task_type"] or "?", p["card.complexity"] or "?")

    def session(self, sid: str) -> Session:
        return self.state.session(sid)

    def _counts(self) -> None:
        """Turns, dispatches and first/last event per session, counted over indexes."""
        h, tx = self.h, self.tx
        for sid in self.launches.own:    # launched in the period
            self.session(sid)
        for a in h.attempts.values():
            for sid in (a.writer, *a.served):
                if sid and sid not in h.sessions and sid in self.launches:
                    self.session(sid)
        start = h.start_seq
        for sid, n in tx.all(f"SELECT session, COUNT(*) {_signals(start)} AND seq >= ?"
                             " GROUP BY session", (SIGNAL_TURN_END, start)):
            if sid in self.launches:
                self.session(sid).turns = n
        for sid, n in tx.all(
                f"SELECT session, COUNT(*) {_from(start, 'events_kind_session')}"
                " WHERE kind = ? AND seq >= ? GROUP BY session",
                (EventKind.DISPATCH_QUEUED, start)):
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
        acted, params = _nearest_sql(_HEARD, before=False,
                                     session="w.session", seq="w.seq")
        for seq, ts, sid, attempt, done in tx.all(
                f"SELECT w.seq, w.ts_ns, w.session, w.attempt, {acted}"
                f" {_signals(h.start_seq, 'w')} AND w.seq >= ?",
                (*params, SIGNAL_WAITING, h.start_seq)):
            h.attention.append(Attention("permission", sid or "", seq, ts, acted_ns=done,
                                         attempt=attempt, session=sid))
        for item in h.attention:
            if item.kind == "stall" and item.session:
                item.acted_ns = _nearest(tx, item.session, item.seq,
                                         _HEARD, before=False)
        h.attention.sort(key=lambda i: i.seq)



_NO_SEQ = 1 << 62
# A pane is heard from again: a signal, a release, its exit.
_HEARD = (EventKind.SIGNAL, EventKind.PANE_RELEASED, EventKind.PANE_EXITED)


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
        params.append(str(k))
    pick = parts[0] if len(parts) == 1 else f"{agg}({', '.join(parts)})"
    return f"(SELECT ts_ns FROM events WHERE seq = {pick})", params  # params: the kinds


def _nearest(tx, session: str | None, seq: int, kinds: tuple[str, ...], *, before: bool
             ) -> int | None:
    """The time of the session's last event of `kinds` before `seq` (or its first after)."""
    expr, _ = _nearest_sql(kinds, before=before, session="?", seq="?")
    values: list[Any] = []
    for k in kinds:
        values += [str(k), session, seq]
    return tx.one(f"SELECT {expr}", values)[0]


def _ts(tx, sql: str, params: tuple[Any, ...]) -> int | None:
    """The time of the event whose seq `sql` selects."""
    row = tx.one(f"SELECT ts_ns FROM events WHERE seq = ({sql})", params)
    return row[0] if row else None
