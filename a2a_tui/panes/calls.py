"""Calling the user: what waits for them, counted from the store, shown in a2a's tmux status line,
and each new thing announced once (a `user_called` event; the workbench rings its window's bell
on it, so tmux flags that window while the user is elsewhere).

What waits for the user (`waiting`): open board questions; panes `waiting` (the CLI asks
something); panes stalled (`stalls.py`); dispatches `unknown` that their pane still holds (a2a
cannot tell whether the CLI took them: `confirm.py`, or a crash mid-delivery); rejections and
feedback stops not yet seen (after the last `attention_seen`, which the user writes by looking:
the workbench's `!`, or `a2a attention --seen`). Every thing has a key that names it for good (a
question's id, a pane and since when it waits, a dispatch), so a thing is announced once, also
across restarts of the orchestrator: the last `user_called` lists the keys already called.

Only a2a's own tmux session is touched: a session option (`@a2a_waiting`) and that session's
`status-right` (the global one, with the count in front). `[notify] status = false` leaves the
status line alone, `bell = false` records no call.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from a2a_tui.errors import A2AError
from a2a_tui.panes.stalls import SILENT_SINCE, stalled_since
from a2a_tui.panes.windows import WindowNames
from a2a_tui.payloads import payload_of
from a2a_tui.payloads.sessions import AttentionSeen, UserCalled
from a2a_tui.payloads.verify import GateFeedback
from a2a_tui.settings import Settings
from a2a_tui.store.watch import store_changes

log = logging.getLogger(__name__)

COUNT_OPTION = "@a2a_waiting"
STORE_OPTION = "@a2a_store"   # the store taking no writes, or gone (panes/storeguard.py)
STATUS = (f"#{{?{STORE_OPTION},#[reverse] a2a: #{{{STORE_OPTION}}} #[default] ,}}"
          f"#{{?{COUNT_OPTION},#[reverse] a2a: #{{{COUNT_OPTION}}} waiting for you #[default] ,}}")
LIMIT = 100   # unseen rejections and stops read at most (the count says "100+" beyond)


@dataclass(frozen=True)
class Waiting:
    """One thing waiting for the user."""

    key: str       # names the thing for good: "Q-3", "waiting:w1:<ns>", "rejected:<seq>", ...
    kind: str      # question | waiting | stalled | unknown | rejection | stop
    ref: str       # the board item, session or attempt it is about
    text: str

    def to_json(self) -> dict[str, str]:
        return {"key": self.key, "kind": self.kind, "ref": self.ref, "text": self.text}


def seen_upto(db) -> int:
    """The seq up to which the user has seen rejections and stops."""
    row = db.one("SELECT json_extract(payload, '$.upto') FROM events WHERE kind = 'attention_seen'"
                 " ORDER BY seq DESC LIMIT 1")
    return int(row[0]) if row is not None and row[0] is not None else 0


def waiting(db) -> list[Waiting]:
    """Everything waiting for the user now, oldest first within each kind."""
    out = [Waiting(r["id"], "question", r["id"],
                   f"{r['id']} from {r['asked_by'] or 'the gate'}: {r['title']}")
           for r in db.all("SELECT id, title, asked_by FROM board_items i WHERE kind = 'question'"
                           " AND NOT EXISTS(SELECT 1 FROM board_records r"
                           " WHERE r.item_id = i.id) ORDER BY seq")]
    for r in db.all(f"SELECT id, state, state_since_ns, hint, {SILENT_SINCE} AS since"
                    " FROM sessions WHERE state IN ('waiting', 'busy') ORDER BY created_ns"):
        if r["state"] == "waiting":
            out.append(Waiting(f"waiting:{r['id']}:{r['state_since_ns']}", "waiting", r["id"],
                               f"{r['id']} waits for you in its pane"))
        elif r["since"] and stalled_since(db, r["id"]) == r["since"]:
            out.append(Waiting(f"stalled:{r['id']}:{r['since']}", "stalled", r["id"],
                               f"{r['id']}: {r['hint'] or 'busy with no signal'}"))
    # The sessions, then each one's in-flight dispatch by key (not a scan of the dispatches).
    for r in db.all("SELECT s.id, s.pane_id, d.n FROM sessions s CROSS JOIN dispatches d"
                    " ON d.n = s.in_flight AND d.session = s.id WHERE s.state != 'exited'"
                    " AND d.state = 'unknown' ORDER BY d.n"):
        out.append(Waiting(f"unknown:{r['n']}", "unknown", r["id"],
                           f"#{r['n']} to {r['id']} (pane {r['pane_id']}): a2a cannot tell if the"
                           " CLI took it; look at the pane"))
    # By kind, then by seq: these kinds are a sliver of the log, which may hold 100k events.
    for r in db.all("SELECT seq, kind, attempt, payload FROM events INDEXED BY events_kind"
                    " WHERE kind IN ('rejected', 'feedback_stopped', 'gate_feedback')"
                    " AND seq > ? ORDER BY seq LIMIT ?", (seen_upto(db), LIMIT)):
        p = payload_of(r["kind"], json.loads(r["payload"]))
        if r["kind"] == "rejected":
            first = p.first_failure
            out.append(Waiting(f"rejected:{r['seq']}", "rejection", r["attempt"] or "",
                               f"{r['attempt']} rejected" + (f" at {first}" if first else "")))
        elif r["kind"] == "feedback_stopped" or _three_strikes(p):
            out.append(Waiting(f"stopped:{r['seq']}", "stop", r["attempt"] or "",
                               f"{r['attempt']}: automatic feedback stopped; you decide"))
    return out


def _three_strikes(feedback: GateFeedback) -> bool:
    """A `gate_feedback` that was not sent because the rejections passed the limit (until the
    gate records `feedback_stopped` for it)."""
    return feedback.sent is False and "consecutive rejections" in str(feedback.why)


def called_keys(db) -> set[str]:
    """The keys the last `user_called` named (announced already)."""
    row = db.one("SELECT payload FROM events WHERE kind = 'user_called' ORDER BY seq DESC LIMIT 1")
    return (set(UserCalled.read(json.loads(row["payload"])).called) if row is not None
            else set())


def mark_seen(store, *, actor: str = "user") -> dict[str, int]:
    """The user has seen every rejection and stop up to now."""
    with store.write() as tx:
        upto = int(tx.one("SELECT COALESCE(MAX(seq), 0) FROM events")[0])
        tx.append("attention_seen", actor=actor, payload=AttentionSeen(upto=upto))
    return {"upto": upto}


class Calls:
    """The orchestrator's caller: after every change to the store, count what waits, show the
    count in a2a's tmux session and announce what is new (one thread, its own connection)."""

    def __init__(self, repo, tmux, settings: Callable[[], Settings]):
        self.repo = repo
        self.tmux = tmux
        self.settings = settings
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._shown: tuple[str, int] | None = None    # (tmux session, count) last shown
        self.tmux_session = repo.config().tmux_session
        self.windows = WindowNames(tmux)               # each agent window's name and state

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="a2a-calls", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        store = self.repo.store()
        try:
            called = called_keys(store)
            for _ in store_changes(self.repo.db_path, self._stop):
                if self._stop.is_set():
                    return
                try:
                    called = self.check(store, called)
                except Exception:  # a failed look must not end the calls; the next change retries
                    log.exception("calling the user failed")
        finally:
            store.close()

    def check(self, store, called: set[str]) -> set[str]:
        """Count, show, announce; returns the keys called so far that still wait. Each agent
        window is named for its session, role and state on the way (panes/windows.py)."""
        self.windows.show(store)
        things = waiting(store)
        s = self.settings()
        self._show(len(things), s.status)
        keys = {t.key for t in things}
        new = [t for t in things if t.key not in called]
        if new and s.bell:
            with store.write() as tx:
                tx.append("user_called", actor="orchestrator",
                          payload=UserCalled(new=[t.to_json() for t in new], count=len(things),
                                             called=sorted(keys)))
        return keys

    def _show(self, count: int, on: bool) -> None:
        session = self.tmux_session
        want = (session, count if on else -1)
        if want == self._shown or not self.tmux.has_session(session):
            return
        try:
            if on:
                self.tmux.set_session_option(session, COUNT_OPTION, str(count) if count else "")
                status = STATUS + self.tmux.global_option("status-right")
                if self.tmux.session_option(session, "status-right") != status:
                    self.tmux.set_session_option(session, "status-right", status)
            elif self._shown is not None:
                self.tmux.set_session_option(session, COUNT_OPTION, None)
                self.tmux.set_session_option(session, "status-right", None)
        except A2AError as err:  # the session went away meanwhile: the next change tries again
            log.warning("could not show the count in tmux: %s", err.message)
            return
        self._shown = want
