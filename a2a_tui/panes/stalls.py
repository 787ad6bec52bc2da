"""Stalls: a pane busy with no signal for long is pointed out, then put on the board; never more.

A busy pane's silence is measured from the last thing known to have happened in it: its last
signal, the Enter that made it busy, the last paste. After `hint_after_s` (per CLI, in the
settings) it gets a hint (`pane_hint`, as `hints.py` records them, when it has none); after
`board_after_s` the orchestrator records `pane_stalled` and posts a finding on the board
(F-<n>) for the user, once per silence. Here a2a never kills, interrupts or writes to the pane:
a long silence may be a long tool run, only the user can tell (a turn is stopped only at limits
the user set: turns.py). Any signal ends the silence (a new one starts from it).
"""

from __future__ import annotations

from collections.abc import Callable

from a2a_tui.panes.hints import record_hint
from a2a_tui.payloads.sessions import PaneStalled
from a2a_tui.settings import StallTimes

NO_SIGNAL_WHILE_BUSY = "busy with no signal"
# The silence of a pane: measured from the latest of these (all ns, any may be NULL).
SILENT_SINCE = ("MAX(COALESCE(last_signal_ns, 0), COALESCE(busy_since_ns, 0),"
                " COALESCE(last_write_ns, 0))")


def silent_hint(after_s: float) -> str:
    return (f"busy, no signal for {_span(after_s)}: look at the pane (a2a never interrupts it;"
            " r releases it if it is idle)")


def stalled_hint(after_s: float, item: str) -> str:
    return f"busy, no signal for {_span(after_s)}: on the board as {item}; look at the pane"


def silent_panes(store, tmux_socket: str | None, now_ns: int,
                 times_for: Callable[[str], StallTimes]) -> int | None:
    """Hint busy panes silent for their CLI's `hint_after_s`, and record a stall (board item)
    for those silent `board_after_s`; returns when the next one falls due (ns), or None."""
    rows = store.all(
        f"SELECT id, cli, hint, {SILENT_SINCE} AS since"
        " FROM sessions WHERE state = 'busy' AND tmux_socket IS ?", (tmux_socket,))
    next_due = None
    for r in rows:
        t = times_for(r["cli"])
        since = r["since"]
        if not since or stalled_since(store, r["id"]) == since:
            continue  # nothing to measure from, or this silence is already on the board
        hint_due = since + int(t.hint_after_s * 1e9)
        board_due = since + int(t.board_after_s * 1e9)
        if now_ns >= board_due:
            _stalled(store, r["id"], since, t.board_after_s)
            continue
        if now_ns >= hint_due and r["hint"] is None:
            _hinted(store, r["id"], since, t.hint_after_s)
        due = board_due if now_ns >= hint_due else hint_due
        next_due = due if next_due is None else min(next_due, due)
    return next_due


def stalled_since(db, sid: str) -> int | None:
    """Where the silence the session's last stall was recorded for began (ns), or None. The
    pane is stalled now while its silence still begins there (`SILENT_SINCE`)."""
    # By kind first: stalls are rare, a session's events many.
    row = db.one("SELECT json_extract(payload, '$.since_ns') FROM events INDEXED BY events_kind"
                 " WHERE kind = 'pane_stalled' AND session = ? ORDER BY seq DESC LIMIT 1", (sid,))
    return None if row is None else row[0]


def _still_silent(tx, sid: str, since: int):
    row = tx.one(f"SELECT state, hint, attempt_id, pane_id, {SILENT_SINCE}"
                 " AS since FROM sessions WHERE id = ?", (sid,))
    return row if row is not None and row["state"] == "busy" and row["since"] == since else None


def _hinted(store, sid: str, since: int, after_s: float) -> None:
    with store.write() as tx:
        row = _still_silent(tx, sid, since)
        if row is None or row["hint"] is not None:
            return
        record_hint(tx, sid, silent_hint(after_s), why=NO_SIGNAL_WHILE_BUSY, after_s=after_s,
                    since_ns=since)


def _stalled(store, sid: str, since: int, after_s: float) -> None:
    # lazy: the workbench reads `stalled_since` for its first frame; the board is needed only
    # when a pane stalls
    from a2a_tui.collab.board import post_finding_in_tx

    with store.write() as tx:
        row = _still_silent(tx, sid, since)
        if row is None or stalled_since(tx, sid) == since:
            return
        task = None
        if row["attempt_id"]:
            a = tx.one("SELECT card_id FROM attempts WHERE id = ?", (row["attempt_id"],))
            task = a["card_id"] if a else None
        item = post_finding_in_tx(
            tx, title=f"{sid} is busy with no signal for {_span(after_s)}",
            body=(f"Session {sid} (pane {row['pane_id']}) has been busy and silent for"
                  f" {_span(after_s)}. It may be running a long tool, waiting on something"
                  " the CLI does not signal, or stuck. a2a has not touched it: look at the"
                  f" pane (`a2a sessions`), release it if it is idle (`a2a release {sid}`), or"
                  " end it."), actor="orchestrator", session=None, task=task,
            attempt=row["attempt_id"])
        tx.append("pane_stalled", actor="orchestrator", attempt=row["attempt_id"], session=sid,
                  payload=PaneStalled(since_ns=since, after_s=after_s, item=item,
                                      pane=row["pane_id"]))
        tx.execute("UPDATE sessions SET hint = ? WHERE id = ?",
                   (stalled_hint(after_s, item), sid))


def _span(seconds: float) -> str:
    if seconds >= 120 and seconds % 60 == 0:
        return f"{seconds / 60:g} min"
    return f"{seconds:g} s"
