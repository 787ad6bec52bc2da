"""The turn engine: what happens between Enter and the end of a turn, as a generator.

A turn yields what it waits for (`Sleep`, `AskPermission`, `RunTool`) and the agent's event
loop resumes it; an interrupt simply closes the generator, so nothing after the interrupt point
runs and no hook fires (Claude Code fires none on Esc: PROTOCOLS.md A, REAL_CLIS.md).

Sequence (Claude Code's): UserPromptSubmit -> "thinking" for the delay -> for each `!` line a
Bash tool call: PreToolUse -> [PermissionRequest, dialog, Notification permission_prompt after
a while; or, with --auto-check-unavailable, the auto-mode dialog and Notification
agent_needs_input, no PermissionRequest] -> run -> PostToolUse (PostToolUseFailure if it exits
non-zero) -> the reply -> Stop
(StopFailure `rate_limit` instead when told to fail). A Stop hook that blocks (exit 2) makes
the turn continue once more with `stop_hook_active: true`, as Claude Code does.

Prompt directives (for tests and demos): `#delay=S`, `#fail`, `#ask`, each a separate word.
A dispatched prompt may start with a marker such as `⟦主控 #3⟧`; it is skipped when looking
for `!` lines. `--replies FILE` adds scripted commands to a prompt that holds a given text.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from a2a_tui.demo_agent.hooks import Outcome
from a2a_tui.demo_agent.options import Options
from a2a_tui.demo_agent.screen import BOLD, DIM, RED, YELLOW, Screen
from a2a_tui.demo_agent.signals import Signals, Task, ToolCall, ToolResult, Turn
from a2a_tui.demo_agent.transcript import Transcript

DIRECTIVE = re.compile(r"(?<!\S)#(delay=(\d+(?:\.\d+)?)|fail|ask)(?!\S)")
MARKER = re.compile(r"^\s*⟦[^⟧\n]*⟧\s*")
SHOWN_OUTPUT_LINES = 8
MAX_STOP_CONTINUATIONS = 3
RATE_LIMIT_MESSAGE = "API Error: Rate limit reached"
RATE_LIMIT_DETAILS = ('429 {"type":"error","error":{"type":"rate_limit_error",'
                      '"message":"This request would exceed your rate limit (demo agent)."}}')
DECLINED = ("The user doesn't want to proceed with this tool use. The tool use was rejected "
            "(eg. if it was a file edit, the new_string was NOT written to the file).")


@dataclass
class Sleep:
    seconds: float


@dataclass
class AskPermission:
    call: ToolCall
    # Claude Code's auto mode that cannot reach its safety check (a custom base URL): the
    # dialog asks for a choice, no PermissionRequest fires, and the Notification that follows
    # is `agent_needs_input` instead of `permission_prompt` (tests/real_cli/FINDINGS.md).
    auto_check: bool = False


@dataclass
class RunTool:
    call: ToolCall


Request = Sleep | AskPermission | RunTool


def commands_in(prompt: str) -> list[str]:
    """The `!` lines of a prompt, in order (a leading dispatch marker is skipped)."""
    lines = prompt.split("\n")
    if lines:
        lines[0] = MARKER.sub("", lines[0], count=1)
    out = []
    for line in lines:
        s = line.strip()
        if s.startswith("!") and s[1:].strip():
            out.append(s[1:].strip())
    return out


# The delivery a worker's task ends with (gate/cards/commands.py assignment, its SHA_PLACEHOLDER).
DELIVERY = re.compile(r"^a2a submit \S+ --sha <SHA>[^\n]*$", re.MULTILINE)


def new_turn(prompt: str, opts: Options, task: Task | None = None) -> Turn:
    """A turn for `prompt`, with the prompt's directives applied over the agent's flags; a
    worker's task (`task`) is remembered, and the turn delivers after its `!` commands."""
    delay, fail, ask = opts.delay, opts.fail, opts.ask_permission
    for m in DIRECTIVE.finditer(prompt):
        if m.group(2) is not None:
            delay = float(m.group(2))
        elif m.group(1) == "fail":
            fail = True
        elif m.group(1) == "ask":
            ask = True
    scripted = next((run for when, run in opts.replies if when in prompt), [])
    commands = commands_in(prompt)
    if task is not None:
        found = DELIVERY.findall(prompt)
        task.delivery = found[-1] if found else task.delivery
    # Scripted replies (--replies) do the whole task themselves, delivery included.
    deliver = task.deliver(commands) if task is not None and not scripted else None
    return Turn(prompt=prompt, prompt_id=str(uuid.uuid4()), turn_id=str(uuid.uuid4()),
                delay=delay, fail=fail, ask=ask, commands=commands + list(scripted),
                deliver=deliver, in_task=task is not None and task.delivery is not None)


def reply_text(turn: Turn) -> str:
    """The deterministic reply: what was received and what ran."""
    lines = turn.prompt.count("\n") + 1
    text = (f"demo: got {len(turn.prompt)} chars, {lines} line{'s' * (lines != 1)}; "
            f"ran {turn.ran} command{'s' * (turn.ran != 1)}")
    if turn.declined:
        text += f", {turn.declined} declined"
    if turn.blocked:
        text += f", {turn.blocked} blocked by hooks"
    if turn.in_task and not turn.commands:
        text += (". I am the demo agent: I run only lines that start with `!` (a card's"
                 " `hints`, or a prompt: i on my row), then deliver with the task's last line")
    return text


def show_outcome(screen: Screen, o: Outcome) -> None:
    """Hook output the user sees: context dimly, notices in yellow."""
    for ctx in o.context:
        screen.log(ctx, DIM, prefix="  ⎿  ")
    for n in o.notices:
        screen.log(n, YELLOW, prefix="  ⎿  ")


def run_turn(turn: Turn, signals: Signals, screen: Screen, transcript: Transcript,
             opts: Options) -> Generator[Request, Any, str]:
    """Drive one turn; returns how it ended: done | failed | blocked."""
    o = signals.prompt_submit(turn)
    show_outcome(screen, o)
    if o.blocked:
        screen.log(f"UserPromptSubmit operation blocked by hook:\n{o.reason}".rstrip(), RED,
                   prefix="  ⎿  ")
        return "blocked"
    transcript.user(turn.prompt, turn.prompt_id)
    yield Sleep(turn.delay)
    for command in turn.commands:
        yield from _tool_call(turn, command, signals, screen, transcript, opts)
    if turn.deliver and not turn.failed and not turn.declined and not turn.blocked:
        yield from _tool_call(turn, turn.deliver, signals, screen, transcript, opts)
    if turn.fail:
        screen.log(f"{RATE_LIMIT_MESSAGE} · {RATE_LIMIT_DETAILS}", RED, prefix="  ⎿  ")
        transcript.assistant([{"type": "text", "text": RATE_LIMIT_MESSAGE}])
        show_outcome(screen, signals.turn_failed(turn, "rate_limit", RATE_LIMIT_DETAILS,
                                                 RATE_LIMIT_MESSAGE))
        return "failed"
    reply = reply_text(turn)
    screen.log(reply, BOLD, prefix="⏺ ")
    transcript.assistant([{"type": "text", "text": reply}])
    o = signals.turn_done(turn, reply, stop_hook_active=False)
    show_outcome(screen, o)
    for _ in range(MAX_STOP_CONTINUATIONS):
        if not o.blocked:
            break
        # Stop hook exit 2: its stderr is fed back and the model goes on (Claude Code).
        screen.log(f"Stop hook feedback:\n{o.reason}".rstrip(), DIM, prefix="  ⎿  ")
        transcript.user(f"Stop hook feedback:\n{o.reason}", turn.prompt_id)
        yield Sleep(turn.delay)
        reply = f"demo: continued after Stop hook feedback ({len(o.reason)} chars)"
        screen.log(reply, BOLD, prefix="⏺ ")
        transcript.assistant([{"type": "text", "text": reply}])
        o = signals.turn_done(turn, reply, stop_hook_active=True)
        show_outcome(screen, o)
    return "done"


def _tool_call(turn: Turn, command: str, signals: Signals, screen: Screen,
               transcript: Transcript, opts: Options) -> Generator[Request, Any, None]:
    call = ToolCall(tool_use_id=f"toolu_{uuid.uuid4().hex[:24]}", command=command)
    screen.log(f"Bash({command})", YELLOW, prefix="⏺ ")
    transcript.assistant([{"type": "tool_use", "id": call.tool_use_id, "name": "Bash",
                           "input": call.tool_input}])
    pre = signals.pre_tool(turn, call)
    show_outcome(screen, pre)
    if pre.blocked:
        turn.blocked += 1
        screen.log(f"PreToolUse:Bash hook blocked this command: {pre.reason}".rstrip(": "), RED,
                   prefix="  ⎿  ")
        _tool_result(transcript, call, f"Blocked by hook: {pre.reason}", True)
        return
    ask = pre.decision == "ask" or (turn.ask and pre.decision != "allow"
                                    and opts.permission_mode != "bypassPermissions")
    if ask and opts.auto_check_unavailable:
        allowed = bool((yield AskPermission(call, auto_check=True)))
    elif ask:
        pr = signals.permission_request(turn, call)
        show_outcome(screen, pr)
        if pr.decision in ("allow", "deny"):
            allowed = pr.decision == "allow"
        else:
            allowed = bool((yield AskPermission(call)))
        if not allowed:
            turn.declined += 1
            screen.log("User declined to run this command", RED, prefix="  ⎿  ")
            _tool_result(transcript, call, DECLINED, True)
            return
    result: ToolResult = yield RunTool(call)
    _show_result(screen, result)
    _tool_result(transcript, call, result.stdout + result.stderr, not result.ok)
    turn.ran += 1
    turn.failed += not result.ok
    show_outcome(screen, signals.post_tool(turn, call, result))


def _show_result(screen: Screen, r: ToolResult) -> None:
    text = "\n".join(x for x in (r.stdout.rstrip("\n"), r.stderr.rstrip("\n")) if x)
    if r.error:
        text = r.error
    elif r.timed_out:
        text = (text + "\n" if text else "") + "Command timed out"
    elif r.code not in (0, None):
        text = (text + "\n" if text else "") + f"Exit code {r.code}"
    lines = text.split("\n") if text else ["(No content)"]
    if len(lines) > SHOWN_OUTPUT_LINES:
        lines = lines[:SHOWN_OUTPUT_LINES] + [f"… +{len(lines) - SHOWN_OUTPUT_LINES} lines"]
    screen.log("\n".join(lines), RED if not r.ok else DIM, prefix="  ⎿  ")


def _tool_result(transcript: Transcript, call: ToolCall, content: str, is_error: bool) -> None:
    transcript.user([{"type": "tool_result", "tool_use_id": call.tool_use_id,
                      "content": content, "is_error": is_error}])
