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
# the SQL (a member of the registry, never input): a partial index serves only a literal
# condition.
_SIGNALS = (f"FROM events INDEXED BY events_signal_kind WHERE kind = '{EventKind.SIGNAL.value}'"
            " AND json_extract(payload, '$.kind') = ?")


class _Reader:
    """The read: cards and launches first (from the start of the log), then the fold of the
    period's events through HANDLERS, then what is counted in SQL (turns, dispatches, pane
    waits)."""

    def __init__(self, h: History, tx) -> None:
        self.h, self.tx = h, tx
        # Cards and launches are read from the start: a period's attempt may use an older card,
        # and an older session may serve it.
        self.launches = {r.session: r for r in _rows(tx, [EventKind.SESSION_LAUNCHING], 1,
                                                     _LAUNCH, few=True) if r.session}
        self.state = Folding(h, self.launches,
                             lambda sid, seq, kinds, before: _nearest(tx, sid, seq, kinds,
                                                                      before=before))

    def run(self) -> None:
        h, tx = self.h, self.tx
        init = tx.one("SELECT payload FROM events WHERE kind = ? ORDER BY seq LIMIT 1",
                      (EventKind.INITIALIZED,))
        if init is not None:
            h.project = Path(json.loads(init[0]).get("root") or "").name
        for r in _rows(tx, [GateEvent.CARD_ADDED, GateEvent.CARD_REVISED], 1,
                       ("card.title", "card.task_type", "card.complexity"), few=True):
            p = r.payload
            h.cards[r.task or ""] = Card(r.task or "", p["card.title"] or "",
                                         p["card.task_type"] or "?", p["card.complexity"] or "?")
        for r in _rows(tx, list(HANDLERS), h.start_seq):
            HANDLERS[r.kind](self.state, r)
        self._counts()
        self._pane_waits()

    def session(self, sid: str) -> Session:
        return self.state.session(sid)

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
                f" {_SIGNALS.replace('FROM events', 'FROM events AS w')} AND w.seq >= ?",
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
