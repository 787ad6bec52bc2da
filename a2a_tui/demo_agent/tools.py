"""The "Bash tool": run one command with a shell (`sh -c`; Codex mode `bash -lc` or `bash -c`)
as a child of the agent.

The command runs in the agent's process tree (its parent is the agent), in the agent's cwd,
with no terminal (stdin null) and in its own process group so an interrupt can kill all of it.
Output is captured, bounded (a command that floods cannot exhaust memory), and returned.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable

from a2a_tui.demo_agent.signals import ToolResult

MAX_OUTPUT = 30_000  # characters kept per stream, like Claude Code's Bash tool
DRAIN_AFTER_EXIT = 1.0  # a background grandchild may hold the pipes open; do not wait on it


class BashRun:
    """One running command; `finished` is set when `result` is ready."""

    def __init__(self, command: str, cwd: str, env: dict[str, str], timeout: float,
                 wake: Callable[[], None], shell: tuple[str, ...] = ("sh", "-c")):
        self.command = command
        self.shell = shell
        self.cwd = cwd
        self.env = env
        self.timeout = timeout
        self.wake = wake
        self.finished = threading.Event()
        self.result: ToolResult | None = None
        self.proc: subprocess.Popen | None = None
        self._killed = False

    def start(self) -> BashRun:
        threading.Thread(target=self._run, daemon=True, name="bash-tool").start()
        return self

    def kill(self) -> None:
        """Interrupt: kill the command's whole process group."""
        self._killed = True
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass  # already exited

    def _run(self) -> None:
        try:
            self.proc = subprocess.Popen([*self.shell, self.command], stdin=subprocess.DEVNULL,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         cwd=self.cwd, env=self.env, start_new_session=True,
                                         close_fds=True)
        except OSError as err:
            self._done(ToolResult("", "", None, error=f"could not run: {err.strerror or err}"))
            return
        if self._killed:
            self.kill()
        out, err = bytearray(), bytearray()
        readers = [threading.Thread(target=_drain, args=(self.proc.stdout, out), daemon=True),
                   threading.Thread(target=_drain, args=(self.proc.stderr, err), daemon=True)]
        for t in readers:
            t.start()
        timed_out = False
        try:
            code: int | None = self.proc.wait(self.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            self.kill()
            self.proc.wait()
            code = None
        deadline = time.monotonic() + DRAIN_AFTER_EXIT
        for t in readers:
            t.join(max(deadline - time.monotonic(), 0))
        if self._killed and not timed_out:
            code = None
        self._done(ToolResult(_text(out), _text(err), code, interrupted=self._killed,
                              timed_out=timed_out))

    def _done(self, result: ToolResult) -> None:
        self.result = result
        self.finished.set()
        self.wake()


def _drain(stream, buf: bytearray) -> None:
    fd = stream.fileno()
    try:
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                return
            if len(buf) < MAX_OUTPUT * 4:  # UTF-8 is at most 4 bytes a character
                buf += chunk
    except OSError:
        return
    finally:
        stream.close()


def _text(b: bytearray) -> str:
    text = bytes(b).decode("utf-8", errors="replace")
    if len(text) > MAX_OUTPUT:
        text = text[:MAX_OUTPUT] + f"\n... [output truncated at {MAX_OUTPUT} characters]"
    return text
