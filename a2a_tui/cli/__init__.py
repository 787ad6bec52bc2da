"""`a2a`: the command line. Every command has `--json`; errors are one line with a stable code.

The commands are data: one table (cli/table.py) of `Command(name, help, func, args, group, ...)`
builds the parser, the grouped `a2a --help` and the reference. Agents call `a2a` many times a
turn and pay its start-up each time (bench/bench_cli.py), so `a2a CMD` builds only CMD's entries
and imports only the module their functions live in. `a2a`, `a2a --help`, `--version`, an
unknown command or an abbreviated option before the command build every command, as before.
"""

# Imports inside functions: importlib only when a parser is built; the grouped help only
# for `a2a --help` (a2a's start-up: tests/test_startup.py).

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from a2a_tui import __version__
from a2a_tui.cli.output import Result, emit, emit_error
from a2a_tui.cli.spec import add_commands
from a2a_tui.cli.table import GROUPS, TABLE
from a2a_tui.errors import A2AError
from a2a_tui.resources import BROKER_ENV, broker_client

if TYPE_CHECKING:
    from a2a_tui.cli.context import Forced

# The words that start a command, and the module its functions live in (from the table).
COMMANDS: dict[str, str] = {}
for command in TABLE:
    if command.func:
        COMMANDS.setdefault(command.top, command.func.split(":")[0])


def command_modules() -> list[str]:
    """Every module a command's function lives in, in the table's order."""
    return [f"a2a_tui.cli.{m}" for m in dict.fromkeys(COMMANDS.values())]


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
        # One line, as git says it: the word meant, never the list of every command, and
        # `a2a:` once (the error line begins with it).
        said = short_usage(message, self)
        where = "" if self.prog == "a2a" or said.startswith("'") else f"`{self.prog}`: "
        raise A2AError("usage", where + said, exit_code=2)


def short_usage(message: str, parser: argparse.ArgumentParser) -> str:
    """argparse's `message`, an invalid choice said without its list, each with "; did you
    mean 'claim'?" (a command or word) or "'--json'" (an option) when one is near."""
    import difflib
    import re

    m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
    if m:
        choices = re.findall(r"'([^']*)'", m.group(2))
        near = difflib.get_close_matches(m.group(1), choices, n=1, cutoff=0.6)
        return (f"'{m.group(1)}' is not an `{parser.prog}` command; "
                + (f"did you mean '{near[0]}'?" if near else f"`{parser.prog} --help` lists them"))
    m = re.search(r"unrecognized arguments: (\S+)", message)
    if m and m.group(1).startswith("--"):
        near = difflib.get_close_matches(m.group(1), sorted(_options(parser)), n=1, cutoff=0.6)
        if near and near[0] != m.group(1):   # a subcommand's own option, given before it
            return f"{message}; did you mean '{near[0]}'?"
    return message


def _options(parser: argparse.ArgumentParser) -> set[str]:
    """Every long option of `parser` and of the subcommands parsed under it."""
    found: set[str] = set()
    for action in parser._actions:
        found.update(o for o in action.option_strings if o.startswith("--"))
        subs = getattr(action, "choices", None)   # a subcommand's parsers, or an option's words
        for sub in subs.values() if isinstance(subs, dict) else ():
            if isinstance(sub, argparse.ArgumentParser):
                found |= _options(sub)
    return found


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
    """`a2a` itself: its help lists the commands by the table's groups, not in one list."""

    def format_help(self) -> str:
        from a2a_tui.cli.helptext import top_help  # lazy: only `a2a --help` lays them out

        return top_help(self, TABLE, GROUPS)


def common_options() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                   help="answer in JSON")
    p.add_argument("--repo", default=argparse.SUPPRESS, metavar="PATH",
                   help="the repository (default: the one containing the current directory)")
    return p


def build_parser(command: str | None = None) -> Parser:
    """The parser of every command, or only of `command` (a word that starts a command) and
    its subcommands."""
    common = common_options()
    parser = TopParser(
        prog="a2a",
        description="A terminal workbench for native coding-agent CLIs in tmux, behind one gate.",
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"a2a {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    add_commands(sub, (c for c in TABLE if command in (None, c.top)), common, Parser)
    return parser


def command_paths(parser: argparse.ArgumentParser) -> dict[Callable, str]:
    """Every command's function and the words that run it (`review verdict`), from the parser:
    how the role table (gate/roles.py) and the broker name a command, whatever spelling ran it
    (`a2a config` runs `config show`)."""
    return {func: words for words, func in _walk(parser, ())}


def _walk(parser: argparse.ArgumentParser, words: tuple[str, ...]
          ) -> Iterator[tuple[str, Callable]]:
    func = parser.get_default("func")
    if func is not None and words:
        yield " ".join(words), func
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen: set[int] = set()
            for name, sub in action.choices.items():
                if id(sub) not in seen:   # an alias names a parser already walked
                    seen.add(id(sub))
                    yield from _walk(sub, (*words, name))


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

        ctx = CliContext(args, forced, command_paths(parser).get(args.func))
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
