"""What a turn tells the outside world: the interface both protocols implement.

The turn engine calls these at the points where Claude Code fires hooks; the Claude protocol
runs its command hooks there, the Codex protocol only speaks at turn completion (notify).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from a2a_tui.demo_agent.hooks import Outcome


@dataclass
class ToolCall:
    tool_use_id: str
    command: str

    @property
    def tool_input(self) -> dict:
        return {"command": self.command, "description": f"Run: {self.command[:60]}"}


@dataclass
class ToolResult:
    stdout: str
    stderr: str
    code: int | None          # None: did not exit by itself (killed, timed out, not started)
    interrupted: bool = False
    timed_out: bool = False
    error: str | None = None  # could not start

    @property
    def ok(self) -> bool:
        return self.code == 0


@dataclass
class Turn:
    """One submitted prompt and what its turn did."""

    prompt: str
    prompt_id: str
    turn_id: str
    delay: float
    fail: bool
    ask: bool
    commands: list[str] = field(default_factory=list)
    ran: int = 0
    declined: int = 0
    blocked: int = 0
    failed: int = 0
    # The task's delivery, run after the commands when none failed (turn.py Task).
    deliver: str | None = None
    in_task: bool = False     # the agent holds a task (a worker's assignment)


@dataclass
class Task:
    """What the agent remembers of its task across turns: the command that delivers it."""

    delivery: str | None = None

    def deliver(self, commands: list[str]) -> str | None:
        """After `commands`, the delivery with the commit's SHA put in (a model does as its task
        says: commit, then deliver); None when there is nothing to deliver or they deliver."""
        if not self.delivery or not commands or any("a2a submit" in c for c in commands):
            return None
        return self.delivery.replace("<SHA>", "$(git rev-parse HEAD)")


class Signals:
    """No-op defaults; a protocol overrides what it reports."""

    def session_start(self) -> Outcome:
        return Outcome()

    def prompt_submit(self, turn: Turn) -> Outcome:
        return Outcome()

    def pre_tool(self, turn: Turn, call: ToolCall) -> Outcome:
        return Outcome()

    def permission_request(self, turn: Turn, call: ToolCall) -> Outcome:
        return Outcome()

    def permission_prompt(self, turn: Turn, call: ToolCall) -> Outcome:
        return Outcome()

    def needs_input(self, turn: Turn, call: ToolCall) -> Outcome:
        return Outcome()

    def post_tool(self, turn: Turn, call: ToolCall, result: ToolResult) -> Outcome:
        return Outcome()

    def turn_done(self, turn: Turn, reply: str, stop_hook_active: bool) -> Outcome:
        return Outcome()

    def turn_failed(self, turn: Turn, error: str, details: str, message: str) -> Outcome:
        return Outcome()

    def idle_prompt(self, prompt_id: str | None) -> Outcome:
        return Outcome()

    def session_end(self, reason: str, prompt_id: str | None) -> Outcome:
        return Outcome()

    def close(self, timeout: float) -> None:
        """Give background work (async hooks, notify children) a moment at exit."""
