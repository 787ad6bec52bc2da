"""docs/reference/cli.md: every command, subcommand, argument and help text, from the parser
`a2a_tui.cli.build_parser()` builds from the command table (`a2a_tui/cli/table.py`), in the
table's groups and with its examples; with each command's rules (`a2a_tui/cli/rules.py`) and
whether an agent's session may run it (`a2a_tui/broker/commands.py`).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from a2a_tui.broker import commands as broker
from a2a_tui.cli import build_parser
from a2a_tui.cli.helptext import grouped
from a2a_tui.cli.rules import rules_for
from a2a_tui.cli.table import GROUPS, TABLE

from .markdown import HEADER, anchor, code, prose, table

COMMON = ("-h", "--json", "--repo", "--version")   # every command takes them: said once
EXAMPLES = {c.name: c.example for c in TABLE if c.example}


def _formatter(prog: str) -> argparse.HelpFormatter:
    # Wide enough never to wrap: the reference does not depend on a terminal's width.
    return argparse.HelpFormatter(prog, width=100_000)


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction | None:
    return next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)


def _own(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The parser's arguments but the common ones and its subcommands."""
    return [a for a in parser._actions
            if not set(a.option_strings) & set(COMMON)
            and not isinstance(a, argparse._SubParsersAction) and a.help != argparse.SUPPRESS]


def usage(parser: argparse.ArgumentParser) -> str:
    """One line: the command's words, its options, its positionals (the common ones left out)."""
    fmt = _formatter(parser.prog)
    actions = _own(parser)
    sub = _subparsers(parser)
    fmt.add_usage(None, actions + ([sub] if sub else []), [], prefix="")
    return fmt.format_help().strip()


def argument(action: argparse.Action, fmt: argparse.HelpFormatter) -> str:
    """How an argument is written: `--writer SESSION`, `card`, `--supersede`."""
    if not action.option_strings:
        return fmt._format_args(action, action.dest)
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    args = fmt._format_args(action, action.dest.upper())
    return ", ".join(f"{o} {args}" for o in action.option_strings)


def help_text(action: argparse.Action, fmt: argparse.HelpFormatter) -> str:
    text = fmt._expand_help(action) if action.help else ""
    if action.choices and not all(str(c) in text for c in action.choices):
        text += f" (one of: {', '.join(map(str, action.choices))})"
    if action.required and action.option_strings:
        text += " (required)"
    return text


def for_agents(words: str) -> str:
    why = broker.refusal(words)
    if why is None:
        return "An agent's session may run it (through its broker, as that session)."
    return f"Not run for an agent's session: {why}."


def sentence(text: str) -> str:
    """A help fragment as a sentence: its first letter up, a full stop."""
    text = prose(text)
    return (text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")) if text else ""


def section(parser: argparse.ArgumentParser, words: str, level: int, said: str
            ) -> Iterator[str]:
    """The Markdown of one command and, below it, of each of its subcommands."""
    fmt = _formatter(parser.prog)
    yield f"{'#' * level} a2a {words}\n"
    if said:
        yield sentence(said) + "\n"
    if words in EXAMPLES:
        yield f"For example: {code(EXAMPLES[words])}\n"
    yield f"```text\n{usage(parser)}\n```\n"
    for text in (parser.description, parser.epilog):
        if text:
            yield prose(text) + "\n"
    args = _own(parser)
    if args:
        yield table(("argument", "what"), [(code(argument(a, fmt)), help_text(a, fmt))
                                            for a in args]) + "\n"
    sub = _subparsers(parser)
    if parser.get_default("func") is not None:
        rules = rules_for(words)
        if rules:
            yield "It prints these rules when it runs (`a2a rules " + words + "`):\n"
            yield "\n".join(f"- {prose(r)}" for r in rules) + "\n"
        yield for_agents(words) + "\n"
    if sub is not None:
        helps = {a.dest: a.help or "" for a in sub._choices_actions}
        seen: set[int] = set()
        for name, child in sub.choices.items():
            if id(child) not in seen:
                seen.add(id(child))
                yield from section(child, f"{words} {name}", level + 1, helps.get(name, ""))


def render() -> str:
    parser = build_parser()
    sub = _subparsers(parser)
    assert sub is not None
    helps = {a.dest: a.help or "" for a in sub._choices_actions}
    out = [HEADER, "# The `a2a` command line\n",
           "Every command, its arguments and its help, as the parser has them"
           " (`a2a_tui/cli`), in the groups `a2a --help` shows. Every command also takes"
           " `--json` (answer in JSON; an error is `{\"error\": {\"code\": ..., \"message\":"
           " ...}}`, its codes in [error codes](error-codes.md)) and `--repo PATH` (the"
           " repository; default: the one containing the current directory), and `-h` /"
           " `--help`.\n"]
    groups = grouped(parser, TABLE, GROUPS)
    for title, names in groups:
        links = ", ".join(f"[{n}](#{anchor('a2a ' + n)})" for n in names)
        out.append(f"- **{title}**: {links}")
    out.append("")
    for title, names in groups:
        out.append(f"## {title[0].upper()}{title[1:]}\n")
        for name in names:
            out += section(sub.choices[name], name, 3, helps[name])
    return "\n".join(out).rstrip() + "\n"
