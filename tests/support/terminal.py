"""The user's terminal, for tests that attach to a2a's tmux session as a person would: a pane of
another private tmux server (its own socket), 80x24 unless told, outside a2a's server."""

from __future__ import annotations

import uuid
from collections.abc import Mapping

from tests.support.tmux import tmux


class Terminal:
    """`open(command)` runs a shell command in the terminal (once); `screen()` is what it shows;
    `keys(...)` presses keys, `type(text)` types a line and Enter. `close()` kills its server."""

    def __init__(self, env: Mapping[str, str] | None = None, size: tuple[int, int] = (80, 24)):
        self.sock = f"a2a-term-{uuid.uuid4().hex[:8]}"
        self.env = env
        self.size = size
        self.target = "term:0"

    def open(self, command: str) -> str:
        tmux(self.sock, "new-session", "-d", "-s", "term", "-x", str(self.size[0]), "-y",
             str(self.size[1]), "sh", "-c", command, env=self.env)
        return self.target

    def screen(self) -> str:
        """What it shows, a line wrapped by the terminal's width joined again (-J)."""
        return tmux(self.sock, "capture-pane", "-p", "-J", "-t", self.target, env=self.env)

    def keys(self, *keys: str) -> None:
        tmux(self.sock, "send-keys", "-t", self.target, *keys, env=self.env)

    def type(self, line: str) -> None:
        tmux(self.sock, "send-keys", "-t", self.target, "-l", "--", line, env=self.env)
        self.keys("Enter")

    def close(self) -> None:
        tmux(self.sock, "kill-server", env=self.env, check=False)


def attach_command(sock: str, session: str) -> str:
    """What the user types to attach to a2a's session from outside tmux; once tmux gives the
    terminal back, a marker and a shell to type the next command into."""
    return f"TMUX= tmux -L {sock} attach -t ={session}; echo DETACHED; exec sh"
