"""The user's hands on the panes: inject, pause, resume, release, and the sessions view.

Each function writes the store in one transaction (event + projection) and touches no tmux: the
orchestrator acts on it. Callers drop a wake file afterwards (`queue.wake`). The TUI calls these
same functions.
"""

from __future__ import annotations

import time
from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.panes import machine
from a2a_tui.panes.records import pane_of, save_pane, session_row, set_dispatch
from a2a_tui.queue import enqueue_in_tx


def inject(store, sid: str, text: str, *, source: str, actor: str) -> dict[str, Any]:
    """Queue `text` for the session's pane; returns the dispatch number and queue position."""
    with store.write() as tx:
        row = session_row(tx, sid)
        if row["state"] == "exited":
            raise A2AError("session_exited", f"session {sid} has exited: nothing would deliver"
                           " it (its queue is kept)")
        n = enqueue_in_tx(tx, sid, text, source=source, actor=actor, attempt=row["attempt_id"])
        ahead = tx.one("SELECT COUNT(*) FROM dispatches WHERE session = ? AND state = 'queued'"
                       " AND n < ?", (sid, n))[0]
    return {"session": sid, "dispatch": n, "ahead": ahead}


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
                      attempt=row["attempt_id"], session=row["id"], payload={"state": old.state})
            tx.execute("UPDATE sessions SET paused = ? WHERE id = ?", (int(paused), row["id"]))
            changed.append(row["id"])
    return changed


def release(store, sid: str, *, actor: str) -> dict[str, Any]:
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
                  payload={"from": old.state, "in_flight": old.in_flight, "hint": old.hint})
        if old.in_flight is not None:
            d = tx.one("SELECT state FROM dispatches WHERE n = ?", (old.in_flight,))
            if d is not None and d["state"] in ("sent", "delivered"):
                set_dispatch(tx, old.in_flight, "released", ended_ns=time.time_ns())
        save_pane(tx, sid, old, new)
    return {"session": sid, "from": old.state, "in_flight": old.in_flight}


def sessions_view(store) -> list[dict[str, Any]]:
    """One item per session, as `a2a sessions --json` prints it."""
    now = time.time_ns()
    out = []
    with store.snapshot() as tx:
        for r in tx.all("SELECT * FROM sessions ORDER BY created_ns, id"):
            counts = {s: c for s, c in tx.all(
                "SELECT state, COUNT(*) FROM dispatches WHERE session = ? GROUP BY state",
                (r["id"],))}
            unknown = [x[0] for x in tx.all(
                "SELECT n FROM dispatches WHERE session = ? AND state = 'unknown' ORDER BY n",
                (r["id"],))]
            out.append({
                "session": r["id"], "role": r["role"], "cli": r["cli"], "pane": r["pane_id"],
                "state": r["state"], "paused": bool(r["paused"]),
                "queue": counts.get("queued", 0), "in_flight": r["in_flight"],
                "last_signal_age_s": (round((now - r["last_signal_ns"]) / 1e9, 3)
                                      if r["last_signal_ns"] else None),
                "hint": r["hint"], "attempt": r["attempt_id"], "model": r["model"],
                "effort": r["effort"], "cli_version": r["cli_version"],
                "unknown_dispatches": unknown, "tmux_socket": r["tmux_socket"],
            })
    return out
