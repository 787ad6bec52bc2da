"""Harness: the demo agent in a real pane of a private tmux server, and its hook signals.

Every configured hook is one small sh script that appends `TMUX_PANE<TAB>tty|notty<TAB>stdin`
to a log, so tests assert on exactly what a hook consumer would receive.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

from tests.support import tmux, wait_until

ALL_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
              "PostToolUseFailure", "PermissionRequest", "Notification", "Stop", "StopFailure",
              "SessionEnd"]

RECORD_HOOK = """#!/bin/sh
# Record one hook call: the pane, whether a terminal can be opened, then the stdin JSON.
if ( : < /dev/tty ) 2>/dev/null; then t=tty; else t=notty; fi
payload=$(cat)
printf '%s\\t%s\\t%s\\n' "${TMUX_PANE:-}" "$t" "$payload" >> "$1"
"""


class AgentPane:
    """A demo agent running in its own tmux pane, plus the log its hooks write."""

    def __init__(self, sock: str, workdir: Path, log: Path, pane: str, pid: int,
                 session_id: str):
        self.sock = sock
        self.workdir = workdir
        self.log = log
        self.pane = pane
        self.pid = pid
        self.session_id = session_id

    # -- signals --
    def records(self) -> list[tuple[str, str, dict]]:
        if not self.log.exists():
            return []
        out = []
        for line in self.log.read_text().splitlines():
            pane, tty, payload = line.split("\t", 2)
            out.append((pane, tty, json.loads(payload)))
        return out

    def events(self, name: str | None = None) -> list[dict]:
        return [p for _, _, p in self.records() if name is None or p["hook_event_name"] == name]

    def names(self) -> list[str]:
        return [p["hook_event_name"] for p in self.events()]

    def wait_event(self, name: str, count: int = 1, timeout: float = 10.0, **match) -> dict:
        """Wait until `count` events named `name` (with the given field values) were seen."""
        def found():
            evs = [e for e in self.events(name)
                   if all(e.get(k) == v for k, v in match.items())]
            return evs[count - 1] if len(evs) >= count else None
        return wait_until(found, timeout=timeout, what=f"{count}x {name} {match or ''}")

    # -- input --
    def keys(self, *keys: str) -> None:
        tmux(self.sock, "send-keys", "-t", self.pane, *keys)

    def type(self, text: str) -> None:
        tmux(self.sock, "send-keys", "-t", self.pane, "-l", "--", text)

    def paste(self, text: str) -> None:
        name = f"b{uuid.uuid4().hex[:8]}"
        tmux(self.sock, "load-buffer", "-b", name, "-", input=text)
        tmux(self.sock, "paste-buffer", "-p", "-d", "-b", name, "-t", self.pane)

    def submit(self, text: str) -> None:
        """Deliver like the orchestrator: one bracketed paste, then a separate Enter."""
        self.paste(text)
        self.keys("Enter")

    # -- display (display checks only; protocol assertions go through hooks) --
    def screen(self) -> str:
        return tmux(self.sock, "capture-pane", "-p", "-J", "-t", self.pane)

    def wait_screen(self, text: str, timeout: float = 10.0) -> str:
        return wait_until(lambda: text in self.screen() and self.screen(), timeout=timeout,
                          what=f"{text!r} on screen")

    def alive(self) -> bool:
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        stat = Path(f"/proc/{self.pid}/stat")
        return stat.exists() and ") Z " not in stat.read_text()


