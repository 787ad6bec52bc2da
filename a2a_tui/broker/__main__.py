"""`python -m a2a_tui.broker --repo ROOT --control FD --parent PID [--tmux-socket NAME]`: the
broker process, as the orchestrator starts it (panes/broker_host.py). Not a command of `a2a`.

It imports the command line and what the agent-facing commands use before it serves anything,
once: each request's child is a fork of this process and pays for none of it (an agent's call
costs the client's start, a fork, the command itself).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from pathlib import Path

# What the agent-facing commands import when they run (each command imports lazily, so a
# direct `a2a` call pays only for its own): loaded here, before the first fork.
PRELOAD = (
    "psutil", "a2a_tui.cli.context", "a2a_tui.identity", "a2a_tui.store", "a2a_tui.store.owner",
    "a2a_tui.gate", "a2a_tui.gate.cards.commands", "a2a_tui.gate.cards.weakening",
    "a2a_tui.gate.ledger.records",
    "a2a_tui.gate.context", "a2a_tui.gate.ledger", "a2a_tui.gate.integration.recovery",
    "a2a_tui.gate.views",
    "a2a_tui.collab.context", "a2a_tui.collab.inbox", "a2a_tui.collab.board",
    "a2a_tui.panes.control", "a2a_tui.panes.views", "a2a_tui.panes.orchestrator",
    "a2a_tui.metrics.retro", "a2a_tui.sentences", "a2a_tui.spawn", "a2a_tui.tmux",
)


def preload() -> None:
    """Import what a request's child would otherwise import itself (tests/broker: a brokered
    command imports nothing more)."""
    from a2a_tui import cli  # lazy: a bad invocation answers before a2a is loaded (main)

    for name in (*PRELOAD, *cli.command_modules()):
        importlib.import_module(name)


def print_to_log(line: str) -> None:
    print(f"a2a broker: {line}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m a2a_tui.broker")
    ap.add_argument("--repo", required=True, type=Path)
    ap.add_argument("--control", required=True, type=int, help="the orchestrator's pipe")
    ap.add_argument("--parent", required=True, type=int, help="the orchestrator's pid")
    ap.add_argument("--tmux-socket", default=None)
    args = ap.parse_args(argv)

    # Imported after the arguments are read: a bad invocation answers without loading a2a.
    from a2a_tui import cli
    from a2a_tui.broker import commands, request, serve
    from a2a_tui.repo import Repo
    from a2a_tui.resources import BROKER_ENV, BrokerLimits

    # Its log takes what it can: a full disk never ends the broker (serve.BestEffortLog).
    sys.stdout, sys.stderr = serve.BestEffortLog(1), serve.BestEffortLog(2)

    preload()
    # What is loaded now is never collected: a child's collections then leave these objects,
    # and the pages the fork shares with it, alone (copy-on-write stays cheap).
    gc.freeze()
    # The commands it runs reach the orchestrator's tmux server by default, and never this
    # process's own broker (it has none: it is the broker).
    os.environ.pop(BROKER_ENV, None)
    if args.tmux_socket:
        os.environ["A2A_TMUX_SOCKET"] = args.tmux_socket
    else:
        os.environ.pop("A2A_TMUX_SOCKET", None)
    served = request.Served(Repo(args.repo), args.tmux_socket,
                            commands.command_paths(cli.build_parser()),
                            BrokerLimits.of(os.environ, complain=print_to_log))
    os.chdir(args.repo)
    print(f"a2a broker: serving {args.repo} (pid {os.getpid()})", file=sys.stderr, flush=True)
    return serve.Broker(served, args.control, args.parent).run()


if __name__ == "__main__":
    sys.exit(main())
