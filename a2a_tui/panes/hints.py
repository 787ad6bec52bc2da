"""Hints: what the orchestrator points out about a pane when an expected signal has not come.

A hint is text on the pane (`sessions.hint`, a `pane_hint` event), never an action: the state does
not move and nothing is sent again. Only the absence of a structured signal is used, never the
screen; only the user, looking at the pane, can tell what happened there. Any later signal that
moves the pane clears the hint (`machine.py`).

- silent start: no signal at all some seconds after launch (a first-run dialog holds the CLI's
  hooks back) — the profile says what to accept in the pane.

A prompt that no prompt signal follows is not a hint's business: `confirm.py` writes Enter again
or makes the dispatch `unknown` (its hint says what to look for), and the user is called.

Each function records the hints that are due and returns when the next one falls due (ns), or
None; the caller arranges to look again then.
"""

from __future__ import annotations

from a2a_tui import profiles
from a2a_tui.payloads.sessions import PaneHint

NO_SIGNAL_SINCE_LAUNCH = "no signal since launch"


def silent_starts(store, tmux_socket: str | None, now_ns: int) -> int | None:
    """Hint panes that have sent no signal since launch, once `silent_start_s` has passed."""
    rows = store.all(
        "SELECT id, cli, created_ns FROM sessions WHERE state = 'unknown' AND hint IS NULL"
        " AND last_signal_ns IS NULL AND tmux_socket IS ?", (tmux_socket,))
    next_due = None
    for r in rows:
        prof = profiles.get(r["cli"])
        due = r["created_ns"] + int(prof.silent_start_s * 1e9)
        if now_ns < due:
            next_due = min(next_due or due, due)
            continue
        with store.write() as tx:
            fresh = tx.one("SELECT state, hint, last_signal_ns FROM sessions WHERE id = ?",
                           (r["id"],))
            if fresh["state"] != "unknown" or fresh["hint"] or fresh["last_signal_ns"]:
                continue
            record_hint(tx, r["id"], prof.silent_start_hint, why=NO_SIGNAL_SINCE_LAUNCH,
                    after_s=prof.silent_start_s)
    return next_due


def record_hint(tx, session: str, hint: str, *, why: str, after_s: float | None = None,
                since_ns: int | None = None, n: int | None = None) -> None:
    """The hint on the pane, with the event that explains it, in one transaction."""
    tx.append("pane_hint", actor="orchestrator", session=session,
              payload=PaneHint(hint=hint, why=why, after_s=after_s, since_ns=since_ns, n=n))
    tx.execute("UPDATE sessions SET hint = ? WHERE id = ?", (hint, session))
