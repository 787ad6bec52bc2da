"""`a2a demo-agent [options]`: run the demo agent (the stand-in for the real agent CLIs)."""

from __future__ import annotations

from a2a_tui.cli.output import Result
from a2a_tui.demo_agent.options import add_arguments, options_from_args


def register(sub, common) -> None:
    p = sub.add_parser("demo-agent", parents=[common],
                       help="an interactive stand-in for Claude Code / Codex (tests, demo)")
    add_arguments(p)
    p.set_defaults(func=cmd_demo_agent)


def cmd_demo_agent(ctx, args) -> Result:
    # lazy: only this command needs the agent itself (terminal, hooks, tools)
    from a2a_tui.demo_agent.app import run_agent

    opts = options_from_args(args)
    reason = run_agent(opts)
    # The terminal belonged to the agent; say nothing more unless asked for JSON.
    return Result({"session_id": opts.session_id, "exit_reason": reason}, "")
