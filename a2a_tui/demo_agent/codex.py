"""Codex mode: the legacy `notify` program, as Codex spawns it (PROTOCOLS.md B, REAL_CLIS.md).

- At each completed turn, spawn `notify` argv + ONE extra argument, the JSON
  `{"type":"agent-turn-complete","thread-id","turn-id","cwd","client":"codex-tui",
  "input-messages":[...],"last-assistant-message":...}` [CX-NOTIFY-SRC legacy_notify.rs].
- Fire-and-forget: stdin/stdout/stderr null, spawn errors ignored, never waited on (a reaper
  thread collects the exit status so no zombie is left).
- The environment loses a few "process-only" variables. Which ones Codex strips is UNVERIFIED;
  the demo strips TMUX and TMUX_PANE so that no consumer can come to rely on them (PROTOCOLS B:
  put the pane id in argv) plus CODEX_THREAD_ID, which Codex sets only for tool commands.
- The first turn of a thread also produces a notify from a hidden title-generation turn with a
  different thread-id, whose first input message starts "Generate a concise, single-line task
  title" (REAL_CLIS.md; measured in tests/real_cli/FINDINGS.md: only the first turn, and it
  arrives before the turn's own notify). The demo sends it just before, so a consumer that does
  not filter by thread-id releases the pane early, as it would with the real Codex.
- `input-messages` lists every user message of the thread so far, the turn's own last
  (FINDINGS.md), not only the turn's prompt.
- An interrupted (Esc) or failed turn notifies nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import uuid

from a2a_tui.demo_agent.hooks import Outcome
from a2a_tui.demo_agent.options import Options
from a2a_tui.demo_agent.signals import Signals, Turn

STRIPPED_ENV = ("TMUX", "TMUX_PANE", "CODEX_THREAD_ID")
TITLE_PROMPT = ("Generate a concise, single-line task title of at most 36 characters for the "
                "following task. Start with an imperative verb. User prompt: ")


def notify_payload(thread_id: str, turn_id: str, cwd: str, inputs: list[str],
                   last: str | None) -> str:
    """The one JSON argument of an agent-turn-complete notify (key order as Codex)."""
    return json.dumps({"type": "agent-turn-complete", "thread-id": thread_id,
                       "turn-id": turn_id, "cwd": cwd, "client": "codex-tui",
                       "input-messages": inputs, "last-assistant-message": last},
                      ensure_ascii=False)


def title_for(prompt: str) -> str:
    """A deterministic stand-in for the model's task title."""
    words = " ".join(prompt.split())
    return ("Handle " + words)[:36] if words else "Handle empty prompt"


class CodexSignals(Signals):
    def __init__(self, opts: Options):
        self.opts = opts
        self.thread_id = opts.session_id
        self.notices: list[str] = []
        self.inputs: list[str] = []   # every user message of the thread, as Codex reports them

    def turn_done(self, turn: Turn, reply: str, stop_hook_active: bool) -> Outcome:
        out = Outcome()
        if not self.opts.notify:
            return out
        payloads = []
        if not self.inputs:  # only the thread's first turn gets a title
            payloads.append(notify_payload(str(uuid.uuid4()), str(uuid.uuid4()), self.opts.cwd,
                                           [TITLE_PROMPT + turn.prompt],
                                           json.dumps({"title": title_for(turn.prompt)})))
        self.inputs.append(turn.prompt)
        payloads.append(notify_payload(self.thread_id, turn.turn_id, self.opts.cwd,
                                       list(self.inputs), reply))
        for payload in payloads:
            err = spawn_notify(self.opts.notify, payload, self.opts.cwd)
            if err:
                out.notices.append(err)
        return out


def spawn_notify(argv: list[str], payload: str, cwd: str) -> str | None:
    """Start the notify program and do not wait; return an error text if it could not start."""
    env = {k: v for k, v in os.environ.items() if k not in STRIPPED_ENV}
    try:
        proc = subprocess.Popen([*argv, payload], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                cwd=cwd, env=env, close_fds=True)
    except OSError as err:
        return f"notify failed to start: {err.strerror or err}"
    threading.Thread(target=proc.wait, daemon=True, name="notify-reaper").start()
    return None
