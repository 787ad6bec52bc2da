"""A turn's layered time limits (rule 5, seed 000 07): "运行 300 秒给出软提醒；连续 360 秒没有
Cursor 事件就停止，包装脚本自己的心跳不算；1800 秒是绝对上限。会话 ID 在一开始就保存下来".

Per CLI, in the user's settings (`[stall.<cli>]`; 0: never, the default):

- `remind_after_s`: a turn busy this long gets a reminder on the board (`turn_reminded`), once.
- `stop_after_s`: a turn with no signal from its CLI for this long is stopped. Only the CLI's
  own signals count (`last_signal_ns`), measured from the turn's start at the latest; a2a's
  own writes to the pane (its pastes, its Enters) are not the CLI's and do not.
- `cap_s`: a turn busy this long is stopped, whatever it signals.

A turn is the pane's busy stretch (`busy_since_ns`); a pane waiting on a prompt is the user's
time, not the turn's, and is left alone. To stop it, a2a presses the CLI's interrupt key
(`Profile.interrupt_keys`), as a user at the pane would, then records `turn_stopped`, once per
turn, with a finding on the board. It records the key sent, never the turn's end: Claude Code
signals nothing on an interrupt, so the pane stays busy until a signal (Codex's Interrupt, a
Stop) or the user (`a2a release`) says otherwise. The conversation goes on in the pane, and its
id (`thread_id`, kept since the launch) lets `a2a session revive` take it up again if the
session is ended.
"""

from __future__ import annotations

from collections.abc import Callable

from a2a_tui import profiles
from a2a_tui.errors import A2AError
from a2a_tui.payloads.sessions import TurnReminded, TurnStopped
from a2a_tui.settings import StallTimes
from a2a_tui.tmux import Tmux, TmuxError

_TURNS = ("SELECT id, cli, pane_id, attempt_id, thread_id, busy_since_ns AS since,"
          " MAX(COALESCE(last_signal_ns, 0), busy_since_ns) AS heard"
          " FROM sessions WHERE state = 'busy' AND busy_since_ns IS NOT NULL"
          " AND tmux_socket IS ?")


def limit_turns(store, tmux: Tmux, tmux_socket: str | None, now_ns: int,
                times_for: Callable[[str], StallTimes]) -> int | None:
    """Remind and stop the busy turns past their CLI's limits; returns when the next limit
    falls due (ns), or None."""
    next_due = None
    for r in store.all(_TURNS, (tmux_socket,)):
        t = times_for(r["cli"])
        dues: list[int] = []
        if _done(store, "turn_stopped", r["id"], r["since"]):
            continue   # once per turn: what follows is its CLI's or the user's
        if t.remind_after_s and not _done(store, "turn_reminded", r["id"], r["since"]):
            due = r["since"] + int(t.remind_after_s * 1e9)
            if now_ns >= due:
                _remind(store, r, now_ns, t.remind_after_s)
            else:
                dues.append(due)
        why = _past(r, t, now_ns, dues)
        if why is not None:
            _stop(store, tmux, r, now_ns, *why)
            continue
        next_due = min([d for d in (next_due, *dues) if d is not None], default=None)
    return next_due


def _past(r, t: StallTimes, now_ns: int, dues: list[int]) -> tuple[str, float] | None:
    """(why, the limit) when the turn is past its cap or its silence limit; else the instants
    they fall due are added to `dues`."""
    for why, limit_s, start in (("cap", t.cap_s, r["since"]),
                                ("silent", t.stop_after_s, r["heard"])):
        if not limit_s:
            continue
        due = start + int(limit_s * 1e9)
        if now_ns >= due:
            return why, limit_s
        dues.append(due)
    return None


def _done(db, kind: str, sid: str, since: int) -> bool:
    """Whether the turn that began at `since` was already reminded / stopped."""
    row = db.one("SELECT json_extract(payload, '$.since_ns') FROM events INDEXED BY events_kind"
                 " WHERE kind = ? AND session = ? ORDER BY seq DESC LIMIT 1", (kind, sid))
    return row is not None and row[0] == since


def _same_turn(tx, r) -> bool:
    row = tx.one("SELECT state, busy_since_ns FROM sessions WHERE id = ?", (r["id"],))
    return row is not None and row["state"] == "busy" and row["busy_since_ns"] == r["since"]


def _task(tx, attempt: str | None) -> str | None:
    row = tx.one("SELECT card_id FROM attempts WHERE id = ?", (attempt,)) if attempt else None
    return row["card_id"] if row else None


def _remind(store, r, now_ns: int, after_s: float) -> None:
    # lazy: the board only when a turn runs long
    from a2a_tui.collab.board import post_finding_in_tx

    with store.write() as tx:
        if not _same_turn(tx, r) or _done(tx, "turn_reminded", r["id"], r["since"]):
            return
        turn_s = (now_ns - r["since"]) / 1e9
        item = post_finding_in_tx(
            tx, title=f"{r['id']}'s turn has been busy for {turn_s:.0f} s",
            body=(f"Session {r['id']} (pane {r['pane_id']}) has been on one turn for"
                  f" {turn_s:.1f} s (your reminder after {after_s:g} s). It may be doing long"
                  " work or going round in circles: look at the pane."), actor="orchestrator",
            session=None, task=_task(tx, r["attempt_id"]), attempt=r["attempt_id"])
        tx.append("turn_reminded", actor="orchestrator", attempt=r["attempt_id"],
                  session=r["id"], payload=TurnReminded(since_ns=r["since"], after_s=after_s,
                                                        turn_s=round(turn_s, 3), item=item))


def _stop(store, tmux: Tmux, r, now_ns: int, why: str, limit_s: float) -> None:
    """Press the CLI's interrupt key in the pane (outside any transaction), then record what
    was sent, and that the turn's end was not seen."""
    # lazy: the board only when a turn is stopped
    from a2a_tui.collab.board import post_finding_in_tx

    try:
        keys = list(profiles.get(r["cli"]).interrupt_keys)
    except A2AError:
        return   # a CLI a2a has no profile of: it knows no key that stops it, and presses none
    if not _same_turn(store, r):
        return
    error = None
    try:
        tmux.send_keys(r["pane_id"], *keys)
    except TmuxError as exc:
        error = str(exc)
    said = (f"no signal from its CLI for {limit_s:g} s" if why == "silent"
            else f"busy for {limit_s:g} s, its cap")
    resume = (f"the conversation ({r['thread_id'] or 'its id unknown'}) goes on in the pane;"
              f" ended, `a2a session revive {r['id']}` takes it up again")
    sent = f"pressed {' '.join(keys)}" if error is None else f"could not press {keys}: {error}"
    with store.write() as tx:
        if _done(tx, "turn_stopped", r["id"], r["since"]):
            return
        item = post_finding_in_tx(
            tx, title=f"{r['id']}'s turn stopped: {said}",
            body=(f"Session {r['id']} (pane {r['pane_id']}): {said}. a2a {sent} there, as you"
                  " would. Whether the turn ended is not known until its CLI signals it: the"
                  f" pane stays busy until then, or until you release it (`a2a release"
                  f" {r['id']}`). {resume[0].upper()}{resume[1:]}."),
            actor="orchestrator", session=None, task=_task(tx, r["attempt_id"]),
            attempt=r["attempt_id"])
        payload = TurnStopped(
            since_ns=r["since"], why=why, limit_s=limit_s,
            turn_s=round((now_ns - r["since"]) / 1e9, 3),
            silent_s=round((now_ns - r["heard"]) / 1e9, 3), keys=keys,
            sent=error is None, error=error, ended=None, pane=r["pane_id"],
            thread_id=r["thread_id"], resume=resume, item=item)
        tx.append("turn_stopped", actor="orchestrator", attempt=r["attempt_id"],
                  session=r["id"], payload=payload)
        tx.execute("UPDATE sessions SET hint = ? WHERE id = ?",
                   (f"turn stopped ({said}): {sent}; on the board as {item}", r["id"]))
