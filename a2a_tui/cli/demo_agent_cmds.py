"""`a2a demo-agent [options]`: run the demo agent (the stand-in for the real agent CLIs)."""

from __future__ import annotations

from a2a_tui.cli.output import Result
from a2a_tui.demo_agent.options import add_arguments, options_from_args  # noqa: F401

# add_arguments (imported above): `a2a demo-agent`'s arguments, named by the command table
# (cli/table.py).

EPILOG = """\
How it works: type a prompt and press Enter. Each line of the prompt that starts with `!` is a
command it runs with its Bash tool (sh -c, in its folder; Codex mode: bash -c or bash -lc), as
Claude Code runs a tool call: PreToolUse, then the command, then PostToolUse (or
PostToolUseFailure). Then it replies "demo: got N chars, L lines; ran K commands" and the turn
ends (Stop; Codex mode: notify agent-turn-complete).

  !printf 'hello\\n' > src/hello.txt
  !git add -A && git commit -qm 'Say hello'

Directives, anywhere in a prompt, each a word of its own:
  #delay=S   think S seconds before the commands (default: --delay)
  #fail      end the turn with an API error (StopFailure rate_limit)
  #ask       ask permission before each command (PermissionRequest; the pane waits for y/n)
A prompt that a2a dispatched starts with its marker (⟦主控 #n⟧), which is skipped.

Scripted turns (--replies FILE, TOML):
  [[reply]]
  when = "a2a submit "                     # a prompt holding this text ...
  run = ["sh work.sh"]                     # ... runs these as if they were `!` lines
The commands find the prompt in the file named by $DEMO_PROMPT.

Keys: Esc or Ctrl-C interrupts a turn (no hook fires; the prompt goes back into the box);
Ctrl-D on an empty box, /exit, or Ctrl-C twice exits (SessionEnd).

In a2a: `a2a session new worker --cli demo` starts one in your repository; options after `--`
(or [clis.demo] options in your config) are passed to it.
"""


def cmd_demo_agent(ctx, args) -> Result:
    # lazy: only this command needs the agent itself (terminal, hooks, tools)
    from a2a_tui.demo_agent.app import run_agent

    opts = options_from_args(args)
    reason = run_agent(opts)
    # The terminal belonged to the agent; say nothing more unless asked for JSON.
    return Result({"session_id": opts.session_id, "exit_reason": reason}, "")
