"""Reading and writing a session's pane projection, always inside the caller's transaction."""

from __future__ import annotations

import re
import time
from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.panes.machine import Pane
from a2a_tui.payloads.sessions import SessionLaunched, SessionLaunching

SESSION_ID = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
# Dispatch states in which the text may have reached the pane: its marker is ours to confirm.
DELIVERED_STATES = ("sending", "sent", "delivered", "done", "released", "unknown", "ended")


def check_session_id(sid: str) -> str:
    """Session ids are short, human-typable, and safe in a shell word and in JSON."""
    if not SESSION_ID.match(sid):
        raise A2AError("bad_session_id", f"session id {sid!r} must match {SESSION_ID.pattern}",
                       exit_code=2)
    return sid


def record_launching(tx, sid: str, *, actor: str, role: str, cli: str, cwd: str,
                     record: SessionLaunching, cli_version: str = "", model: str = "",
                     effort: str = "", attempt: str | None = None, tmux_socket: str | None = None,
                     tmux_session: str | None = None, thread_id: str | None = None,
                     replace: bool = False) -> int:
    """A launch's intent: the `session_launching` event carrying `record` and the session's row
    (state unknown, no pane yet), in the caller's transaction. Returns the launch's seq.

    `replace`: the session exists and has exited; its row starts afresh (its dispatches, the
    queue among them, stay), and a signal timestamped before this launch moves nothing."""
    now = time.time_ns()
    seq = tx.append("session_launching", actor=actor, attempt=attempt, session=sid,
                    payload=record, ts_ns=now)
    tx.execute(
        f"INSERT {'OR REPLACE ' if replace else ''}INTO sessions(id, role, cli, cli_version, model,"
        " effort, attempt_id, cwd,"
        " tmux_socket, tmux_session, state, state_since_ns, thread_id, launch_seq, created_ns)"
        " VALUES (?,?,?,?,?,?,?,?,?,?, 'unknown', ?,?,?,?)",
        (sid, role, cli, cli_version, model, effort, attempt, cwd, tmux_socket, tmux_session,
         now, thread_id, seq, now))
    if replace:
        tx.execute("UPDATE sessions SET last_write_ns = ? WHERE id = ?", (now, sid))
    return seq


def record_launched(tx, sid: str, *, actor: str, attempt: str | None, launch_seq: int,
                    pane_id: str | None, pid: int | None, pid_start: int | None,
                    tty: str | None, leader: int | None = None,
                    subreaper: bool | None = None) -> None:
    """What tmux reported about the launched pane (the `session_launched` event and the row's
    pane facts), in the caller's transaction: from then on the pane's process tree is the
    session's."""
    tx.append("session_launched", actor=actor, attempt=attempt, session=sid,
              payload=SessionLaunched(pane=pane_id, pid=pid, pid_start=pid_start, tty=tty,
                                      sid=leader, subreaper=subreaper, launch_seq=launch_seq))
    tx.execute("UPDATE sessions SET pane_id=?, pane_pid=?, pane_pid_start=?, pane_tty=?"
               " WHERE id=?", (pane_id, pid, pid_start, tty, sid))


def session_row(tx, sid: str):
    """The sessions row, or a clear error."""
    row = tx.one("SELECT * FROM sessions WHERE id = ?", (sid,))
    if row is None:
        raise A2AError("unknown_session", f"no session {sid!r} (see `a2a sessions`)")
    return row


def pane_of(row) -> Pane:
    return Pane(state=row["state"], paused=bool(row["paused"]), busy_since_ns=row["busy_since_ns"],
                in_flight=row["in_flight"], hint=row["hint"], needs_clear=bool(row["needs_clear"]),
                thread_id=row["thread_id"], last_write_ns=row["last_write_ns"])


def save_pane(tx, sid: str, old: Pane, new: Pane, *, last_signal_ns: int | None = None) -> None:
    """Write the pane projection; state_since moves only when the state does."""
    sets: dict[str, Any] = {
        "state": new.state, "paused": int(new.paused), "busy_since_ns": new.busy_since_ns,
        "in_flight": new.in_flight, "hint": new.hint, "needs_clear": int(new.needs_clear),
        "thread_id": new.thread_id, "last_write_ns": new.last_write_ns,
    }
    if new.state != old.state:
        sets["state_since_ns"] = time.time_ns()
    if last_signal_ns is not None:
        sets["last_signal_ns"] = last_signal_ns
    cols = ", ".join(f"{k} = ?" for k in sets)
    tx.execute(f"UPDATE sessions SET {cols} WHERE id = ?", (*sets.values(), sid))


class Ours:
    """The dispatch numbers whose text may have reached session `sid`'s pane, as a container
    asked one number at a time: a signal names at most a few markers, and a long-lived session
    has thousands of dispatches, so none is read that no marker names."""

    _SQL = (f"SELECT 1 FROM dispatches WHERE n = ? AND session = ?"
            f" AND state IN ({','.join('?' * len(DELIVERED_STATES))})")

    def __init__(self, tx, sid: str):
        self.tx, self.sid = tx, sid

    def __contains__(self, n: object) -> bool:
        return (isinstance(n, int)
                and self.tx.one(self._SQL, (n, self.sid, *DELIVERED_STATES)) is not None)


def ours(tx, sid: str) -> Ours:
    """Dispatch numbers whose text may have reached this session's pane."""
    return Ours(tx, sid)


def set_dispatch(tx, n: int, state: str, **cols: Any) -> None:
    sets = {"state": state, **cols}
    tx.execute(f"UPDATE dispatches SET {', '.join(f'{k} = ?' for k in sets)} WHERE n = ?",
               (*sets.values(), n))
