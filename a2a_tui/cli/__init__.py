"""`a2a`: the command line. Every command has `--json`; errors are one line with a stable code.

Agents call `a2a` many times a turn and pay its start-up each time (bench/bench_cli.py), so
`a2a CMD` imports only the module that registers CMD, found in COMMANDS below, and builds only
that module's parsers. `a2a`, `a2a --help`, `--version`, an unknown command or an abbreviated
option before the command read every module, as before.

Adding a command: write it in a `cli/*_cmds.py` module's `register(sub, common)` (or a new
`*_cmds.py` module with one) and add one line `"NAME": "MODULE",` to COMMANDS, NAME being the
word after `a2a` (one line covers `a2a NAME SUB ...`). tests/test_startup.py fails until the
line is there; until then the command still works, through the whole parser, only slower.
"""

# Imports inside functions: pkgutil and importlib only when the command table does not name
# the command (a2a's start-up: tests/test_startup.py).

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from a2a_tui import __version__
from a2a_tui.cli.output import Result, emit, emit_error
from a2a_tui.errors import A2AError
from a2a_tui.resources import BROKER_ENV, broker_client

if TYPE_CHECKING:
    from a2a_tui.cli.context import Forced

# Each `a2a_tui/cli/*_cmds.py` module adds its subcommands through `register(sub, common)`.
FIRST_MODULES = ["base_cmds", "card_cmds", "gate_cmds"]

# Every top-level command and the module whose `register` adds it.
COMMANDS = {
    "init": "base_cmds",
    "status": "base_cmds",
    "events": "base_cmds",
    "metrics": "metrics_cmds",
    "retro": "metrics_cmds",
    "store": "store_cmds",
    "recover": "base_cmds",
    "card": "card_cmds",
    "claim": "gate_cmds",
    "submit": "gate_cmds",
    "verify": "gate_cmds",
    "integrate": "gate_cmds",
    "abandon": "gate_cmds",
    "review": "review_cmds",
    "approve": "review_cmds",
    "reclaim": "gate_cmds",
    "log": "gate_cmds",
    "comment": "comment_cmds",
    "resolve": "target_cmds",
    "target": "target_cmds",
    "say": "collab_cmds",
    "input": "collab_cmds",
    "inbox": "collab_cmds",
    "board": "collab_cmds",
    "rules": "collab_cmds",
    "whoami": "collab_cmds",
    "demo-agent": "demo_agent_cmds",
    "serve": "pane_cmds",
    "spawn": "pane_cmds",
    "inject": "pane_cmds",
    "pause": "pane_cmds",
    "resume": "pane_cmds",
    "release": "pane_cmds",
    "sessions": "pane_cmds",
    "session": "session_cmds",
    "attention": "session_cmds",
    "config": "config_cmds",
    "feedback": "contract_cmds",
    "gate-rules": "contract_cmds",
    "up": "tui_cmds",
    "workbench": "tui_cmds",
    "demo": "tui_cmds",
    "down": "tui_cmds",
    "demo-director": "tui_cmds",
}


def command_modules() -> list[str]:
    import pkgutil

    found = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name.endswith("_cmds"))
    ordered = ([m for m in FIRST_MODULES if m in found]
               + [m for m in found if m not in FIRST_MODULES])
    return [f"a2a_tui.cli.{m}" for m in ordered]


def command_in(argv: Sequence[str]) -> str | None:
    """The command `argv` runs, when only spelled-out top-level options come before it; None
    when the whole parser must read it (no command, help, an unknown word or option)."""
    args = iter(argv)
    for arg in args:
        if arg == "--repo":
            next(args, None)
        elif arg != "--json" and not arg.startswith("--repo="):
            return arg if arg in COMMANDS else None
    return None


class Parser(argparse.ArgumentParser):
    """argparse that reports bad usage as an A2AError instead of printing and exiting; a
    mistyped command or word says which one was meant."""

    def error(self, message: str):  # type: ignore[override]
        raise A2AError("usage", f"{self.prog}: {message}{suggest_choice(message)}",
                       exit_code=2)


def suggest_choice(message: str) -> str:
    """"; did you mean 'claim'?" for argparse's "invalid choice: 'clam' (choose from ...)"."""
    import difflib
    import re

    m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
    if not m:
        return ""
    choices = re.findall(r"'([^']*)'", m.group(2))
    near = difflib.get_close_matches(m.group(1), choices, n=1, cutoff=0.6)
    return f"; did you mean '{near[0]}'?" if near else ""


def did_you_mean(err: A2AError, argv: Sequence[str]) -> A2AError:
    """An unknown card, attempt or session id, with the existing one it most likely meant."""
    from a2a_tui.cli.didyoumean import suggest

    return suggest(err, argv)


def utf8_only(argv: list[str]) -> None:
    """Refuse an argument that is not UTF-8 (Python holds its bytes as lone surrogates): what
    a2a is given is recorded as text, and such a string can be neither stored nor printed."""
    for arg in argv:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            raise A2AError("usage", f"a2a: argument {arg!r} is not UTF-8 text",
                           exit_code=2) from None


class TopParser(Parser):
    """`a2a` itself: its help lists the commands by group (cli/groups.py), not in one list."""

    def format_help(self) -> str:
        from a2a_tui.cli.groups import top_help  # lazy: only `a2a --help` reads the groups

        return top_help(self)


def common_options() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                   help="answer in JSON")
    p.add_argument("--repo", default=argparse.SUPPRESS, metavar="PATH",
                   help="the repository (default: the one containing the current directory)")
    return p


def build_parser(command: str | None = None) -> Parser:
    """The parser of every command, or only of `command`'s module (a name in COMMANDS)."""
    import importlib

    common = common_options()
    parser = TopParser(
        prog="a2a",
        description="A terminal workbench for native coding-agent CLIs in tmux, behind one gate.",
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"a2a {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    if command:
        importlib.import_module(f"a2a_tui.cli.{COMMANDS[command]}").register(
            _Only(sub, command), common)
    else:
        for name in command_modules():
            importlib.import_module(name).register(sub, common)
    return parser


class _Only:
    """The subparsers of one command: the module's other commands get a parser that builds
    nothing (building every parser of the collaboration module takes ~2.5 ms, whoami's ~0.4)."""

    def __init__(self, sub: argparse._SubParsersAction, command: str):
        self.sub = sub
        self.command = command

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if self.command == name or self.command in kwargs.get("aliases", ()):
            return self.sub.add_parser(name, **kwargs)
        return _Unbuilt()


class _Unbuilt:
    """Takes every call a `register` makes on a parser (and on what it returns), builds nothing."""

    def __getattr__(self, name: str) -> Any:
        return self._ignore

    def _ignore(self, *args: Any, **kwargs: Any) -> _Unbuilt:
        return self


def main(argv: Sequence[str] | None = None) -> int:
    """`a2a ARGS`. In a managed session's processes (A2A_BROKER set) it is the broker's thin
    client instead, run in place of this process: the orchestrator runs the command as the
    session whose socket it came in on, so nothing this process computes about itself counts
    (a2a_tui/broker). Elsewhere, the command runs here."""
    argv = list(sys.argv[1:] if argv is None else argv)
    socket_path = os.environ.get(BROKER_ENV)
    if socket_path:
        client = str(broker_client())
        sys.stdout.flush()
        try:
            os.execv(sys.executable, [sys.executable, "-I", "-S", client, *argv])
        except OSError as exc:
            return emit_error(A2AError("broker_unavailable", f"cannot start the broker's client"
                                       f" {client}: {exc.strerror or exc}"), "--json" in argv)
    return run(argv)


def run(argv: Sequence[str], forced: Forced | None = None) -> int:
    """Parse and run one command here; `forced`: for the broker, which settles the repository
    and the caller itself and checks the command before it runs."""
    argv = list(argv)
    as_json = "--json" in argv
    try:
        utf8_only(argv)
        parser = build_parser(command_in(argv))
        args = parser.parse_args(argv)
        as_json = bool(getattr(args, "json", False))
        if not getattr(args, "func", None):
            parser.print_help()
            return 0
        # lazy: --help and usage errors answer without the repository, store or gate
        from a2a_tui.cli.context import CliContext

        ctx = CliContext(args, forced)
        try:
            if forced is not None:
                forced.admit(ctx)
            ctx.admit()
            result: Result = args.func(ctx, args)
            known = not as_json and ctx.rules_read(result.rules)
        finally:
            ctx.close()
        return emit(result, as_json, rules_known=known)
    except A2AError as err:
        return emit_error(did_you_mean(err, argv), as_json)
    except Exception as exc:
        # A full disk or a failing one met outside the store's own handling (a read on the raw
        # connection, a log file): one line with its code all the same. lazy: only then.
        from a2a_tui.store.trouble import translate

        err = translate(exc)
        if err is None:
            raise
        return emit_error(err, as_json)
    except KeyboardInterrupt:
        print("a2a: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
