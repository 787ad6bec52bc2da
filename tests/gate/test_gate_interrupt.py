"""An interrupted verify — SIGINT (Ctrl-C), SIGTERM, SIGHUP, or its output pipe closed — ends
every process its check started before it exits, exits non-zero, records `verify_interrupted`,
and never erases the verdict of an earlier completed run of the same SHA."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from tests.gate.verify_support import (
    PY,
    attempt_state,
    carrying,
    checks_may_write,
    claim,
    events,
    submit,
    submit_verify,
)
from tests.support import a2a, at_terminal, commit_in, wait_until

SCORES = ["--score", "boundary=3:ok", "--score", "taste=3:ok"]


def _hanging_check(tmp_path, world):
    """Passes at once; once `flag` exists it starts a child and a setsid() grandchild, each
    carrying `token` on its command line, writes their pids and hangs. The checks may write
    `tmp_path` (the user's `[confinement] write`)."""
    checks_may_write(world, tmp_path)
    flag, pids, token = tmp_path / "hang", tmp_path / "pids", f"a2a-hang-{tmp_path.name}"
    escape = (f"{PY} -c \"import os, sys, time; os.setsid(); print(os.getpid(), flush=True);"
              f" time.sleep(120)\" {token} >> {pids} &")
    check = (f"if [ -e {flag} ]; then {PY} -c 'import time; time.sleep(120)' {token} &"
             f" echo $! >> {pids}; {escape} sleep 120; fi")
    return check, flag, pids, token


def _start_verify(repo, attempt, **kw):
    """`a2a verify ATTEMPT` started as the user starts it: at a terminal of its own (a writing
    command refuses a caller it cannot identify)."""
    kw.setdefault("stderr", subprocess.PIPE)
    return at_terminal([sys.executable, "-m", "a2a_tui", "verify", attempt],
                       runner=subprocess.Popen, cwd=repo, stdin=subprocess.DEVNULL, text=True, **kw)


def _pids(pids):
    text = pids.read_text() if pids.exists() else ""
    return [int(p) for p in text.split()] if len(text.split()) >= 2 else None


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
                         ids=lambda s: s.name)
def test_a_signal_ends_every_check_process_and_keeps_the_earlier_verdict(repo, tmp_path,
                                                                         isolated_env, sig):
    check, flag, pids, token = _hanging_check(tmp_path, isolated_env)
    c, _ = claim(repo, check, card_id="T-1")
    assert submit_verify(repo, c).json["verdict"] == "passed"
    flag.touch()
    proc = _start_verify(repo, c["attempt"], stdout=subprocess.DEVNULL)
    started = wait_until(lambda: _pids(pids), timeout=30, what="the check's processes")
    proc.send_signal(sig)
    proc.wait(timeout=30)
    assert proc.returncode == 128 + sig, proc.stderr.read()
    assert started and not carrying(token), "a check's process outlived the interrupted verify"
    (ev,) = events(repo, "verify_interrupted")
    assert ev["payload"]["run"] == 2 and ev["payload"]["why"] == signal.Signals(sig).name
    assert attempt_state(repo, c["attempt"])["state"] == "verified"
    flag.unlink()
    r = a2a("integrate", c["attempt"], *SCORES, cwd=repo)
    assert r.code == 0, r.err


@pytest.mark.parametrize("merged", [False, True], ids=["stdout", "2>&1 | head -3"])
def test_a_closed_output_pipe_interrupts_verify(repo, tmp_path, isolated_env, merged):
    check, flag, pids, token = _hanging_check(tmp_path, isolated_env)
    c, _ = claim(repo, check)
    assert submit_verify(repo, c).json["verdict"] == "passed"
    flag.touch()
    proc = _start_verify(repo, c["attempt"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT if merged else subprocess.DEVNULL)
    if merged:  # head has had its three lines (the first progress lines) and goes
        assert len([proc.stdout.readline() for _ in range(3)]) == 3
    started = wait_until(lambda: _pids(pids), timeout=30, what="the check's processes")
    proc.stdout.close()
    proc.wait(timeout=30)
    assert proc.returncode == 128 + signal.SIGPIPE
    assert started and not carrying(token), "a check's process outlived the interrupted verify"
    (ev,) = events(repo, "verify_interrupted")
    assert ev["payload"]["why"] == "output closed"
    assert attempt_state(repo, c["attempt"])["state"] == "verified"


def test_an_interrupted_first_verify_leaves_the_attempt_submitted(repo, tmp_path, isolated_env):
    check, flag, pids, token = _hanging_check(tmp_path, isolated_env)
    flag.touch()
    c, _ = claim(repo, check)
    submit(repo, c, commit_in(repo / ".a2a/worktrees" / c["attempt"], {"src/app.py": "x\n"}))
    proc = _start_verify(repo, c["attempt"], stdout=subprocess.DEVNULL)
    wait_until(lambda: _pids(pids), timeout=30, what="the check's processes")
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)
    assert attempt_state(repo, c["attempt"])["state"] == "submitted"
