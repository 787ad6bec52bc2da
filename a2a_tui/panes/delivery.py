"""Delivery: paste the next queued dispatch into every idle, unpaused pane, then press Enter.

Per dispatch: `sending` is committed before tmux is touched; the pane is marked busy with the
instant Enter was written, committed as `sent` right after. A crash in between leaves `sending`,
which recovery turns into `unknown` (never re-sent). All ready panes share one pause between
paste and Enter. Whether the CLI took the prompt is `confirm.py`'s to settle.

A launch's first paste waits until its pane has been idle the profile's `start_settle_s` (some
CLIs lose a paste or its Enter that comes right after their start signal); the pane is left for
later, never waited for: `Delivered.due_ns` says when the orchestrator should look again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from a2a_tui import profiles
from a2a_tui.errors import A2AError
from a2a_tui.faults import crashpoint
from a2a_tui.panes import machine
from a2a_tui.panes.records import pane_of, save_pane, set_dispatch
from a2a_tui.payloads.dispatch import (
    DispatchNotSent,
    DispatchSending,
    DispatchSent,
    DispatchUnknown,
)

ACTOR = "orchestrator"


class PaneIO(Protocol):
    """What delivery needs from tmux (`a2a_tui.tmux.Tmux`)."""

    def paste(self, pane_id: str, text: str, buffer: str) -> None: ...
    def send_keys(self, pane_id: str, *keys: str) -> None: ...


@dataclass
class _Job:
    session: str
    pane_id: str
    n: int
    text: str
    clear_keys: tuple[str, ...]
    delay_s: float
    pasted: bool = False


_READY = ("SELECT s.id FROM sessions s WHERE s.state = 'idle' AND s.paused = 0"
          " AND s.in_flight IS NULL AND s.pane_id IS NOT NULL AND s.tmux_socket IS ?"
          " AND EXISTS (SELECT 1 FROM dispatches d WHERE d.session = s.id"
          " AND d.state = 'queued')")


def ready_sessions(store, tmux_socket: str | None) -> list[str]:
    """Sessions on this tmux server that may take their next dispatch now."""
    return [r["id"] for r in store.all(_READY + " ORDER BY s.id", (tmux_socket,))]


def begin_now(tx, sid: str, tmux_socket: str | None) -> _Job | None:
    """In the caller's transaction (the one that recorded the session's Stop): begin its next
    dispatch when it may take it at once, so that the signal and `sending` share one durable
    commit. None when it is not ready, or must first settle (left to `deliver_ready`)."""
    if tx.one(_READY + " AND s.id = ?", (tmux_socket, sid)) is None:
        return None
    if _settles_at(tx, sid) > time.time_ns():
        return None
    return _begin_in(tx, sid)


@dataclass
class Delivered:
    sent: list[int]
    failed: list[str]   # sessions whose pane refused the paste or Enter (gone or dead?)
    due_ns: int | None = None   # when a pane left to settle after its launch may take its paste


def deliver_ready(store, io: PaneIO, tmux_socket: str | None, sleep=time.sleep,
                  begun: list[_Job] | None = None) -> Delivered:
    """Deliver one dispatch to each ready pane that has settled since its launch, and finish
    those `begun` already (`begin_now`)."""
    now = time.time_ns()
    jobs, due = list(begun or ()), None
    for sid in ready_sessions(store, tmux_socket):
        settles_at = _settles_at(store, sid)
        if settles_at > now:
            due = settles_at if due is None else min(due, settles_at)
        elif job := _begin(store, sid):
            jobs.append(job)
    failed: list[str] = []
    if not jobs:
        return Delivered([], failed, due)
    for job in jobs:
        try:
            if job.clear_keys:
                io.send_keys(job.pane_id, *job.clear_keys)
            io.paste(job.pane_id, job.text, f"a2a-{job.n}")
            job.pasted = True
        except A2AError as exc:
            _not_sent(store, job, exc.message)
            failed.append(job.session)
    crashpoint("panes_after_paste")
    pasted = [j for j in jobs if j.pasted]
    if pasted:
        sleep(max(j.delay_s for j in pasted))
    sent = []
    for job in pasted:
        enter_ns = time.time_ns()
        try:
            io.send_keys(job.pane_id, "Enter")
        except A2AError as exc:
            _enter_failed(store, job, exc.message)
            failed.append(job.session)
            continue
        _sent(store, job, enter_ns)
        sent.append(job.n)
    return Delivered(sent, failed, due)


def _settles_at(store, sid: str) -> int:
    """When the session's pane may take its next paste (ns): at once (0), or, before anything
    was written since this launch, once idle for its profile's `start_settle_s`."""
    row = store.one("SELECT cli, created_ns, last_write_ns, state_since_ns FROM sessions"
                    " WHERE id = ?", (sid,))
    first = row["last_write_ns"] is None or row["last_write_ns"] <= row["created_ns"]
    settle_s = profiles.get(row["cli"]).start_settle_s
    return row["state_since_ns"] + int(settle_s * 1e9) if first and settle_s > 0 else 0


def _begin(store, sid: str) -> _Job | None:
    with store.write() as tx:
        return _begin_in(tx, sid)


def _begin_in(tx, sid: str) -> _Job | None:
    row = tx.one("SELECT * FROM sessions WHERE id = ?", (sid,))
    pane = pane_of(row)
    if not machine.can_deliver(pane):
        return None
    d = tx.one("SELECT n, text FROM dispatches WHERE session = ? AND state = 'queued'"
               " ORDER BY n LIMIT 1", (sid,))
    if d is None:
        return None
    prof = profiles.get(row["cli"])
    now = time.time_ns()
    set_dispatch(tx, d["n"], "sending", sending_ns=now)
    tx.execute("UPDATE sessions SET in_flight = ?, last_write_ns = ? WHERE id = ?",
               (d["n"], now, sid))
    tx.append("dispatch_sending", actor=ACTOR, attempt=row["attempt_id"], session=sid,
              payload=DispatchSending(n=d["n"], pane=row["pane_id"],
                                      clear_first=pane.needs_clear))
    return _Job(sid, row["pane_id"], d["n"], d["text"],
                prof.clear_input_keys if pane.needs_clear else (), prof.enter_delay_s)


def _sent(store, job: _Job, enter_ns: int) -> None:
    with store.write() as tx:
        row = tx.one("SELECT * FROM sessions WHERE id = ?", (job.session,))
        old = pane_of(row)
        set_dispatch(tx, job.n, "sent", enter_ns=enter_ns)
        tx.append("dispatch_sent", actor=ACTOR, attempt=row["attempt_id"], session=job.session,
                  payload=DispatchSent(n=job.n, pane=job.pane_id, enter_ns=enter_ns,
                                       from_=old.state))
        new = machine.sent(old, job.n, enter_ns) if old.state != "exited" else old
        save_pane(tx, job.session, old, new)


def _not_sent(store, job: _Job, why: str) -> None:
    """tmux refused the paste (the pane is gone): nothing reached the pane; back in the queue."""
    with store.write() as tx:
        row = tx.one("SELECT attempt_id FROM sessions WHERE id = ?", (job.session,))
        set_dispatch(tx, job.n, "queued", sending_ns=None)
        tx.execute("UPDATE sessions SET in_flight = NULL WHERE id = ? AND in_flight = ?",
                   (job.session, job.n))
        tx.append("dispatch_not_sent", actor=ACTOR, attempt=row["attempt_id"],
                  session=job.session, payload=DispatchNotSent(n=job.n, why=why))


def _enter_failed(store, job: _Job, why: str) -> None:
    """The text was pasted but Enter could not be written: whether it went in is unknown."""
    with store.write() as tx:
        row = tx.one("SELECT * FROM sessions WHERE id = ?", (job.session,))
        set_dispatch(tx, job.n, "unknown")
        tx.append("dispatch_unknown", actor=ACTOR, attempt=row["attempt_id"],
                  session=job.session,
                  payload=DispatchUnknown(n=job.n, why=f"Enter failed: {why}"))
        old = pane_of(row)
        save_pane(tx, job.session, old, machine.crashed_while_sending(old))
