"""Agent sessions as real processes in real tmux panes of a private tmux server.

`panes.open(session_id, role)` starts a shell in a new pane and records it as a managed session
(pane pid, its start time, pane tty), as `a2a spawn` records a launched CLI; `pane.run(...)`
types a command into that pane with `tmux send-keys`, so the `a2a` process is a descendant of
the pane process, exactly like a command an agent runs.
"""

from __future__ import annotations

import shlex
import uuid
from dataclasses import dataclass
from pathlib import Path

from tests.support import A2A, Run, register_session, tmux, wait_until

FORGED = {
    # Everything an agent might try to pass itself off as the user or as another role.
    "A2A_SESSION": "", "A2A_ROLE": "ideation", "A2A_CALLER": "user", "A2A_USER": "1",
    "A2A_ACTOR": "user", "TMUX": "", "TMUX_PANE": "", "USER": "root", "LOGNAME": "root",
}


@dataclass
class Pane:
    repo: Path
    socket: str
    pane_id: str
    session: str
    role: str
    pid: int
    tty: str
    scratch: Path

    def run(self, *args: str, env: dict[str, str] | None = None, prefix: str = "",
            detach: bool = False, timeout: float = 30) -> Run:
        """Type `[ENV=..] [prefix] python -m a2a_tui ARGS` into the pane; wait for its exit code.

        `detach` runs it double-forked, `( (cmd) & )`: its parent exits at once and it is
        re-parented outside the pane's process tree, keeping only the pane's terminal.
        """
        tag = uuid.uuid4().hex[:8]
        out, err, rc = (self.scratch / f"{tag}.{x}" for x in ("out", "err", "rc"))
        assigns = " ".join(f"{k}={shlex.quote(v)}" for k, v in (env or {}).items())
        cmd = " ".join(shlex.quote(a) for a in (*A2A, *args))
        body = f"{prefix}{cmd} >{out} 2>{err}; echo $? >{rc}.tmp && mv {rc}.tmp {rc}"
        if detach:
            # The inner job waits for its parent subshell to be gone before running a2a.
            body = f"( ( while kill -0 $$ 2>/dev/null; do :; done; {body} ) & ) ; exit 0"
        script = self.scratch / f"{tag}.sh"
        script.write_text(f"cd {shlex.quote(str(self.repo))}\n"
                          f"{'export ' + assigns if assigns else ''}\n{body}\n")
        tmux(self.socket, "send-keys", "-t", self.pane_id, "-l", f"sh {script}")
        tmux(self.socket, "send-keys", "-t", self.pane_id, "Enter")
        wait_until(rc.exists, timeout=timeout,
                   what=f"`a2a {' '.join(args)}` in pane {self.pane_id}")
        return Run(int(rc.read_text()), out.read_text(), err.read_text())


class Panes:
    def __init__(self, repo: Path, socket: str, scratch: Path):
        self.repo, self.socket, self.scratch = repo, socket, scratch
        self.started = False

    def open(self, session: str, role: str, *, register: bool = True) -> Pane:
        """A shell in a new pane; registered as managed session `session` of `role`."""
        fmt = "#{pane_id} #{pane_pid} #{pane_tty}"
        if not self.started:
            line = tmux(self.socket, "new-session", "-d", "-s", "t", "-x", "160", "-y", "40",
                        "-P", "-F", fmt, "sh")
            self.started = True
        else:
            line = tmux(self.socket, "new-window", "-t", "t:", "-P", "-F", fmt, "sh")
        pane_id, pid, tty = line.split()
        pane = Pane(self.repo, self.socket, pane_id, session, role, int(pid), tty, self.scratch)
        if register:
            register_session(self.repo, session, role, pane_id=pane_id, pid=int(pid), tty=tty,
                             socket=self.socket)
        return pane
