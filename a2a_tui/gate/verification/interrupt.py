"""Interrupting a verify: SIGINT, SIGTERM, SIGHUP, or its output closed (`a2a verify X | head`).

The signal handlers raise `VerifyInterrupted`; a running check notices a closed output through
`output_closed`, polled while it waits. Either way the run ends every process of its check before
the exception leaves it (isolated.py), and verify records `verify_interrupted` (never a verdict).
"""

from __future__ import annotations

import os
import select
import signal
import stat
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from a2a_tui.errors import A2AError

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# Asked while a check runs: (why, signal number) when verify must stop, else None.
Cancel = Callable[[], "tuple[str, int] | None"]


class VerifyInterrupted(A2AError):
    """Verify was told to stop. The exit code is the shell's for that signal (130 for Ctrl-C)."""

    def __init__(self, why: str, signum: int):
        super().__init__("verify_interrupted",
                         f"verify interrupted ({why}): the check's processes were ended and"
                         " nothing was decided; an earlier verdict stands",
                         exit_code=128 + signum)
        self.why = why


@contextmanager
def interruptible() -> Iterator[None]:
    """While inside, SIGINT, SIGTERM and SIGHUP raise VerifyInterrupted (main thread only: the
    workbench runs verify in a worker thread and keeps its own handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame: object) -> None:
        raise VerifyInterrupted(signal.Signals(signum).name, signum)

    old = {s: signal.signal(s, stop) for s in SIGNALS}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


@contextmanager
def deferred() -> Iterator[None]:
    """Hold the stop signals while clean-up runs; one that came meanwhile is raised after."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def output_closed() -> tuple[str, int] | None:
    """("output closed", SIGPIPE) when stdout or stderr is a pipe or socket whose reader is
    gone; files and terminals never close under us."""
    for fd in (1, 2):
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            continue
        if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            continue
        poller = select.poll()
        poller.register(fd, 0)  # no events asked: only errors and hang-ups are reported
        if any(ev & (select.POLLERR | select.POLLHUP) for _, ev in poller.poll(0)):
            return "output closed", signal.SIGPIPE
    return None
