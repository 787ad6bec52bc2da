"""One command of a check, run in isolation, and everything it started ended afterwards.

- Environment: only the gate's allow-listed variables (gate.toml `[env] allow`, exact names),
  then the card's `env`, then a HOME of its own (empty, removed afterwards) with TMPDIR inside
  it, PYTEST_ADDOPTS and NODE_OPTIONS asking pytest and `node --test` for their test reports
  (reports/auto.py), kept beside the log, and what no card changes: PYTHONSAFEPATH=1 (Python
  never imports a module from the folder it starts in just because it is there: `python -m
  unittest` takes the standard library's) and GIT_CEILING_DIRECTORIES at the checkout's folder
  (a check's git finds the checkout's own `.git`, never one above it).
- Confinement (confine/checks.py): the command runs in the verify's sandbox, the checkout and
  the log's folder writable, HOME and /tmp private, no network unless the card asks, in its own
  namespaces and terminal session, and inside the run's limits (confine/limits.py), which its
  first process joins before anything of the candidate's starts. Unconfined only where the
  user allowed it; the log's header says which.
- stdin is /dev/null (a read sees end of file at once); stdout and stderr go to files, kept whole
  in the log beside the command, its cwd, exit status and duration.
- The timeout is the card's (or the gate's default).
- No process outlives the run. Where Linux facilities may be used (`host.linux()`), the command
  runs under a child subreaper (reaper.py) that kills every descendant when the command ends or
  is stopped, `setsid()` or double fork or not. Elsewhere (macOS) the portable equivalent: the
  command gets its own session and a token in its environment; afterwards its process group is
  killed and so is every process of this user still carrying the token. The gap there: a process
  that both leaves the session and clears its environment is not found.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import psutil

from a2a_tui import host
from a2a_tui.confine import limits
from a2a_tui.confine.checks import Room, Sandbox
from a2a_tui.gate.verification import reports
from a2a_tui.gate.verification.excerpt import Excerpt, first_error
from a2a_tui.gate.verification.interrupt import Cancel, VerifyInterrupted, deferred

REAPER = Path(__file__).with_name("reaper.py")
TOKEN = "A2A_CHECK_RUN"
TAIL_BYTES = 4000
HEAD_BYTES = 1_000_000  # how much of each stream the first error is looked for in
POLL_S = 0.1
GRACE_S = 5.0


@dataclass(frozen=True)
class RunResult:
    code: int | None               # None: timed out or ended by a signal
    duration_s: float
    timed_out: bool
    timeout_s: int
    stdout_tail: str
    stderr_tail: str
    log: Path
    ended: int                     # processes left behind by the command that were ended
    report: reports.TestReport | None  # the tests it ran (reports/), when it says
    excerpt: Excerpt
    notes: tuple[str, ...] = ()    # what the reports' collection found wrong (reports/auto.py)

    @property
    def passed(self) -> bool:
        return self.code == 0 and not self.timed_out


def run(command: str, cwd: Path, *, timeout_s: int, log: Path, env: dict[str, str],
        cancel: Cancel | None = None, sandbox: Sandbox | None = None) -> RunResult:
    """Run `command` with `/bin/sh -c` in `cwd`; see the module docstring for the isolation.
    `sandbox` None: unconfined and unlimited (a2a's own commands only, never a candidate's)."""
    log.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="a2a-check-"))
    group = limits.make(sandbox.limits, "check") if sandbox is not None else None
    try:
        return _run(command, cwd, timeout_s, log, env, cancel, scratch, sandbox, group)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        if group is not None:
            group.remove()


def _run(command: str, cwd: Path, timeout_s: int, log: Path, base_env: dict[str, str],
         cancel: Cancel | None, scratch: Path, sandbox: Sandbox | None,
         group: limits.Group | None) -> RunResult:
    # The test reports are evidence: they stay beside the log.
    home, status = scratch / "home", scratch / "status.json"
    (home / "tmp").mkdir(parents=True)
    env = dict(base_env, HOME=str(home), TMPDIR=str(home / "tmp"), PYTHONSAFEPATH="1",
               GIT_CEILING_DIRECTORIES=str(cwd.parent))
    env.update(reports.env_for(base_env, log, command))
    linux = host.linux()
    box, box_env = sandbox.prefix(Room(cwd, (log.parent,), home), env.get("PATH", os.defpath)
                                  ) if sandbox is not None else ([], {})
    env.update(box_env)
    argv = [*box, "/bin/sh", "-c", command]
    if linux:
        joins = [w for f in group.join_files() for w in ("--join", f)] if group else []
        caps = [w for r in group.rlimits() for w in ("--rlimit", r)] if group else []
        argv = [sys.executable, "-I", "-S", str(REAPER), str(os.getpid()), str(status),
                *joins, *caps, "--", *argv]
    else:
        env[TOKEN] = uuid.uuid4().hex
    out_path, err_path = log.with_suffix(".stdout"), log.with_suffix(".stderr")
    t0 = time.monotonic()
    timed_out = False
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(argv, cwd=str(cwd), stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL, start_new_session=True, env=env)
        try:
            timed_out = _wait(proc, t0 + timeout_s, cancel)
        finally:
            with deferred():  # a second Ctrl-C must not cut the clean-up short
                ended = _end(proc, linux, env.get(TOKEN))
    dur = time.monotonic() - t0
    code, ended = _outcome(proc, status, timed_out, ended) if linux else (
        None if timed_out else proc.returncode, ended)
    excerpt = first_error(_head(out_path), _head(err_path))
    stdout, stderr = _tail(out_path), _tail(err_path)
    room = ("unconfined" if sandbox is None or not sandbox.confined else
            f"confined ({sandbox.engine}, network {'on' if sandbox.network else 'off'})")
    log.write_text(f"$ {command}\n# cwd {cwd}\n# exit {code} in {dur:.3f}s"
                   f"{' (timed out)' if timed_out else ''}"
                   f"{f'; {ended} process(es) left behind were ended' if ended else ''}\n"
                   f"# environment: {', '.join(sorted(env))}\n# {room}\n--- stdout\n"
                   + out_path.read_text(errors="replace") + "\n--- stderr\n"
                   + err_path.read_text(errors="replace"))
    out_path.unlink()
    err_path.unlink()
    return RunResult(code, dur, timed_out, timeout_s, stdout, stderr, log, ended,
                     reports.read_auto(log), excerpt)


def _wait(proc: subprocess.Popen, deadline: float, cancel: Cancel | None) -> bool:
    """Wait for the command; True when it ran out of time. A cancel raises VerifyInterrupted."""
    while True:
        try:
            proc.wait(timeout=max(0.0, min(POLL_S, deadline - time.monotonic())))
            return False
        except subprocess.TimeoutExpired:
            if time.monotonic() >= deadline:
                return True
            stop = cancel() if cancel else None
            if stop:
                raise VerifyInterrupted(*stop) from None


def _end(proc: subprocess.Popen, linux: bool, token: str | None) -> int:
    """End the run's processes; returns how many were found left behind (portable branch)."""
    if linux:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)  # the reaper ends its tree, then itself
            try:
                proc.wait(timeout=GRACE_S)
            except subprocess.TimeoutExpired:
                _killpg(proc.pid)
                proc.wait()
        _killpg(proc.pid)  # anything still in the group (there should be nothing)
        return 0
    _killpg(proc.pid)
    proc.wait()
    return _sweep(token)


def _outcome(proc: subprocess.Popen, status: Path, timed_out: bool, ended: int
             ) -> tuple[int | None, int]:
    """The command's exit code and the stragglers the reaper ended, from its status file."""
    try:
        st = json.loads(status.read_text())
    except (OSError, ValueError):
        return (None if timed_out else proc.returncode), ended
    return (None if timed_out or st.get("exit") is None else int(st["exit"])), int(
        st.get("ended") or 0)


def _killpg(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _sweep(token: str | None) -> int:
    """Kill every process of this user that still carries the run's token (portable branch)."""
    if not token:
        return 0
    me, ended = os.getpid(), 0
    for _ in range(20):
        found = []
        for p in psutil.process_iter(["pid"]):
            if p.pid == me:
                continue
            with contextlib.suppress(psutil.Error):
                if p.environ().get(TOKEN) == token and p.status() != psutil.STATUS_ZOMBIE:
                    found.append(p)
        if not found:
            break
        for p in found:
            with contextlib.suppress(psutil.Error):
                p.kill()
                ended += 1
        psutil.wait_procs(found, timeout=1)
    return ended


def _head(path: Path) -> str:
    with open(path, "rb") as f:
        return f.read(HEAD_BYTES).decode("utf-8", errors="replace")


def _tail(path: Path) -> str:
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        f.seek(max(0, size - TAIL_BYTES))
        data = f.read()
    text = data.decode("utf-8", errors="replace")
    return ("…" + text) if size > TAIL_BYTES else text
