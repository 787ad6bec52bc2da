"""What the orchestrator settles when it starts: deliveries a crash cut short, and panes that
died while nobody watched."""

from __future__ import annotations

from typing import Any

from a2a_tui.panes import machine
from a2a_tui.panes.records import pane_of, save_pane, set_dispatch
from a2a_tui.payloads.dispatch import DispatchUnknown
from a2a_tui.payloads.sessions import PaneExited

ACTOR = "orchestrator"


def unknown_deliveries(store, why: str = "the orchestrator stopped between sending and sent;"
                       " never re-sent automatically") -> list[int]:
    """Dispatches left in `sending`: whether their text or Enter reached the pane is unknown.

    They become `unknown` (shown to the user, never re-sent) and their pane `unknown` until a
    signal or the user's release says what it is.
    """
    out = []
    with store.write() as tx:
        for d in tx.all("SELECT n, session FROM dispatches WHERE state = 'sending' ORDER BY n"):
            row = tx.one("SELECT * FROM sessions WHERE id = ?", (d["session"],))
            set_dispatch(tx, d["n"], "unknown")
            tx.append("dispatch_unknown", actor=ACTOR, session=d["session"],
                      attempt=row["attempt_id"] if row else None,
                      payload=DispatchUnknown(n=d["n"], why=why))
            if row is not None:
                old = pane_of(row)
                save_pane(tx, d["session"], old, machine.crashed_while_sending(old))
            out.append(d["n"])
    return out


def reconcile_panes(store, panes: dict[str, Any], tmux_socket: str | None) -> list[str]:
    """Mark `exited` every live-looking session whose pane is gone, dead, or holds another
    process (`panes` is `Tmux.panes()`: ids are reused when a tmux server restarts)."""
    gone = []
    rows = store.all("SELECT * FROM sessions WHERE state != 'exited' AND pane_id IS NOT NULL"
                     " AND tmux_socket IS ?", (tmux_socket,))
    for row in rows:
        facts = panes.get(row["pane_id"])
        if facts is not None and not facts.dead and facts.pid == row["pane_pid"]:
            continue
        why = ("pane is gone" if facts is None else
               "pane's process died" if facts.dead else "pane holds another process")
        with store.write() as tx:
            fresh = tx.one("SELECT * FROM sessions WHERE id = ?", (row["id"],))
            if fresh["state"] == "exited":
                continue
            old = pane_of(fresh)
            ended = old.in_flight
            new = machine.Pane(state="exited", paused=old.paused, thread_id=old.thread_id)
            tx.append("pane_exited", actor=ACTOR, attempt=fresh["attempt_id"], session=row["id"],
                      payload=PaneExited(pane=row["pane_id"], why=why, found_at="start"))
            if ended is not None:
                d = tx.one("SELECT state FROM dispatches WHERE n = ?", (ended,))
                if d is not None and d["state"] in ("sent", "delivered"):
                    set_dispatch(tx, ended, "ended")
            save_pane(tx, row["id"], old, new)
        gone.append(row["id"])
    return gone
