"""What the workbench shows, read from the store: bounded, indexed queries and plain data.

No textual here: a worker thread runs these with its own connection and posts the results. Every
query is bounded (a LIMIT or a per-id index lookup), so the first frame does not grow with the
event log. `panels_touched` decides which panels a batch of new events can have changed, so only
those are read again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from a2a_tui.gate import views as gate_views
from a2a_tui.panes import calls
from a2a_tui.panes import views as pane_views
from a2a_tui.panes.calls import Waiting
from a2a_tui.payloads import payload_of
from a2a_tui.payloads.house import DemoStep
from a2a_tui.store.db import Event

# The panels' row types that are the core's read models, under the names the panels use: the
# Sessions panel shows what `a2a sessions` prints, the Gate panel the gate's checks.
SessionRow = pane_views.SessionView
CheckRow = gate_views.CheckView

EVENTS_TAIL = 200          # rows the Events panel keeps
EVENTS_BATCH = 1000        # new events read per change; more than this reloads everything
BOARD_LIMIT = 200
INBOX_LIMIT = 100
CARDS_LIMIT = 200
PANELS = ("sessions", "board", "inbox", "gate")


@dataclass(frozen=True)
class BoardItem:
    id: str
    kind: str                # question | finding
    title: str
    body: str
    options: list[dict[str, str]]
    recommend: str | None
    why: str | None
    blocking: bool
    category: str
    asked_by: str | None
    status: str              # open | answered
    held: bool               # answered, and the answer waits to be sent
    ts_ns: int


@dataclass(frozen=True)
class InboxEntry:
    id: str
    kind: str
    author: str              # role (session)
    recipient: str
    card: str | None
    status: str | None       # PASS | INCOMPLETE | BLOCKED | NO_GO
    state: str               # open | acked | disposed
    authorized: bool | None
    text: str
    ref: str | None
    ts_ns: int


@dataclass(frozen=True)
class GateRow:
    """A card with its latest attempt and that attempt's last verify (read models of the gate)."""

    card: str
    title: str
    card_state: str
    version: int
    attempt: str | None
    attempt_state: str | None
    writer: str | None
    sha: str | None
    rejections: int
    worktree_state: str | None      # pending | present | reclaimed | ...
    verify_state: str | None        # running | passed | rejected | interrupted
    verify_run: int | None
    checks: list[CheckRow] = field(default_factory=list)
    unconfined: bool = False        # written by a session that ran unconfined


@dataclass
class Snapshot:
    """Everything the panels show; a field left None was not read this time."""

    last_seq: int
    sessions: list[SessionRow] | None = None
    board: list[BoardItem] | None = None
    inbox: list[InboxEntry] | None = None
    gate: list[GateRow] | None = None
    events: list[Event] = field(default_factory=list)
    reset_events: bool = False      # events is a fresh tail, not an increment
    narration: tuple[int, str] | None = None   # the demo director's latest step, if new
    waiting: list[Waiting] = field(default_factory=list)   # what waits for the user


def board(store, where: str = "", params: tuple = (), limit: int = BOARD_LIMIT
          ) -> list[BoardItem]:
    """Items not closed: questions first, each kind in the order it was asked (`where`: the
    store-side search's condition on the item `i`)."""
    rows = store.all(
        "SELECT i.*,"
        " EXISTS(SELECT 1 FROM board_records r WHERE r.item_id = i.id AND r.kind = 'answer')"
        "   AS answered,"
        " EXISTS(SELECT 1 FROM board_records r JOIN user_inputs u ON u.id = r.user_input"
        "   LEFT JOIN deliveries d ON d.record = u.id"
        "   WHERE r.item_id = i.id AND r.kind = 'answer' AND d.record IS NULL"
        "   AND u.to_session IS NOT NULL) AS held"
        " FROM board_items i"
        " WHERE NOT EXISTS(SELECT 1 FROM board_records r WHERE r.item_id = i.id"
        f"   AND r.kind = 'close'){where}"
        " ORDER BY i.kind = 'finding', i.seq LIMIT ?", (*params, limit))
    return [BoardItem(
        id=r["id"], kind=r["kind"], title=r["title"], body=r["body"],
        options=json.loads(r["options"] or "[]"), recommend=r["recommend"], why=r["why"],
        blocking=bool(r["blocking"]), category=r["category"], asked_by=r["asked_by"],
        status="answered" if r["answered"] else "open", held=bool(r["held"]), ts_ns=r["ts_ns"])
        for r in rows]


def inbox(store, where: str = "", params: tuple = (), limit: int = INBOX_LIMIT
          ) -> list[InboxEntry]:
    """The newest entries first, each with the state its acks and dispositions give it."""
    rows = store.all(
        "SELECT e.*,"
        " EXISTS(SELECT 1 FROM inbox x WHERE x.ref = e.id AND x.kind = 'disposition') AS disposed,"
        " EXISTS(SELECT 1 FROM inbox x WHERE x.ref = e.id AND x.kind = 'ack') AS acked"
        f" FROM inbox e WHERE 1{where} ORDER BY e.n DESC LIMIT ?", (*params, limit))
    out = []
    for r in rows:
        author = r["author_role"] + (f" ({r['author_session']})" if r["author_session"] else "")
        out.append(InboxEntry(
            id=r["id"], kind=r["kind"], author=author,
            recipient=r["recipient"], card=r["card_id"],
            status=r["status"], state="disposed" if r["disposed"] else
            "acked" if r["acked"] else "open",
            authorized=None if r["authorized"] is None else bool(r["authorized"]),
            text=r["text"], ref=r["ref"], ts_ns=r["ts_ns"]))
    return out


def gate(store, cards=None) -> list[GateRow]:
    """Each card (the first CARDS_LIMIT, or `cards`) with its latest attempt and the per-check
    results of that attempt's last verify."""
    out = []
    for c in gate_views.cards(store, limit=CARDS_LIMIT) if cards is None else cards:
        a = gate_views.latest_attempt(store, c.id)
        v = None if a is None else gate_views.last_verify(store, a.id)
        out.append(GateRow(
            card=c.id, title=c.title, card_state=c.state, version=c.version,
            attempt=a.id if a else None, attempt_state=a.state if a else None,
            writer=a.writer if a else None, sha=a.submitted_sha if a else None,
            rejections=a.rejections if a else 0,
            worktree_state=a.worktree_state if a else None, verify_state=v.state if v else None,
            verify_run=v.run if v else None, checks=list(v.checks) if v else [],
            unconfined=bool(a and a.unconfined)))
    return out


NARRATION = "demo_step"     # the demo director's events (a2a_tui/demo/director.py)


def narration(store, events: list[Event] | None = None) -> tuple[int, str] | None:
    """The demo's latest step: among `events` when given, else the last one in the store (an
    index lookup by kind)."""
    if events is not None:
        steps = [e for e in events if e.kind == NARRATION]
    else:
        steps = store.events(kinds=[NARRATION], limit=1, newest_first=True)
    if not steps:
        return None
    last: DemoStep = payload_of(NARRATION, steps[-1 if events is not None else 0].payload)
    return int(last.step or 0), str(last.text or "")


def events_tail(store, limit: int = EVENTS_TAIL) -> list[Event]:
    """The last `limit` events, oldest first (the primary key makes this cheap at any size)."""
    return list(reversed(store.events(limit=limit, newest_first=True)))


READERS = {"sessions": pane_views.sessions, "board": board, "inbox": inbox, "gate": gate}


# --- `/`: the whole record searched in the store, not only the rows a panel has loaded --------
SEARCH_LIMIT = 500   # rows a search brings back at most (the newest first)
_SEARCHED = {        # scope -> the columns each word is looked for in
    "events": ("CAST(seq AS TEXT)", "kind", "actor", "session", "task", "attempt", "payload"),
    "board": ("i.id", "i.title", "i.body", "i.asked_by", "i.category", "i.options"),
    "inbox": ("e.id", "e.kind", "e.text", "e.author_role", "e.author_session", "e.card_id",
              "e.status", "e.recipient"),
    "gate": ("c.id", "c.title", "c.body", "(SELECT group_concat(a.id || ' ' || a.state, ' ')"
             " FROM attempts a WHERE a.card_id = c.id)"),
}


def _matching(columns: tuple[str, ...], words: list[str]) -> tuple[str, tuple]:
    """` AND (...)` for each word (found in any column, case-insensitive, % and _ literal)."""
    sql, params = "", []
    for w in words:
        like = "%" + w.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        sql += " AND (" + " OR ".join(f"{c} LIKE ? ESCAPE '\\'" for c in columns) + ")"
        params += [like] * len(columns)
    return sql, tuple(params)


def search(store, scope: str, text: str) -> list:
    """The rows of a panel's whole record that hold every word of `text` (at most
    SEARCH_LIMIT, the newest first for events); the Sessions panel loads all its rows, so it is
    never searched here."""
    words = text.lower().split()
    where, params = _matching(_SEARCHED[scope], words)
    if scope == "events":
        rows = store.all(f"SELECT * FROM events WHERE 1{where} ORDER BY seq DESC LIMIT ?",
                         (*params, SEARCH_LIMIT))
        return list(reversed([Event.from_row(r) for r in rows]))
    if scope == "board":
        return board(store, where, params, SEARCH_LIMIT)
    if scope == "inbox":
        return inbox(store, where, params, SEARCH_LIMIT)
    ids = [r["id"] for r in store.all(f"SELECT c.id FROM cards c WHERE 1{where} LIMIT ?",
                                      (*params, SEARCH_LIMIT))]
    return gate(store, [c for c in gate_views.cards(store) if c.id in set(ids)])

# Which panels an event can change. Kinds are matched by prefix so that a kind another part of
# a2a adds later still lands somewhere; an event that matches nothing refreshes every panel.
_RULES: dict[str, tuple[str, ...]] = {
    "sessions": ("session", "signal", "pane_", "dispatch_", "orchestrator_", "writer_bound",
                 "human_intervention"),
    "board": ("board_", "user_input", "records_delivered", "collab_"),
    "inbox": ("inbox_", "records_delivered"),
    "gate": ("card_", "claimed", "submit", "verify", "check_", "integrat", "abandon",
             "worktree_", "review", "reclaim", "attempt_", "gate_", "writer_bound"),
}


def panels_touched(events: list[Event]) -> set[str]:
    """The panels whose data these events may have changed."""
    touched: set[str] = set()
    for e in events:
        hit = False
        for panel, prefixes in _RULES.items():
            if e.kind.startswith(prefixes):
                touched.add(panel)
                hit = True
        if e.task is not None or e.attempt is not None:
            touched.add("gate")
            hit = True
        if not hit:
            return set(PANELS)
    return touched


def load(store, panels: set[str] | None = None, *, after: int | None = None) -> Snapshot:
    """Read the panels named (all when None) and the events after `after` (a fresh tail when
    None), in one read transaction so that every panel shows the same moment."""
    with store.snapshot() as tx:
        last = int(tx.one("SELECT COALESCE(MAX(seq), 0) FROM events")[0])
        snap = Snapshot(last_seq=last)
        if after is None or last - after > EVENTS_BATCH:
            snap.events, snap.reset_events = events_tail(store), True
            snap.narration = narration(store)
            panels = set(PANELS)
        elif last > after:
            snap.events = store.events(after=after, limit=EVENTS_BATCH)
            snap.narration = narration(store, snap.events)
            if panels is None:
                panels = panels_touched(snap.events)
        for name in panels or ():
            setattr(snap, name, READERS[name](store))
        snap.waiting = calls.waiting(store)
    return snap
