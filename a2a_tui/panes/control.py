"""The user's hands on the panes: inject, pause, resume, release.

Each function writes the store in one transaction (event + projection) and touches no tmux: the
orchestrator acts on it. Callers drop a wake file afterwards (`queue.wake`). The CLI and the TUI
call these same functions; what they show of the sessions is `panes.views`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from a2a_tui.collab.delivery import deliver_in_tx
from a2a_tui.collab.user_input import record_user_input_in_tx
from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.panes import machine
from a2a_tui.panes.records import pane_of, save_pane, session_row, set_dispatch
from a2a_tui.payloads.sessions import PanePaused, PaneReleased, PaneResumed
from a2a_tui.queue import enqueue_in_tx


@dataclass(frozen=True)
class Queued:
    """A prompt queued for a pane: its dispatch number, how many wait ahead of it, whether the
    pane is paused, and the user input it carries (when the user typed it in the workbench)."""

    session: str
    dispatch: int
    ahead: int
    paused: bool
    user_input: str | None = None

    def to_json(self) -> JsonObject:
        out: JsonObject = {"session": self.session, "dispatch": self.dispatch,
                           "ahead": self.ahead, "paused": self.paused}
        return out if self.user_input is None else {**out, "user_input": self.user_input}


@dataclass(frozen=True)
class Released:
    """A pane declared idle by the user: the state it was in and the dispatch it had in
    flight (now `released`)."""

    session: str
    was: str
    in_flight: int | None

    def to_json(self) -> JsonObject:
        return {"session": self.session, "from": self.was, "in_flight": self.in_flight}


def inject(store, sid: str, text: str, *, source: str, actor: str,
           user_input_from: str | None = None) -> Queued:
    """Queue `text` for the session's pane; returns the dispatch number and queue position.

    With `user_input_from` (where the user typed it: "tui"), the text is first recorded as the
    user's message (U-<n>, returned as `user_input`) and the dispatch carries that record, in
    the same transaction.
    """
    with store.write() as tx:
        row = session_row(tx, sid)
        if row["state"] == "exited":
            raise A2AError("session_exited", f"session {sid} has exited: nothing would deliver"
                           " it (its queue is kept)")
        if user_input_from is None:
            uid = None
            n = enqueue_in_tx(tx, sid, text, source=source, actor=actor,
                              attempt=row["attempt_id"])
        else:
            uid = record_user_input_in_tx(tx, "message", text, source=user_input_from,
                                          to_session=sid, attempt=row["attempt_id"])
            n = deliver_in_tx(tx, [uid], sid, text, source=source, actor=actor)
        ahead = tx.one("SELECT COUNT(*) FROM dispatches WHERE session = ? AND state = 'queued'"
                       " AND n < ?", (sid, n))[0]
    return Queued(sid, n, ahead, bool(row["paused"]), uid)


def queued_line(r: Queued, resume: str) -> str:
    """What an inject says: its number and place, and, for a paused pane, that the pause holds
    it (`resume`: how the user lifts it where they stand)."""
    held = f"; {r.session} is paused: held until you resume it ({resume})" if r.paused else ""
    return f"queued #{r.dispatch} for {r.session} ({r.ahead} ahead){held}"


def set_paused(store, sids: list[str] | None, paused: bool, *, actor: str) -> list[str]:
    """Pause (or resume) the named sessions, or every session that has not exited."""
    changed = []
    with store.write() as tx:
        rows = ([session_row(tx, s) for s in sids] if sids is not None else
                tx.all("SELECT * FROM sessions WHERE state != 'exited' ORDER BY id"))
        for row in rows:
            old = pane_of(row)
            if old.paused == paused:
                continue
            tx.append("pane_paused" if paused else "pane_resumed", actor=actor,
                      attempt=row["attempt_id"], session=row["id"],
                      payload=(PanePaused if paused else PaneResumed)(state=old.state))
            tx.execute("UPDATE sessions SET paused = ? WHERE id = ?", (int(paused), row["id"]))
            changed.append(row["id"])
    return changed


def release(store, sid: str, *, actor: str) -> Released:
    """The user declares a busy / waiting / unknown pane idle (e.g. after an Esc interrupt).

    The in-flight dispatch, if any, is marked `released`; the input box is cleared before the
    next paste, since the CLI may have put the interrupted prompt back there.
    """
    with store.write() as tx:
        row = session_row(tx, sid)
        old = pane_of(row)
        if old.state == "exited":
            raise A2AError("session_exited", f"session {sid} has exited")
        if old.state == "idle":
            raise A2AError("already_idle", f"session {sid} is already idle")
        new = machine.release(old)
        tx.append("pane_released", actor=actor, attempt=row["attempt_id"], session=sid,
                  payload=PaneReleased(from_=old.state, in_flight=old.in_flight, hint=old.hint))
        if old.in_flight is not None:
            d = tx.one("SELECT state FROM dispatches WHERE n = ?", (old.in_flight,))
            if d is not None and d["state"] in ("sent", "delivered"):
                set_dispatch(tx, old.in_flight, "released", ended_ns=time.time_ns())
        save_pane(tx, sid, old, new)
    return Released(sid, old.state, old.in_flight)
