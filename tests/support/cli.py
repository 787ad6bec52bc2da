"""Running the real `a2a` CLI in a subprocess, as a user, or an agent's process, would."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import termios
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.gitrepo import write_card
from tests.support.sessions import register_session

A2A = (sys.executable, "-m", "a2a_tui")


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)


def a2a(*args: str, cwd: Path, env: Mapping[str, str] | None = None, input: str | None = None,
        timeout: float = 120, base: Mapping[str, str] | None = None,
        runner: Callable[..., subprocess.CompletedProcess] = subprocess.run) -> Run:
    """Run the real `a2a` CLI in a subprocess, as a user would: at a terminal of its own (a2a
    takes only a caller with a terminal for the user), in `base` (this process's environment
    unless given) plus `env`; `runner` as in `tmux()`. stdin (`input`), stdout and stderr are
    pipes, captured apart, as before."""
    full = {**(os.environ if base is None else base), **(env or {})}
    proc = at_terminal([*A2A, *args], runner=runner, cwd=str(cwd), env=full,
                       capture_output=True, text=True, input=input, timeout=timeout)
    return Run(proc.returncode, proc.stdout, proc.stderr)


def at_terminal(argv: Sequence[str], *, runner: Callable[..., Any] = subprocess.run,
                **kw: Any) -> Any:
    """`runner(argv, **kw)` (subprocess.run or Popen, or one with their signature) with a new
    pseudo-terminal as the child's controlling terminal, as a shell in a terminal window gives
    its commands: the child leads a new session and takes the pty's slave end (TIOCSCTTY).
    Its stdin, stdout and stderr stay whatever `kw` makes them. The master end is held open
    while the child runs (closing it would hang the terminal up), then closed; with Popen the
    caller closes it through the returned process's `close_terminal()`."""
    master, slave = os.openpty()

    def take_terminal() -> None:  # in the child, after setsid (start_new_session)
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    try:
        proc = runner(list(argv), start_new_session=True, preexec_fn=take_terminal, **kw)
    except BaseException:
        os.close(master)
        raise
    finally:
        os.close(slave)
    if isinstance(proc, subprocess.Popen):
        proc.close_terminal = lambda: os.close(master)  # type: ignore[attr-defined]
    else:
        os.close(master)
    return proc


def a2a_as(repo: Path, session_id: str, role: str, *args: str, cwd: Path | None = None,
           env: Mapping[str, str] | None = None, base: Mapping[str, str] | None = None) -> Run:
    """Run `a2a ARGS` in a process registered as session `session_id` (its own process tree),
    as `a2a spawn` registers a pane's process."""
    full = {**(os.environ if base is None else base), **(env or {})}
    proc = subprocess.Popen(["sh", "-c", 'read go; exec "$@"', "sh", *A2A, *args],
                            cwd=str(cwd or repo), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=full)
    register_session(repo, session_id, role, pid=proc.pid)
    out, err = proc.communicate("go\n", timeout=120)
    return Run(proc.returncode, out, err)


def add_ready_card(repo: Path, card_id: str = "T-1", extra: str = "") -> str:
    """A card written beside the repository, added and made ready through the CLI; its id."""
    card = write_card(repo, card_id=card_id, extra=extra)
    assert a2a("card", "add", str(card), cwd=repo).code == 0
    assert a2a("card", "ready", card_id, cwd=repo).code == 0
    return card_id
