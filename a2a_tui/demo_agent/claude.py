"""The Claude Code protocol: hook events with the stdin JSON Claude Code sends (PROTOCOLS.md A).

Every payload has session_id, transcript_path, cwd, permission_mode, hook_event_name and,
inside a turn, the turn's prompt_id (sent by Claude Code from 2.1.196; shared by every event
of a turn). Event fields follow [CC-HOOKS §Hook events] and REAL_CLIS.md:
- SessionStart `source: "startup"` (+ `model` when --model is given)
- UserPromptSubmit `prompt`
- PreToolUse / PostToolUse `tool_name`, `tool_input`, `tool_use_id` (+ `tool_response`);
  a command exiting non-zero gives PostToolUseFailure `error`, `is_interrupt` instead
- PermissionRequest `tool_name`, `tool_input`, `permission_suggestions` (no tool_use_id)
- Notification `message`, `notification_type` (`permission_prompt`, `idle_prompt`, and
  `agent_needs_input` from the auto-mode dialog with --auto-check-unavailable)
The JSON is written as Claude Code writes it: compact, in its key order, ending in a newline.
- Stop `stop_hook_active`, `last_assistant_message`, `background_tasks`, `session_crons`
- StopFailure `error`, `error_details`, `last_assistant_message`
- SessionEnd `reason`
Nothing fires on an interrupt (Esc): the turn engine simply stops calling these.
"""

from __future__ import annotations

from a2a_tui.demo_agent.hooks import HookRunner, Outcome
from a2a_tui.demo_agent.options import Options
from a2a_tui.demo_agent.signals import Signals, ToolCall, ToolResult, Turn

TOOL = "Bash"
NO_PERMISSION_MODE = ("SessionStart", "Notification")
NEEDS_INPUT = "Auto mode can't check actions in this session and needs your choice"


class ClaudeSignals(Signals):
    def __init__(self, runner: HookRunner, opts: Options, transcript_path: str):
        self.runner = runner
        self.opts = opts
        self.transcript_path = transcript_path

    def _fire(self, event: str, prompt_id: str | None, **fields) -> Outcome:
        # Claude Code's key order (measured): ids, then permission_mode (not on SessionStart or
        # Notification), then the event name and its own fields.
        payload: dict = {"session_id": self.opts.session_id,
                         "transcript_path": self.transcript_path,
                         "cwd": self.opts.cwd}
        if prompt_id:
            payload["prompt_id"] = prompt_id
        if event not in NO_PERMISSION_MODE:
            payload["permission_mode"] = self.opts.permission_mode
        payload["hook_event_name"] = event
        payload.update(fields)
        return self.runner.run(event, payload)

    def session_start(self) -> Outcome:
        extra = {"model": self.opts.model} if self.opts.model else {}
        return self._fire("SessionStart", None, source="startup", **extra)

    def prompt_submit(self, turn: Turn) -> Outcome:
        return self._fire("UserPromptSubmit", turn.prompt_id, prompt=turn.prompt)

    def pre_tool(self, turn: Turn, call: ToolCall) -> Outcome:
        return self._fire("PreToolUse", turn.prompt_id, tool_name=TOOL,
                          tool_input=call.tool_input, tool_use_id=call.tool_use_id)

    def permission_request(self, turn: Turn, call: ToolCall) -> Outcome:
        suggestion = {"type": "addRules", "behavior": "allow", "destination": "localSettings",
                      "rules": [{"toolName": TOOL, "ruleContent": call.command}]}
        return self._fire("PermissionRequest", turn.prompt_id, tool_name=TOOL,
                          tool_input=call.tool_input, permission_suggestions=[suggestion])

    def permission_prompt(self, turn: Turn, call: ToolCall) -> Outcome:
        return self._fire("Notification", turn.prompt_id,
                          message="Claude needs your permission",
                          notification_type="permission_prompt")

    def needs_input(self, turn: Turn, call: ToolCall) -> Outcome:
        return self._fire("Notification", turn.prompt_id, message=NEEDS_INPUT,
                          notification_type="agent_needs_input")

    def post_tool(self, turn: Turn, call: ToolCall, result: ToolResult) -> Outcome:
        if result.ok:
            response = {"stdout": result.stdout, "stderr": result.stderr, "interrupted": False,
                        "isImage": False, "noOutputExpected": False}
            return self._fire("PostToolUse", turn.prompt_id, tool_name=TOOL,
                              tool_input=call.tool_input, tool_response=response,
                              tool_use_id=call.tool_use_id)
        return self._fire("PostToolUseFailure", turn.prompt_id, tool_name=TOOL,
                          tool_input=call.tool_input, tool_use_id=call.tool_use_id,
                          error=failure_text(result), is_interrupt=False)

    def turn_done(self, turn: Turn, reply: str, stop_hook_active: bool) -> Outcome:
        return self._fire("Stop", turn.prompt_id, stop_hook_active=stop_hook_active,
                          last_assistant_message=reply, background_tasks=[], session_crons=[])

    def turn_failed(self, turn: Turn, error: str, details: str, message: str) -> Outcome:
        return self._fire("StopFailure", turn.prompt_id, error=error, error_details=details,
                          last_assistant_message=message)

    def idle_prompt(self, prompt_id: str | None) -> Outcome:
        return self._fire("Notification", prompt_id, message="Claude is waiting for your input",
                          notification_type="idle_prompt")

    def session_end(self, reason: str, prompt_id: str | None) -> Outcome:
        return self._fire("SessionEnd", prompt_id, reason=reason)

    def close(self, timeout: float) -> None:
        self.runner.wait_background(timeout)


def failure_text(result: ToolResult) -> str:
    """The Bash tool's error text for a failed command ("Exit code N" + output)."""
    if result.error:
        return result.error
    head = "Command timed out" if result.timed_out else f"Exit code {result.code}"
    body = "\n".join(x for x in (result.stdout.rstrip("\n"), result.stderr.rstrip("\n")) if x)
    return f"{head}\n{body}" if body else head
