"""A session's life, as the user drives it: a new one, a restart of one that exited, the end of
one, and `a2a down` (every session of the repository, its orchestrator and its tmux session).

Each is the user's decision, recorded as a user input (U-<n>) before anything moves; a managed
session may start and restart sessions as `a2a spawn` lets it (recorded as its own act), but
only the user ends them. a2a never ends or restarts a pane on its own.

`restart` is the core others build on: it relaunches the session under the same id (its kept
queue is delivered to the new pane) with the same role, attempt, CLI and options, as a new
launch record whose payload names the launch it `restarts`. `revive` does the same on the CLI's
own conversation (the launch names the launch it `revives`; a CLI that cannot resume is started
afresh, and the record says why); `fork` starts a new session, bound to no attempt, on a copy
of another's conversation (`forks`), where the CLI can.
"""

from __future__ import annotations

import json
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from a2a_tui import profiles
from a2a_tui.collab.user_input import record_user_input_in_tx
from a2a_tui.errors import A2AError
from a2a_tui.gate.model import ENDED
from a2a_tui.identity import process_alive
from a2a_tui.jsontypes import JsonObject
from a2a_tui.panes import machine
from a2a_tui.panes.orchestrator import stop_running
from a2a_tui.panes.records import pane_of, save_pane, session_row, set_dispatch
from a2a_tui.payloads.attempts import AttemptAssigned
from a2a_tui.payloads.dispatch import DispatchEnded
from a2a_tui.payloads.sessions import SessionEnded, SessionLaunching
from a2a_tui.queue import enqueue_in_tx, wake
from a2a_tui.resources import hooks_dir
from a2a_tui.settings import Settings
from a2a_tui.spawn import ROLES, Launched, spawn
from a2a_tui.tmux import Tmux

ACTOR = "user"
ASSIGNED = "attempt_assigned"   # a session started on an attempt was given its task
PROCESS_GONE_S = 3.0        # how long `end` waits to see the pane's process gone
DOWN_GONE_S = 10.0          # how long `down` waits for all of them together


@dataclass(frozen=True)
class Started:
    """A session started by the user's hand (`how`: new, restart, revive or fork): the launch,
    its options, the user input that decided it, and what `how` adds: the dispatch that gave it
    its task (`assigned`), the launch it brings back (`restarts`, with the old pane), the
    conversation it goes on with (`continues`), the session it copies (`forks`) and why a
    revive started afresh (`fresh`)."""

    how: str
    launched: Launched
    options: tuple[str, ...]
    user_input: str | None
    assigned: int | None = None
    restarts: int | None = None
    old_pane: str | None = None
    old_pane_closed: bool = False
    options_known: bool = True
    continues: str | None = None
    forks: str | None = None
    fresh: str | None = None

    def to_json(self) -> JsonObject:
        out: JsonObject = self.launched.to_json()
        if self.assigned is not None:
            out["assigned"] = self.assigned
        if self.how == "fork":
            out |= {"forks": self.forks, "continues": self.continues}
        if self.how in ("restart", "revive"):
            out |= {"restarts": self.restarts, "old_pane": self.old_pane,
                    "old_pane_closed": self.old_pane_closed}
        out["options"] = list(self.options)
        if self.how in ("restart", "revive"):
            out |= {"continues": self.continues, "options_known": self.options_known}
        out["user_input"] = self.user_input
        if self.how == "revive":
            out["fresh"] = self.fresh
        return out


@dataclass(frozen=True)
class Ended:
    """A session the user ended: its pane (closed, or already gone), whether its process is
    gone, and the user input that decided it."""

    session: str
    pane: str | None
    pane_closed: bool
    process_gone: bool
    pid: int | None
    user_input: str | None

    def to_json(self) -> JsonObject:
        return {"session": self.session, "pane": self.pane, "pane_closed": self.pane_closed,
                "process_gone": self.process_gone, "pid": self.pid,
                "user_input": self.user_input}


@dataclass(frozen=True)
class Down:
    """`a2a down`: the tmux session and server, whether the orchestrator stopped (its pid),
    each session ended, what ran last (`then`: the demo's removal) and whether the tmux session
    was there to kill."""

    tmux_session: str
    tmux_socket: str | None
    orchestrator_stopped: int | None
    ended: tuple[Ended, ...]
    user_input: str | None
    then: str | None
    killed: bool

    def to_json(self) -> JsonObject:
        return {"tmux_session": self.tmux_session, "tmux_socket": self.tmux_socket,
                "orchestrator_stopped": self.orchestrator_stopped,
                "ended": [e.to_json() for e in self.ended], "user_input": self.user_input,
                "then": self.then, "killed": self.killed}


def new(g, settings: Settings, *, role: str, cli: str | None = None, model: str | None = None,
        effort: str | None = None, options: Sequence[str] | None = None,
        attempt: str | None = None, session: str | None = None,
        tmux_socket: str | None = None, source: str = "cli", assign: bool = False
        ) -> Started:
    """A new session of `role`; what is not given comes from the settings' defaults for the
    role on its CLI (`[clis.<cli>]`, and `[roles.<role>]` where written for that CLI).
    `assign`: a session on an attempt gets its task as its first prompt (the card, the checks,
    the command that delivers: gate/cards/commands.py assignment), so it starts working at once."""
    if role not in ROLES:
        raise A2AError("unknown_role", f"unknown role {role!r} (one of {', '.join(ROLES)})",
                       exit_code=2)
    d = settings.launch(role, cli)
    cli = d.cli
    if not cli:
        raise A2AError("no_cli", f"no CLI for a {role}: give --cli, or set roles.{role}.cli in"
                       f" {settings.files['user']}", exit_code=2)
    model = d.model if model is None else model
    effort = d.effort if effort is None else effort
    extra = tuple(d.options if options is None else options)
    what = (f"new {role} session ({cli}" + "".join(f" {x}" for x in (model, effort) if x)
            + (f", in {attempt}" if attempt else "") + ")")
    uid = _decided(g, what, source=source, attempt=attempt)
    r = spawn(g, role=role, cli=cli, model=model, effort=effort, attempt=attempt,
              session=session, tmux_socket=tmux_socket, extra=extra, user_input=uid)
    assigned = None
    if assign and attempt:
        from a2a_tui.gate.cards.commands import assignment  # lazy: the card model (pydantic)

        text = assignment(g, attempt)
        with g.store.write() as tx:
            assigned = enqueue_in_tx(tx, r.session, text, source="user",
                                     actor=g.caller.actor, attempt=attempt)
            # Who gave the attempt its worker: the executive that did is told what becomes
            # of it (gate/escalate.tell_dispatcher).
            tx.append(ASSIGNED, actor=g.caller.actor, task=g.attempt(attempt).card_id,
                      attempt=attempt, session=r.session,
                      payload=AttemptAssigned(dispatch=assigned, by=g.caller.actor))
    wake(g.repo)
    return Started("new", r, extra, uid, assigned=assigned)


def restart(g, session_id: str, *, resume: bool = False, source: str = "cli") -> Started:
    """Start an exited session again: same id, role, attempt, CLI, model, effort and options,
    on the same tmux server; a new launch record with `restarts: <old launch seq>`.
    `resume`: on the CLI's own conversation (`revive`)."""
    if resume:
        return revive(g, session_id, source=source)
    row, record = _exited(g, session_id)
    uid = _decided(g, f"restart {session_id}", source=source, to_session=session_id,
                   attempt=row["attempt_id"])
    return _relaunch(g, row, record, uid)


def revive(g, session_id: str, *, source: str = "cli") -> Started:
    """Start an exited session again on its CLI's own conversation (the one its launch chose,
    or Codex's thread id, learned from its notify), in the same folder; a new launch record with
    `revives: <old launch seq>`; its queue is kept. A CLI that cannot resume (the demo agent),
    or a conversation never learned, starts afresh: `fresh` says why, as the record does."""
    row, record = _exited(g, session_id)
    thread = row["thread_id"]
    why = (_cannot(g, row, record, thread, fork=False) if thread else
           f"no conversation id of {session_id} is known ({row['cli']} never reported one)")
    uid = _decided(g, f"revive {session_id}", source=source, to_session=session_id,
                   attempt=row["attempt_id"])
    if why:
        return replace(_relaunch(g, row, record, uid, note={"revive_refused": why}),
                       how="revive", fresh=why)
    return replace(_relaunch(g, row, record, uid, continues=thread), how="revive")


def fork(g, session_id: str, *, new_id: str | None = None, tmux_socket: str | None = None,
         source: str = "cli") -> Started:
    """A new session (`new_id`, else the role's next id) on a copy of `session_id`'s
    conversation, same role, CLI and options, in the same folder, bound to no attempt; its
    launch record names the original (`forks`). A2AError `cannot_fork` where the CLI cannot."""
    row = session_row(g.store, session_id)
    record = _launch_record(g, row)
    thread = row["thread_id"]
    if not thread:
        raise A2AError("no_conversation", f"no conversation id of {session_id} is known yet"
                       f" ({row['cli']} reports it with its first turn): nothing to fork")
    why = _cannot(g, row, record, thread, fork=True)
    if why:
        raise A2AError("cannot_fork", why)
    if new_id and g.store.one("SELECT 1 FROM sessions WHERE id = ?", (new_id,)):
        raise A2AError("session_exists", f"session {new_id} already exists")
    socket = tmux_socket if tmux_socket is not None else row["tmux_socket"]
    uid = _decided(g, f"fork {session_id}" + (f" as {new_id}" if new_id else ""),
                   source=source, to_session=session_id)
    extra = tuple(record.extra or [])
    r = spawn(g, role=row["role"], cli=row["cli"], model=row["model"], effort=row["effort"],
              session=new_id, tmux_socket=socket, extra=extra, continues=thread, fork=True,
              user_input=uid, cwd=Path(record.cwd or row["cwd"]),
              note={"forks": session_id, "forks_launch": row["launch_seq"]})
    wake(g.repo)
    return Started("fork", r, extra, uid, forks=session_id, continues=thread)


def _cannot(g, row, record: SessionLaunching, thread: str, *, fork: bool) -> str | None:
    """Why the session's CLI cannot resume (or fork) a conversation, asked of its profile
    before anything is recorded; None when it can."""
    ctx = profiles.LaunchContext(
        session=row["id"], role=row["role"], cwd=Path(record.cwd or row["cwd"]),
        run_dir=g.repo.runs_dir / row["id"], spool_dir=g.repo.session_spool_dir(row["id"]),
        hook=hooks_dir() / "a2a-hook", extra=tuple(record.extra or ()),
        continues=profiles.check_conversation(thread), fork=fork)
    try:
        profiles.get(row["cli"]).prepare(ctx)   # builds the argv only: nothing is written
    except A2AError as exc:
        if exc.code in ("cannot_resume", "cannot_fork"):
            return exc.message
    return None


def _exited(g, session_id: str) -> tuple[Any, SessionLaunching]:
    row = session_row(g.store, session_id)
    if row["state"] != "exited":
        raise A2AError("session_running", f"session {session_id} is {row['state']}, not exited:"
                       " end it first to restart it")
    attempt = row["attempt_id"]
    if attempt is not None:
        state = g.attempt(attempt).state
        if state in ENDED:
            raise A2AError("attempt_not_open", f"{session_id} worked in {attempt}, which is"
                           f" {state}: start a new session instead")
    return row, _launch_record(g, row)


def _launch_record(g, row) -> SessionLaunching:
    """The session's last launch record (one with no record: every field unknown)."""
    old = g.store.one("SELECT payload FROM events WHERE seq = ?", (row["launch_seq"],))
    return SessionLaunching.read(json.loads(old["payload"]) if old else {})


def _relaunch(g, row, record: SessionLaunching, uid: str | None, *, continues: str | None = None,
              note: dict[str, Any] | None = None) -> Started:
    """The exited session `row` launched again under its id, in the same folder."""
    extra = list(record.extra or [])
    closed = _close_dead_pane(row)
    cwd = Path(record.cwd) if row["attempt_id"] is None and record.cwd else None
    r = spawn(g, role=row["role"], cli=row["cli"], model=row["model"], effort=row["effort"],
              attempt=row["attempt_id"], session=row["id"], tmux_socket=row["tmux_socket"],
              extra=tuple(extra), restarts=row["launch_seq"], user_input=uid,
              continues=continues, cwd=cwd, note=note)
    wake(g.repo)
    return Started("restart", r, tuple(extra), uid, restarts=row["launch_seq"],
                   old_pane=row["pane_id"], old_pane_closed=closed, continues=continues,
                   options_known=record.extra is not None)


def end(g, session_id: str, *, source: str = "cli", user_input: str | None = None
        ) -> Ended:
    """The user ends a session: its pane is closed, the session recorded `exited` with
    `ended_by: user` (a dispatch in flight as `ended`); its queue is kept for a restart."""
    _require_user(g, "ending a session")
    row = session_row(g.store, session_id)
    if row["state"] == "exited":
        raise A2AError("session_exited", f"session {session_id} has already exited")
    uid = user_input or _decided(g, f"end {session_id}", source=source,
                                 to_session=session_id, attempt=row["attempt_id"])
    closed = _close_pane(row)
    gone = _wait_gone([row], PROCESS_GONE_S)[session_id]
    return _record_end(g, session_id, uid, closed, gone)


def _close_pane(row) -> bool:
    """Close the session's pane (tmux hangs its process up); whether there was one to close."""
    if not row["pane_id"]:
        return False
    tmux = Tmux(row["tmux_socket"])
    if row["pane_id"] not in tmux.panes():
        return False
    tmux.kill_pane(row["pane_id"])
    return True


def _record_end(g, session_id: str, uid: str | None, closed: bool, gone: bool) -> Ended:
    with g.store.write() as tx:
        fresh = session_row(tx, session_id)
        p = pane_of(fresh)
        tx.append("session_ended", actor=ACTOR, attempt=fresh["attempt_id"], session=session_id,
                  payload=SessionEnded(ended_by="user", user_input=uid, pane=fresh["pane_id"],
                                       pane_closed=closed, process_gone=gone, from_=p.state,
                                       in_flight=p.in_flight))
        if p.state != "exited":
            _end_in_flight(tx, fresh, p.in_flight)
            save_pane(tx, session_id, p, machine.exited(p))
    return Ended(session_id, fresh["pane_id"], closed, gone, fresh["pane_pid"], uid)


def down(g, tmux_socket: str | None, *, confirm: Callable[[list[str]], bool],
         source: str = "cli", then: Callable[[], str] | None = None) -> Down:
    """End the repository's a2a tmux session: its orchestrator stops, every live session there
    ends (as `end` does), the tmux session goes. Worktrees and the store stay. `confirm` is
    asked, with the busy sessions, when agents are at work; no means nothing is done. `then`
    runs last before the tmux session goes (which ends this process too when it runs in it)."""
    _require_user(g, "`a2a down`")
    tmux_session = g.repo.config().tmux_session
    live = g.store.all("SELECT id, state FROM sessions WHERE state != 'exited'"
                       " AND tmux_socket IS ? AND tmux_session IS ? ORDER BY created_ns",
                       (tmux_socket, tmux_session))
    busy = [f"{r['id']} ({r['state']})" for r in live if r["state"] in ("busy", "waiting")]
    if busy and not confirm(busy):
        raise A2AError("agents_busy", f"{', '.join(busy)} still at work: nothing was stopped"
                       " (`a2a down --yes` ends them anyway)")
    uid = _decided(g, f"down: end tmux session {tmux_session}", source=source)
    stopped = stop_running(g.repo)
    # Every pane is closed first and their processes awaited together: each agent gets the
    # whole wait to exit on its hang-up, not a share of it (a busy machine is slow to exit).
    rows = [session_row(g.store, r["id"]) for r in live]
    closed = {r["id"]: _close_pane(r) for r in rows}
    gone = _wait_gone(rows, DOWN_GONE_S)
    ended = [_record_end(g, r["id"], uid, closed[r["id"]], gone[r["id"]]) for r in rows]
    last = then() if then is not None else None
    tmux = Tmux(tmux_socket)
    killed = tmux.has_session(tmux_session)
    if killed:
        tmux.kill_session(tmux_session)
    return Down(tmux_session, tmux_socket, stopped, tuple(ended), uid, last, killed)


# --- helpers ----------------------------------------------------------------------------------
def _decided(g, what: str, *, source: str, to_session: str | None = None,
             attempt: str | None = None) -> str | None:
    """The user's decision as a user input; None when a managed session acts (its own act is
    in the launch record's actor)."""
    if not g.caller.is_user:
        return None
    with g.store.write() as tx:
        return record_user_input_in_tx(tx, "action", what, source=source,
                                       to_session=to_session, attempt=attempt)


def _require_user(g, what: str) -> None:
    if not g.caller.is_user:
        raise A2AError("user_only", f"{what} is the user's alone; {g.caller.describe()} is a"
                       " managed session")


def _close_dead_pane(row) -> bool:
    """The exited session's pane, if tmux still shows it dead (remain-on-exit), goes: the new
    launch opens its own window. A live one is never touched."""
    if not row["pane_id"]:
        return False
    tmux = Tmux(row["tmux_socket"])
    facts = tmux.panes().get(row["pane_id"])
    if facts is None or not facts.dead:
        return False
    tmux.kill_pane(row["pane_id"])
    return True


def _wait_gone(rows, within_s: float) -> dict[str, bool]:
    """For each session row, whether its pane's process is gone (tmux hung it up), waiting up
    to `within_s` for all of them together."""
    deadline = time.monotonic() + within_s
    gone: dict[str, bool] = {}
    while True:
        for r in rows:
            pid = r["pane_pid"]
            gone[r["id"]] = pid is None or not process_alive(pid, r["pane_pid_start"])
        if all(gone.values()) or time.monotonic() > deadline:
            return gone
        time.sleep(0.05)


def _end_in_flight(tx, row, n: int | None) -> None:
    if n is None:
        return
    d = tx.one("SELECT state FROM dispatches WHERE n = ?", (n,))
    if d is not None and d["state"] in ("sent", "delivered"):
        set_dispatch(tx, n, "ended", ended_ns=time.time_ns())
        tx.append("dispatch_ended", actor=ACTOR, attempt=row["attempt_id"], session=row["id"],
                  payload=DispatchEnded(n=n, why="the user ended the session"))


def describe_revive(r: Started) -> str:
    """One line for a revive (the CLI and the workbench say the same)."""
    how = f"started afresh: {r.fresh}" if r.fresh else f"on its conversation {r.continues}"
    return (f"revived {describe(r)} (launch #{r.launched.launch_seq} revives #{r.restarts})"
            f" {how}" + (f" · {r.user_input}" if r.user_input else ""))


def describe_fork(r: Started) -> str:
    return (f"forked {r.forks} as {describe(r)} on a copy of its conversation"
            f" {r.continues}" + (f" · {r.user_input}" if r.user_input else ""))


def describe(r: Started) -> str:
    """One line for a launch made here (the CLI and the workbench say the same)."""
    opts = f" -- {shlex.join(r.options)}" if r.options else ""
    s = r.launched
    return (f"{s.session} ({s.role}, {s.cli} {s.cli_version}".rstrip()
            + f") in pane {s.pane}" + (f", writer of {s.attempt}" if s.attempt else "") + opts)
