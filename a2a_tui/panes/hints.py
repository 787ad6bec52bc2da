"""Hints: what the orchestrator points out about a pane when an expected signal has not come.

A hint is text on the pane (`sessions.hint`, a `pane_hint` event), never an action: the state does
not move and nothing is sent again. Only the absence of a structured signal is used, never the
screen; only the user, looking at the pane, can tell what happened there. Any later signal that
moves the pane clears the hint (`machine.py`).

- silent start: no signal at all some seconds after launch (a first-run dialog holds the CLI's
  hooks back) — the profile says what to accept in the pane;
- unconfirmed prompt: Enter was written for a dispatch, the CLI signals submitted prompts, and no
  such signal has come some seconds later (the paste or the Enter was not taken: seen with Claude
  Code under heavy load) — the user looks, presses Enter in the pane or releases it.

Each function records the hints that are due and returns when the next one falls due (ns), or
None; the caller arranges to look again then.
"""

from __future__ import annotations

import json

from a2a_tui import profiles

NO_SIGNAL_SINCE_LAUNCH = "no signal since launch"
NO_PROMPT_SIGNAL = "no prompt signal after Enter"


def unconfirmed_hint(n: int, after_s: float) -> str:
    return f"#{n} not seen submitted {after_s:g} s after Enter: look at the pane"


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


def unconfirmed_prompts(store, tmux_socket: str | None, now_ns: int) -> int | None:
    """Hint busy panes whose in-flight dispatch is still `sent` (Enter written, no prompt signal)
    `unconfirmed_after_s` after Enter, for CLIs whose launch record says they signal prompts."""
    # CROSS JOIN keeps SQLite's order: the few sessions, then each one's in-flight dispatch by
    # key (not a scan of every dispatch ever queued, on each cycle).
    rows = store.all(
        "SELECT d.n, d.session, d.enter_ns, s.cli, e.payload AS launch FROM sessions s CROSS"
        " JOIN dispatches d ON d.n = s.in_flight AND d.session = s.id"
        " JOIN events e ON e.seq = s.launch_seq"
        " WHERE s.state = 'busy' AND s.hint IS NULL AND d.state = 'sent'"
        " AND s.tmux_socket IS ?", (tmux_socket,))
    next_due = None
    for r in rows:
        # Sessions launched before the record said so are left alone: not known to signal.
        if json.loads(r["launch"]).get("prompt_signal") is not True or r["enter_ns"] is None:
            continue
        after_s = profiles.get(r["cli"]).unconfirmed_after_s
        due = r["enter_ns"] + int(after_s * 1e9)
        if now_ns < due:
            next_due = min(next_due or due, due)
            continue
        hint = unconfirmed_hint(r["n"], after_s)
        with store.write() as tx:
            fresh = tx.one("SELECT s.state, s.hint, s.in_flight, d.state AS dstate FROM sessions s"
                           " JOIN dispatches d ON d.n = ? WHERE s.id = ?", (r["n"], r["session"]))
            if (fresh["state"], fresh["hint"], fresh["in_flight"], fresh["dstate"]) \
                    != ("busy", None, r["n"], "sent"):
                continue
            record_hint(tx, r["session"], hint, why=NO_PROMPT_SIGNAL, n=r["n"], after_s=after_s)
    return next_due


def record_hint(tx, session: str, hint: str, **why) -> None:
    """The hint on the pane, with the event that explains it, in one transaction."""
    tx.append("pane_hint", actor="orchestrator", session=session, payload={"hint": hint, **why})
    tx.execute("UPDATE sessions SET hint = ? WHERE id = ?", (hint, session))
