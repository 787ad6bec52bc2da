"""Run one check command as a child subreaper, then end every process it left behind (Linux).

`python -I -S reaper.py PARENT_PID STATUS_FILE [--join FILE]... [--rlimit NAME=N]... -- ARGV...`
(run by path: it imports nothing of a2a, so it starts in milliseconds). As a child subreaper
(`prctl(PR_SET_CHILD_SUBREAPER)`), every process the command starts stays below this one, even
one that calls `setsid()` or double-forks: orphans are reparented here, not to init. When the
command exits — or when this process is told to stop (SIGTERM, SIGINT, SIGHUP: the verify's
timeout or interruption) — every descendant still alive is killed and reaped, and the outcome
is written to STATUS_FILE as JSON. The parent's death (even by SIGKILL) sends this process
SIGTERM (`PR_SET_PDEATHSIG`).

The command's process joins the run's limits before it starts (confine/limits.py): it writes
its pid to each `--join` file (a cgroup's `cgroup.procs`) and applies each `--rlimit` (AS,
NPROC); a group it cannot join ends it with 126, so nothing runs outside its limits.

Why a process of its own and not the verify process: verify also runs inside the workbench,
whose process must not adopt the orphans of everything else it starts (tmux's server forks
itself away from the app that starts it).
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class Stop(Exception):
    def __init__(self, signum: int):
        self.signum = signum


def _stop(signum: int, _frame: object) -> None:
    raise Stop(signum)


def descendants(root: int) -> list[int]:
    """Live processes below `root`, from /proc (zombies are already dead)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != b"Z":
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for pid in children.get(todo.pop(), []):
            found.append(pid)
            todo.append(pid)
    return found


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def end_all() -> int:
    """Kill every descendant until none is left (a fork racing the kill is caught next round);
    returns how many distinct processes were ended."""
    ended: set[int] = set()
    me = os.getpid()
    for _ in range(200):
        pids = descendants(me)
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                ended.add(pid)
            except ProcessLookupError:
                pass
        _reap()
        time.sleep(0.005)
    _reap()
    return len(ended)


RLIMITS = {"AS": "RLIMIT_AS", "NPROC": "RLIMIT_NPROC"}


def _options(words: list[str]) -> tuple[list[str], list[str], list[str]] | None:
    """(`--join` files, `--rlimit` words, the command) or None when the words are wrong."""
    join: list[str] = []
    limits: list[str] = []
    while len(words) >= 2 and words[0] in ("--join", "--rlimit"):
        (join if words[0] == "--join" else limits).append(words[1])
        words = words[2:]
    if not words or words[0] != "--" or len(words) < 2:
        return None
    return join, limits, words[1:]


def _enter(join: list[str], limits: list[str]) -> None:
    """Join the run's groups and apply its rlimits (in the command's process, before exec)."""
    import resource  # only a run with limits needs it: the reaper starts in milliseconds

    me = str(os.getpid())
    for procs in join:
        with open(procs, "w") as f:
            f.write(me)
    for word in limits:
        name, value = word.split("=", 1)
        resource.setrlimit(getattr(resource, RLIMITS[name]), (int(value), int(value)))


def main(argv: list[str]) -> int:
    parent, status_path, *rest = argv
    parsed = _options(rest)
    if parsed is None:
        print("usage: reaper.py PARENT_PID STATUS_FILE [--join FILE]... [--rlimit NAME=N]..."
              " -- ARGV...", file=sys.stderr)
        return 125
    join, limits, command = parsed
    for signum in STOP_SIGNALS:
        signal.signal(signum, _stop)
    status: dict[str, object] = {"exit": None, "signal": None, "stopped_by": None}
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            print(f"a2a reaper: prctl: {os.strerror(ctypes.get_errno())}", file=sys.stderr)
            return 125
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != int(parent):  # the verify died before we could watch it
            raise Stop(signal.SIGTERM)
        # A stop signal between fork and exec must not run this process's clean-up in the child.
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        pid = os.fork()
        if pid == 0:
            for signum in STOP_SIGNALS:
                signal.signal(signum, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
            try:
                _enter(join, limits)
            except (OSError, ValueError) as exc:
                print(f"a2a reaper: cannot enter the run's limits: {exc}", file=sys.stderr)
                os._exit(126)
            try:
                os.execvp(command[0], command)
            except OSError as exc:
                print(f"a2a reaper: {command[0]}: {exc.strerror}", file=sys.stderr)
            os._exit(127)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        _, wstatus = os.waitpid(pid, 0)
        if os.WIFSIGNALED(wstatus):
            status["signal"] = os.WTERMSIG(wstatus)
        else:
            status["exit"] = os.WEXITSTATUS(wstatus)
    except Stop as stop:
        status["stopped_by"] = stop.signum
    for signum in STOP_SIGNALS:  # nothing interrupts the clean-up below
        signal.signal(signum, signal.SIG_IGN)
    status["ended"] = end_all()
    with open(status_path, "w") as f:
        json.dump(status, f)
    if status["exit"] is not None:
        return int(status["exit"])  # type: ignore[call-overload]
    return 128 + int(status["signal"] or status["stopped_by"] or 0)  # type: ignore[call-overload]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
