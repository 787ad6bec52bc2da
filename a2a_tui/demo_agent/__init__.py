"""The demo agent: the project's stand-in for the real agent CLIs (Claude Code, Codex).

An interactive terminal program that speaks their signal protocols faithfully
(PROTOCOLS.md A and B, REAL_CLIS.md): Claude Code's command hooks from `--settings`, or Codex's
`notify` program. Run it as `a2a demo-agent [options]` or `python -m a2a_tui.demo_agent`.

Modules: `keys` (input bytes -> keys, bracketed paste), `editor` (input box), `screen`
(drawing), `hooks` (Claude settings + hook runner), `claude` / `codex` (the two protocols),
`turn` (the turn engine), `tools` (the Bash tool), `transcript`, `app` (the event loop).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from a2a_tui.demo_agent.options import add_arguments, options_from_args
from a2a_tui.errors import A2AError


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="a2a demo-agent",
                                description="A stand-in for Claude Code / Codex in a terminal.")
    add_arguments(p)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m a2a_tui.demo_agent`: parse flags, run, exit 0 (bad flags: one line, exit 2)."""
    # lazy: every `a2a` call imports this package to list the demo agent's flags; only a run
    # needs the agent itself (terminal, hooks, tools)
    from a2a_tui.demo_agent.app import run_agent

    args = build_parser().parse_args(argv)
    try:
        run_agent(options_from_args(args))
    except A2AError as err:
        print(f"a2a demo-agent: error: {err.message} [{err.code}]", file=sys.stderr)
        return err.exit_code
    return 0
