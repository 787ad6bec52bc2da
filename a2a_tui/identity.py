"""Who is calling: a managed agent session, known from the process tree, or the user.

A command is attributed to a managed session because it runs inside that session's pane
process tree (or on its pane's terminal), never because of an environment variable: those the
agent can set to anything.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

USER = "user"


@dataclass(frozen=True)
class Caller:
    session: str | None = None
    role: str | None = None
    via: str | None = None  # how the session was recognised: "process tree" | "terminal"

    @property
    def is_user(self) -> bool:
        return self.session is None

    @property
    def actor(self) -> str:
        return USER if self.session is None else f"session:{self.session}"

    def describe(self) -> str:
        return "the user" if self.session is None else f"session {self.session} ({self.role})"


def proc_stat(pid: int) -> tuple[int, int, int] | None:
    """(ppid, tty_nr, starttime) of a live process, from /proc; None if it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name is in parentheses and may contain spaces or ')'.
    rest = raw[raw.rindex(")") + 2:].split()
    # rest[0] is state (field 3); ppid is field 4, tty_nr field 7, starttime field 22.
    return int(rest[1]), int(rest[4]), int(rest[19])


def ancestry(pid: int | None = None) -> list[tuple[int, int]]:
    """(pid, starttime) of the process and all its ancestors, nearest first."""
    pid = pid or os.getpid()
    out: list[tuple[int, int]] = []
    seen = set()
    while pid > 1 and pid not in seen:
        seen.add(pid)
        st = proc_stat(pid)
        if st is None:
            break
        ppid, _tty, start = st
        out.append((pid, start))
        pid = ppid
    return out


def controlling_tty(pid: int | None = None) -> int:
    st = proc_stat(pid or os.getpid())
    return st[1] if st else 0


def tty_device_number(tty_path: str) -> int:
    """The device number a process's tty_nr field holds for the terminal at `tty_path`."""
    try:
        return os.stat(tty_path).st_rdev
    except OSError:
        return -1


def process_alive(pid: int, start: int | None) -> bool:
    """Whether `pid` is running and is the same process that started at `start` (clock ticks)."""
    st = proc_stat(pid)
    return st is not None and (start is None or st[2] == start)


def resolve_caller(store, pid: int | None = None) -> Caller:
    """Attribute the calling process to a managed session, or to the user.

    A process is a session's when one of its ancestors is that session's pane process (same pid
    and same start time, so a reused pid does not count), or when its controlling terminal is the
    terminal of a session whose pane process is still alive (this catches a command the agent
    detached from its parent, e.g. `(a2a ... &)`, which keeps the terminal). Environment
    variables are never consulted.
    """
    rows = store.all(
        "SELECT id, role, pane_pid, pane_pid_start, pane_tty, state FROM sessions"
        " WHERE pane_pid IS NOT NULL"
    )
    if not rows:
        return Caller()
    chain = ancestry(pid)
    by_pid = {(r["pane_pid"], r["pane_pid_start"]): r for r in rows}
    for link in chain:
        row = by_pid.get(link)
        if row is not None:
            return Caller(session=row["id"], role=row["role"], via="process tree")
    tty = controlling_tty(pid)
    if tty:
        for r in rows:
            # A terminal outlives nobody: once the pane process is gone its pty number may be
            # handed to another terminal (the user's), so only live sessions' terminals count.
            if (r["state"] != "exited" and r["pane_tty"]
                    and tty_device_number(r["pane_tty"]) == tty
                    and process_alive(r["pane_pid"], r["pane_pid_start"])):
                return Caller(session=r["id"], role=r["role"], via="terminal")
    return Caller()
