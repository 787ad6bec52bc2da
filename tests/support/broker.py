"""Reaching a2a through a session's broker socket, as an agent's `a2a` does.

`broker_as(repo, sid, role, *args)` runs the broker's thin client (`python -I -S client.py`,
what a session's shim runs) in a process registered as session `sid`'s pane process, once the
orchestrator (`a2a serve`, which must run) serves the session's socket; `AgentProcess` does
the same in steps, for a test that must act while the command runs. `wrap` puts words before
the client (`unshare ...`: the client in a namespace of its own, as in a sandbox).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from a2a_tui.panes.orchestrator import lock_holder
from a2a_tui.repo import Repo
from a2a_tui.resources import BROKER_ENV, broker_client
from tests.support.cli import Run
from tests.support.records import store
from tests.support.serve import barrier
from tests.support.sessions import register_session, repoint_session
from tests.support.wait import wait_until

CLIENT = (sys.executable, "-I", "-S", str(broker_client()))


def socket_of(repo: Path, sid: str) -> Path:
    return Repo(repo).broker_socket(sid)


def serving(repo: Path, sid: str, timeout: float = 20) -> Path:
    """Wait until the orchestrator's broker listens on the session's socket; its path."""
    barrier(repo)
    path = socket_of(repo, sid)
    wait_until(lambda: path.is_socket(), timeout=timeout, what=f"the broker socket of {sid}")
    return path


class AgentProcess:
    """A process registered as `sid`'s pane process (a new session of `role`, or the existing
    one repointed to it) that runs `argv` (default: the client with `args`) when `go` is
    called; stdin, stdout and stderr are pipes."""

    def __init__(self, repo: Path, sid: str, role: str, *args: str,
                 argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None,
                 cwd: Path | None = None, wrap: Sequence[str] = (), wait: bool = True):
        full = {**os.environ, BROKER_ENV: str(socket_of(repo, sid)), **(env or {})}
        self.proc = subprocess.Popen(
            ["sh", "-c", 'read go; exec "$@"', "sh", *wrap, *(argv or (*CLIENT, *args))],
            cwd=str(cwd or repo), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env=full)
        with store(repo) as s:
            known = s.one("SELECT 1 FROM sessions WHERE id = ?", (sid,)) is not None
        if known:
            repoint_session(repo, sid, self.proc.pid)
        else:
            register_session(repo, sid, role, pid=self.proc.pid)
        if wait:
            serving(repo, sid)

    def start(self, input: str = "") -> None:
        """Let the command start, with `input` on its stdin (then closed)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write("go\n" + input)
        self.proc.stdin.close()

    def finish(self, timeout: float = 120) -> Run:
        out = self.proc.stdout.read() if self.proc.stdout else ""
        err = self.proc.stderr.read() if self.proc.stderr else ""
        return Run(self.proc.wait(timeout=timeout), out, err)

    def go(self, input: str = "", timeout: float = 120) -> Run:
        self.start(input)
        return self.finish(timeout)


def broker_as(repo: Path, sid: str, role: str, *args: str, input: str = "",
              env: Mapping[str, str] | None = None, cwd: Path | None = None,
              wrap: Sequence[str] = ()) -> Run:
    """`a2a ARGS` through session `sid`'s broker socket, from a process of its pane."""
    return AgentProcess(repo, sid, role, *args, env=env, cwd=cwd, wrap=wrap).go(input)


def broker_pid(repo) -> int:
    """The broker process: the orchestrator's child running `-m a2a_tui.broker`."""
    def find() -> int | None:
        parent = lock_holder(Repo(repo))
        for pid in os.listdir("/proc"):
            try:
                cmd = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
                ppid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if b"a2a_tui.broker" in cmd and ppid == parent:
                return int(pid)
        return None
    return wait_until(find, timeout=20, what="the broker process")


def children_of(pid: int) -> list[int]:
    """The live (not yet reaped-to-be) children of `pid`."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
        except (OSError, ValueError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[1]) == pid:
            found.append(int(entry))
    return found


def settled_children(pid: int, least: int, timeout: float = 30) -> int:
    """Wait until `pid` has at least `least` children and their number has not changed for a
    second (a flood of requests all taken that can be); that number."""
    seen = [-1, time.monotonic()]

    def steady() -> bool:
        n = len(children_of(pid))
        if n != seen[0]:
            seen[:] = [n, time.monotonic()]
            return False
        return n >= least and time.monotonic() - seen[1] >= 1.0

    wait_until(steady, timeout=timeout, interval=0.05, what=f"{least}+ children of {pid}")
    return seen[0]
