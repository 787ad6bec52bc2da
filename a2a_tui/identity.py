"""Who is calling: a managed agent session, known from the process tree, or the user.

An agent's own `a2a` does not come here: it goes through its session's broker socket and is
that session, whatever its process says (a2a_tui/broker; `Caller.via` "broker"). The rules
below decide a direct call (the user's terminal, or a pane's process that bypasses its broker)
and are the broker's second check of the process at the other end of a socket (`in_session`).

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

**The user is a positive finding, never the default.** A caller that is no managed session is
the user only when all of these hold:

- it runs in a2a's own PID namespace: the one `a2a init` recorded in the store (pids, and so
  every fact above, mean something else in another namespace). A sandbox that gives an agent's
  commands a PID namespace of their own (Codex's workspace-write sandbox on Linux) is outside;
- its parent chain can be followed to the top (pid 1, or a parent outside the namespace): a
  chain cut by a process that cannot be read is not one a2a can vouch for;
- it has a controlling terminal, and that terminal is not a live managed pane's (rule 2 makes
  such a caller the session).

Anything else is `unidentified` (`Caller.unidentified` says why): it may read; the CLI refuses
every command that writes (`caller_unidentified`), and `Caller.actor` refuses to name it, so no
path can record it as anyone. The orphan of the gap above is now unidentified, not the user.
macOS has no PID namespaces: there the namespace condition is void, the other two hold, and a
Seatbelt sandbox that denies reading its parents cuts the chain (unidentified). A process of
the same user that keeps a terminal of its own outside every pane (a `script` pty, say) and an
intact chain is still taken for the user: no fact tells it from a person typing.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import NamedTuple

from a2a_tui import host
from a2a_tui.errors import A2AError

USER = "user"
UNIDENTIFIED = "unidentified"
# Events that record a2a's PID namespace: `a2a init` (the store's creation, or a re-run that
# records or adopts it); the newest one holds.
NAMESPACE_KINDS = ("initialized", "pid_namespace_recorded")
TICKS_PER_S = 100          # the unit of a recorded start time: 1/100 s since boot
# Outside Linux psutil derives a start time from wall-clock values (the creation time and the
# boot time); it corrects them for clock steps of a second or more, so a smaller step can move
# the value by less than that. A pid is not reused within a second (pid_max is 99 999 on macOS).
START_SLACK = TICKS_PER_S


@dataclass(frozen=True)
class Caller:
    """Who is calling. `Caller()` is the user: for code that acts for the user by construction
    (the workbench, the demo); a command's caller comes from `resolve_caller`."""

    session: str | None = None
    role: str | None = None
    # how: "process tree" | "terminal" | "session" (rules 1-3 above); "broker": the request came
    # in on the session's own socket (a2a_tui/broker), whatever its process says of itself
    via: str | None = None
    unidentified: str | None = None  # why the caller could not be placed; None when it was

    @classmethod
    def unplaced(cls, why: str) -> Caller:
        return cls(unidentified=why)

    @property
    def is_user(self) -> bool:
        return self.session is None and self.unidentified is None

    @property
    def actor(self) -> str:
        """How the caller is recorded. An unidentified caller is recorded as nobody: asking
        refuses (`caller_unidentified`), so a write path that forgot to check cannot record it."""
        if self.unidentified is not None:
            raise self.refusal()
        return USER if self.session is None else f"session:{self.session}"

    def describe(self) -> str:
        if self.unidentified is not None:
            return "an unidentified caller"
        return "the user" if self.session is None else f"session {self.session} ({self.role})"

    def refusal(self, what: str = "this command writes") -> A2AError:
        """The one error an unidentified caller gets for a write."""
        return A2AError(
            "caller_unidentified",
            f"{what}, and this process is unidentified: {self.unidentified}. It may read;"
            " run it from your own terminal, or from a managed session's pane")


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
    return _chain(pid)[0]


def _chain(pid: int | None = None) -> tuple[list[tuple[int, int]], int | None]:
    """The ancestry, and the pid where it was cut (a process that could not be read), or None
    when it reached the top (pid 1, or a parent outside the PID namespace: ppid 0)."""
    pid = pid or os.getpid()
    out: list[tuple[int, int]] = []
    seen = set()
    while pid > 1:
        if pid in seen:
            return out, pid
        seen.add(pid)
        st = proc_stat(pid, terminal=False)
        if st is None:
            return out, pid
        out.append((pid, st.start))
        pid = st.ppid
    return out, None


def pid_namespace(pid: int | None = None) -> str | None:
    """The process's PID namespace (`pid:[4026531836]`); None where the system has none (not
    Linux). On Linux a namespace that cannot be read raises OSError."""
    if not sys.platform.startswith("linux"):
        return None
    return os.readlink(f"/proc/{pid or 'self'}/ns/pid")


def recorded_pid_namespace(store) -> str | None:
    """a2a's own PID namespace, as `a2a init` recorded it in the store; None if never."""
    row = store.one(
        "SELECT json_extract(payload, '$.pid_namespace') FROM events WHERE kind IN (?, ?)"
        " AND json_extract(payload, '$.pid_namespace') IS NOT NULL ORDER BY seq DESC LIMIT 1",
        NAMESPACE_KINDS)
    return None if row is None else row[0]


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
    """Attribute the calling process to a managed session, to the user, or to nobody.

    In a2a's PID namespace only; then by process tree, by a live session's terminal, by session
    leader (the module docstring says why each holds and what none of them catches); then the
    user, only on positive evidence (an intact parent chain and a terminal that is no live
    pane's). Anything else is unidentified. Environment variables are never consulted.
    """
    try:
        ns = pid_namespace(pid)
    except OSError as exc:
        return Caller.unplaced(f"its PID namespace cannot be read ({exc.strerror})")
    home = recorded_pid_namespace(store)
    if ns is not None and home is not None and ns != home:
        return Caller.unplaced(f"it runs in another PID namespace ({ns}; a2a's is {home}),"
                               " as inside a sandbox")
    rows = store.all(
        "SELECT id, role, pane_pid, pane_pid_start, pane_tty, state FROM sessions"
        " WHERE pane_pid IS NOT NULL"
    )
    chain, cut = _chain(pid)
    tty = controlling_tty(pid)
    placed = _place(rows, chain, pid, tty)
    if placed is not None:
        row, via = placed
        return Caller(session=row["id"], role=row["role"], via=via)
    # Not a session: the user only on positive evidence.
    if ns is not None and home is None:
        return Caller.unplaced("this store has not recorded a2a's PID namespace; run `a2a init`"
                               " once from your terminal")
    if cut is not None:
        return Caller.unplaced(f"its process tree cannot be followed past pid {cut}")
    if not tty:
        return Caller.unplaced("it has no controlling terminal and no managed pane in its"
                               " process tree")
    return Caller(via="terminal")


def _place(rows, chain: list[tuple[int, int]], pid: int | None, tty: str | None):
    """(the session row, the rule) that places the process `pid` (its ancestry `chain`, its
    controlling terminal `tty`) among `rows`, by rules 1-3 of the module docstring; None when
    none does."""
    by_pid: dict[int, list] = {}
    for r in rows:
        by_pid.setdefault(r["pane_pid"], []).append(r)

    def pane_of(links: list[tuple[int, int]]):
        for link_pid, link_start in links:
            for r in by_pid.get(link_pid, ()):
                if same_start(r["pane_pid_start"], link_start):
                    return r
        return None

    row = pane_of(chain)
    if row is not None:
        return row, "process tree"
    if tty:
        for r in rows:
            # A terminal outlives nobody: once the pane process is gone its pty may be handed to
            # another terminal (the user's), so only live sessions' terminals count.
            if (r["state"] != "exited" and r["pane_tty"]
                    and _same_file(r["pane_tty"], tty)
                    and process_alive(r["pane_pid"], r["pane_pid_start"])):
                return r, "terminal"
    leader = session_leader(pid)
    if leader and leader > 1 and leader not in {p for p, _ in chain}:
        row = pane_of(ancestry(leader))
        if row is not None:
            return row, "session"
    return None


def in_session(store, session: str, pid: int) -> str | None:
    """Whether the live process `pid` belongs to `session` by the facts of rules 1-3 (its
    ancestry reaches the session's pane process, ...): the rule that says so, or None.

    The broker's second check (a2a_tui/broker): a request came in on the session's own socket,
    and the kernel names the process at its other end (SO_PEERCRED, its pid translated into
    a2a's PID namespace). Unlike `resolve_caller` it asks about one session, and a process in
    a PID namespace of its own (a sandbox's) is placed by its ancestry as seen from a2a's."""
    rows = store.all("SELECT id, role, pane_pid, pane_pid_start, pane_tty, state FROM sessions"
                     " WHERE id = ? AND pane_pid IS NOT NULL", (session,))
    if not rows:   # no pane yet
        return None
    if _descends(pid, rows[0]["pane_pid"], rows[0]["pane_pid_start"]):
        return "process tree"   # rule 1, walked only as far as the pane (every request asks)
    chain, _cut = _chain(pid)
    if not chain:   # the process is gone
        return None
    placed = _place(rows, chain, pid, controlling_tty(pid))
    return None if placed is None else placed[1]


def _descends(pid: int, pane: int, pane_start: int | None) -> bool:
    """Whether `pid` is the process that started at `pane_start` as `pane`, or descends from it."""
    seen = set()
    while pid > 1 and pid not in seen:
        seen.add(pid)
        st = proc_stat(pid, terminal=False)
        if st is None:
            return False
        if pid == pane:
            return same_start(pane_start, st.start)
        pid = st.ppid
    return False


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
