"""`a2a`: the command line. Every command has `--json`; errors are one line with a stable code."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from a2a_tui import __version__
from a2a_tui.cli.output import Result, emit, emit_error
from a2a_tui.errors import A2AError

# Each `a2a_tui/cli/*_cmds.py` module adds its subcommands through `register(sub, common)`.
FIRST_MODULES = ["base_cmds", "gate_cmds"]


def command_modules() -> list[str]:
    import pkgutil

    found = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name.endswith("_cmds"))
    ordered = ([m for m in FIRST_MODULES if m in found]
               + [m for m in found if m not in FIRST_MODULES])
    return [f"a2a_tui.cli.{m}" for m in ordered]


class Parser(argparse.ArgumentParser):
    """argparse that reports bad usage as an A2AError instead of printing and exiting."""

    def error(self, message: str):  # type: ignore[override]
        raise A2AError("usage", f"{self.prog}: {message}", exit_code=2)


def utf8_only(argv: list[str]) -> None:
    """Refuse an argument that is not UTF-8 (Python holds its bytes as lone surrogates): what
    a2a is given is recorded as text, and such a string can be neither stored nor printed."""
    for arg in argv:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            raise A2AError("usage", f"a2a: argument {arg!r} is not UTF-8 text",
                           exit_code=2) from None


def common_options() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                   help="answer in JSON")
    p.add_argument("--repo", default=argparse.SUPPRESS, metavar="PATH",
                   help="the repository (default: the one containing the current directory)")
    return p


def build_parser() -> Parser:
    import importlib

    common = common_options()
    parser = Parser(
        prog="a2a",
        description="A terminal workbench for native coding-agent CLIs in tmux, behind one gate.",
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"a2a {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name in command_modules():
        importlib.import_module(name).register(sub, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in argv
    try:
        utf8_only(argv)
        parser = build_parser()
        args = parser.parse_args(argv)
        as_json = bool(getattr(args, "json", False))
        if not getattr(args, "func", None):
            parser.print_help()
            return 0
        # lazy: --help and usage errors answer without the repository, store or gate
        from a2a_tui.cli.context import CliContext

        ctx = CliContext(args)
        try:
            ctx.admit()
            result: Result = args.func(ctx, args)
        finally:
            ctx.close()
        return emit(result, as_json)
    except A2AError as err:
        return emit_error(err, as_json)
    except KeyboardInterrupt:
        print("a2a: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
