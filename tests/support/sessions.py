"""Managed sessions without spawning a CLI, recorded as a launch records them.

`register_session` writes what `a2a spawn` writes for a launch, through the package's record
functions for it (`record_launching`: the launch record; `record_launched`: the pane's facts),
in one transaction, so that a test can make any process, or none, a session's pane process.
`set_session` then sets the pane projection the orchestrator keeps (state, paused, hint)
through the projection writer the orchestrator uses, for tests that need a given state without
driving an agent through the signals that lead to it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from a2a_tui.collab.context import Collab
from a2a_tui.identity import Caller, proc_stat
from a2a_tui.panes.records import (
    pane_of,
    record_launched,
    record_launching,
    save_pane,
    session_row,
)
from a2a_tui.payloads.sessions import SessionLaunching
from a2a_tui.repo import Repo
from a2a_tui.store import Store, Tx
from tests.support.records import store


def session_out(repo: Path, sid: str) -> Path:
    """The session's output folder (`.a2a/run/<s>/out`, made by its launch): the one folder
    under `.a2a/` a confined session writes, at the same path inside its sandbox and out. A
    pane's command that leaves its output for the test to read leaves it here."""
    return Repo(repo).session_out_dir(sid)


def proc_start(pid: int) -> int:
    """The process's start time as a launch records it (it tells a reused pid apart)."""
    st = proc_stat(pid)
    assert st is not None, f"process {pid} is gone"
    return st[2]


def process_alive(pid: int) -> bool:
    """Whether the process runs (as identity sees it)."""
    return proc_stat(pid) is not None


@contextmanager
def _tx(where: Path | Store) -> Iterator[Tx]:
    """A write transaction on a repository's store (`where` a repository root) or on `where`."""
    if isinstance(where, Store):
        with where.write() as tx:
            yield tx
        return
    with store(where) as s, s.write() as tx:
        yield tx


def register_session(where: Path | Store, sid: str, role: str = "worker",
                     pid: int | None = None, *, cli: str = "demo", start: int | None = None,
                     pane_id: str | None = None, tty: str | None = None,
                     socket: str | None = None, tmux_session: str | None = None,
                     model: str = "", effort: str = "",
                     attempt: str | None = None, state: str = "idle",
                     since_ns: int | None = None, paused: bool = False,
                     hint: str | None = None) -> None:
    """Record session `sid` of `role` as `a2a spawn` records a launch: the launch record and,
    given a pane or a pid, the pane's facts (`pid` is then the session's pane process; its start
    time is read from the process unless given); then the projection, as `set_session` sets it.
    `where` is a repository root or a store."""
    cwd = str(where if isinstance(where, Path) else where.path.parent.parent)
    version = f"{cli} 1.0"
    with _tx(where) as tx:
        seq = record_launching(
            tx, sid, actor="user", role=role, cli=cli, cwd=cwd, cli_version=version, model=model,
            effort=effort, attempt=attempt, tmux_socket=socket, tmux_session=tmux_session,
            record=SessionLaunching(role=role, cli=cli, cli_version=version, model=model,
                                    effort=effort, cwd=cwd, tmux_socket=socket))
        if pane_id is not None or pid is not None:
            if pid is not None and start is None:
                start = proc_start(pid)
            record_launched(tx, sid, actor="user", attempt=attempt, launch_seq=seq,
                            pane_id=pane_id, pid=pid, pid_start=start, tty=tty)
        _set(tx, sid, state=state, since_ns=since_ns, paused=paused, hint=hint)


def repoint_session(where: Path | Store, sid: str, pid: int) -> None:
    """Make `pid` the pane process of the existing session `sid` (its launch stays the old one):
    the pane's facts recorded again, as a launch records them."""
    with _tx(where) as tx:
        row = session_row(tx, sid)
        record_launched(tx, sid, actor="user", attempt=row["attempt_id"],
                        launch_seq=row["launch_seq"], pane_id=row["pane_id"], pid=pid,
                        pid_start=proc_start(pid), tty=row["pane_tty"])


def set_session(where: Path | Store, sid: str, *, state: str | None = None,
                since_ns: int | None = None, paused: bool | None = None,
                hint: str | None = None) -> None:
    """Set the session's pane projection: its `state` (and since when, `since_ns`; else now, as
    the orchestrator's writer does on a change), `paused`, `hint` (None: left as it is)."""
    with _tx(where) as tx:
        _set(tx, sid, state=state, since_ns=since_ns, paused=paused, hint=hint)


def _set(tx: Tx, sid: str, *, state: str | None, since_ns: int | None, paused: bool | None,
         hint: str | None) -> None:
    old = pane_of(session_row(tx, sid))
    changes = {k: v for k, v in (("state", state), ("paused", paused), ("hint", hint))
               if v is not None}
    save_pane(tx, sid, old, dataclasses.replace(old, **changes))
    if since_ns is not None:
        tx.execute("UPDATE sessions SET state_since_ns = ? WHERE id = ?", (since_ns, sid))


def collab_as(repo: Path, session: str | None = None, role: str | None = None) -> Collab:
    """The collaboration API in-process, acting as `session` of `role` (None: the user). For
    breadth; how a real process is attributed is tested with real panes. Close its store."""
    r = Repo(repo)
    return Collab(r, r.store(), Caller(session=session, role=role))


def hooked(repo: Path, sid: str, *hook_events: str, then=None) -> str:
    """The session's CLI signalling `hook_events` (Claude Code's names: UserPromptSubmit, Stop,
    Notification...) through the real hook script into its spool folder, each file then
    ingested as the orchestrator ingests it (the pane state machine moves the projection).
    `then`: what the orchestrator runs in each signal's transaction (its observers). Returns the
    pane's state after them."""
    import json
    import subprocess

    from a2a_tui.panes import spool
    from a2a_tui.resources import hooks_dir

    folder = repo / ".a2a/spool" / sid
    folder.mkdir(parents=True, exist_ok=True)
    for name in hook_events:
        subprocess.run([str(hooks_dir() / "a2a-hook"), "--spool", str(folder), "--session", sid,
                        "claude"], input=json.dumps({"hook_event_name": name, "session_id": "x",
                                                     "prompt": "go on", "message": "allow?"}),
                       text=True, check=True)
    with store(repo) as s:
        for path in spool.pending(repo / ".a2a/spool"):
            spool.ingest(s, path, then)
        return session_row(s, sid)["state"]
