"""The one way tests and benchmarks talk to tmux: always a private server (`tmux -L`)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Mapping


def tmux(sock: str, *args: str, input: str | None = None, env: Mapping[str, str] | None = None,
         check: bool = True, runner: Callable[..., subprocess.CompletedProcess] = subprocess.run
         ) -> str:
    """`tmux -L SOCK ARGS` and its output. No configuration file is read (`-f /dev/null` when
    this call starts the server). Unless `check` is off, a failure fails the test with tmux's
    own message. `runner` is `subprocess.run` or one with its signature (a network namespace)."""
    res = runner(["tmux", "-L", sock, "-f", "/dev/null", *args], capture_output=True, text=True,
                 input=input, env=None if env is None else dict(env), timeout=10)
    if check:
        assert res.returncode == 0, f"tmux {' '.join(args)}: {res.stderr.strip()}"
    return res.stdout
