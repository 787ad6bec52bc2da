"""Who is calling: a managed agent session, known from the process tree, or the user.

A command is attributed to a managed session by kernel facts about processes, never because of
an environment variable: those the agent can set to anything. In order:

1. **process tree** — one of its ancestors is the session's pane process (same pid and same
   start time, so a reused pid does not count);
2. **terminal** — its controlling terminal is the terminal of a session whose pane process is
   still alive (a detached `(a2a … &)` from a shell on the pane's terminal keeps it);
3. **session** — the leader of its POSIX session (`getsid`) is alive and is, or descends from,
   the pane process. Every member of a session descends from its leader, and while a member
   lives the leader's pid is never reused, so this holds for a command whose own parent chain
   was cut and that has no terminal. (The process group adds nothing: a group never spans two
   sessions.)

The facts come from psutil (parent, start time, terminal) and `os.getsid`, the same on Linux
and macOS. Start times are kept as hundredths of a second since boot: on Linux that is exactly
the `starttime` of `/proc/<pid>/stat` (USER_HZ is 100), so rows recorded before psutil compare
as they are.

What the launch guarantees (`spawn.py`). tmux starts each pane's process as the leader
of a new session with the pane's terminal, and the CLI is exec'd in that same process. On Linux
the CLI is also made a child subreaper: whatever it starts and detaches (`setsid`, a double
fork) is re-parented to it, never to init, so rule 1 always holds. Without a subreaper (macOS;
`A2A_PLATFORM=darwin`, see `host.py`) a detached command is orphaned to init/launchd and is
still known by rule 2 while it keeps the pane's terminal, or by rule 3 while the session it runs
in is led by a live process inside the pane (a tool shell that a CLI starts in a session of its
own, as Claude Code and the demo agent do, while that shell runs).

The remaining gap without a subreaper: a command that has lost its parent chain and has
neither the pane's terminal nor a live session leader inside the pane is the user's. That is a
command that called `setsid` itself and was orphaned (`setsid -f`, a daemon's double fork), or
a `( … &)` from a terminal-less tool shell that has already exited. No fact an unprivileged
process can read on macOS ties such an orphan to the pane; `tests/panes/test_panes_portable_e2e.py`
shows both sides.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import NamedTuple

from a2a_tui import host

USER = "user"
TICKS_PER_S = 100          # the unit of a recorded start time: 1/100 s since boot
# Outside Linux psutil derives a start time from wall-clock values (the creation time and the
# boot time); it corrects them for clock steps of a second or more, so a smaller step can move
# the value by less than that. A pid is not reused within a second (pid_max is 99 999 on macOS).
START_SLACK = TICKS_PER_S


@dataclass(frozen=True)
class Caller:
    session: str | None = None
    role: str | None = None
    via: str | None = None  # how: "process tree" | "terminal" | "session" (rules 1-3 above)

    @property
    def is_user(self) -> bool:
        return self.session is None

    @property
    def actor(self) -> str:
        return USER if self.session is None else f"session:{self.session}"

    def describe(self) -> str:
        return "the user" if self.session is None else f"session {self.session} ({self.role})"


class ProcStat(NamedTuple):
    ppid: int
    tty: str | None    # the controlling terminal's path, None without one
    start: int         # hundredths of a second since boot


def proc_stat(pid: int, terminal: bool = True) -> ProcStat | None:
    """Parent, controlling terminal (unless `terminal` is false: it costs a look at /dev) and
    start time of a live process; None if it is gone or a zombie."""
    psutil = _psutil()
    try:
        p = psutil.Process(pid)
        with p.oneshot():
            if p.status() == psutil.STATUS_ZOMBIE:
                return None
            start = round((p.create_time() - psutil.boot_time()) * TICKS_PER_S)
            return ProcStat(p.ppid(), p.terminal() if terminal else None, start)
    except psutil.Error:
        return None


def start_time(pid: int) -> int | None:
    """When a live process started, in hundredths of a second since boot; None if it is gone."""
    st = proc_stat(pid, terminal=False)
    return st.start if st else None


def same_start(recorded: int | None, actual: int) -> bool:
    """Whether a start time recorded earlier names the process that started at `actual`.

    Exact on Linux, where both come from the kernel's tick count; within a second elsewhere.
    None (a start never recorded) matches any process."""
    slack = 0 if host.linux() else START_SLACK
    return recorded is None or abs(recorded - actual) <= slack


def ancestry(pid: int | None = None) -> list[tuple[int, int]]:
    """(pid, start time) of the process and all its ancestors, nearest first."""
    pid = pid or os.getpid()
    out: list[tuple[int, int]] = []
    seen = set()
    while pid > 1 and pid not in seen:
        seen.add(pid)
        st = proc_stat(pid, terminal=False)
        if st is None:
            break
        out.append((pid, st.start))
        pid = st.ppid
    return out


def session_leader(pid: int | None = None) -> int | None:
    """The pid of the leader of the process's POSIX session; None if it is unknown."""
    try:
        return os.getsid(pid or 0)
    except OSError:
        return None


def controlling_tty(pid: int | None = None) -> str | None:
    """The path of the process's controlling terminal; None without one."""
    psutil = _psutil()
    try:
        return psutil.Process(pid or os.getpid()).terminal()
    except psutil.Error:
        return None


def process_alive(pid: int, start: int | None) -> bool:
    """Whether `pid` is running (not a zombie) and is the process that started at `start`."""
    st = proc_stat(pid, terminal=False)
    return st is not None and same_start(start, st.start)


def resolve_caller(store, pid: int | None = None) -> Caller:
    """Attribute the calling process to a managed session, or to the user.

    By process tree, then by a live session's terminal, then by session leader (the module
    docstring says why each holds and what none of them catches). Environment variables are
    never consulted.
    """
    rows = store.all(
        "SELECT id, role, pane_pid, pane_pid_start, pane_tty, state FROM sessions"
        " WHERE pane_pid IS NOT NULL"
    )
    if not rows:
        return Caller()
    by_pid: dict[int, list] = {}
    for r in rows:
        by_pid.setdefault(r["pane_pid"], []).append(r)

    def pane_of(chain: list[tuple[int, int]]):
        for link_pid, link_start in chain:
            for r in by_pid.get(link_pid, ()):
                if same_start(r["pane_pid_start"], link_start):
                    return r
        return None

    chain = ancestry(pid)
    row = pane_of(chain)
    if row is not None:
        return Caller(session=row["id"], role=row["role"], via="process tree")
    tty = controlling_tty(pid)
    if tty:
        for r in rows:
            # A terminal outlives nobody: once the pane process is gone its pty may be handed to
            # another terminal (the user's), so only live sessions' terminals count.
            if (r["state"] != "exited" and r["pane_tty"]
                    and _same_file(r["pane_tty"], tty)
                    and process_alive(r["pane_pid"], r["pane_pid_start"])):
                return Caller(session=r["id"], role=r["role"], via="terminal")
    leader = session_leader(pid)
    if leader and leader > 1 and leader not in {p for p, _ in chain}:
        row = pane_of(ancestry(leader))
        if row is not None:
            return Caller(session=row["id"], role=row["role"], via="session")
    return Caller()


def _psutil():
    # Imported when a process is looked at, not with the module: commands that never ask who
    # is calling (`a2a sessions`, `status`) do not pay for it (~15 ms).
    import psutil

    return psutil


def _same_file(a: str, b: str) -> bool:
    if a == b:
        return True
    try:
        return os.stat(a).st_rdev == os.stat(b).st_rdev
    except OSError:
        return False
