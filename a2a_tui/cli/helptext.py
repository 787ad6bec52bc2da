"""`a2a --help` grouped the way people work (git's `git help` is the model), from the command
table (cli/table.py): each group's commands in the table's order, with a one-line example for
the common ones. Imported only to print that help (and by the generated CLI reference)."""

from __future__ import annotations

import argparse
import shutil
import textwrap
from collections.abc import Iterable

from a2a_tui.cli.spec import Command

OTHER = "other commands"
WIDTH = 100


def subcommands(parser: argparse.ArgumentParser) -> dict[str, str]:
    """The parser's commands and their one-line help, in the order they were added."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {a.dest: a.help or "" for a in action._choices_actions}
    return {}


def grouped(parser: argparse.ArgumentParser, table: Iterable[Command], groups: Iterable[str]
            ) -> list[tuple[str, list[str]]]:
    """(title, commands) per group, in the table's order; a command of the parser that no
    table entry places comes last, under OTHER."""
    found = subcommands(parser)
    group_of = {c.name: c.group for c in table if c.group}
    out = [(g, [c for c in found if group_of.get(c) == g]) for g in groups]
    placed = {c for _title, commands in out for c in commands}
    rest = [c for c in found if c not in placed]
    return [(t, cs) for t, cs in out if cs] + ([(OTHER, rest)] if rest else [])


def commands_help(parser: argparse.ArgumentParser, table: Iterable[Command],
                  groups: Iterable[str]) -> str:
    """The grouped command list of `a2a --help`: each command, its help, and its example."""
    table = list(table)
    examples = {c.name: c.example for c in table if c.example}
    found = subcommands(parser)
    width = min(WIDTH, shutil.get_terminal_size((WIDTH, 24)).columns) - 2
    name_w = max(map(len, found), default=0) + 2
    lines: list[str] = []
    for title, commands in grouped(parser, table, groups):
        lines += ["", f"{title}:"]
        for name in commands:
            body = textwrap.wrap(found[name], max(width - name_w - 2, 30)) or [""]
            lines.append(f"  {name.ljust(name_w)}{body[0]}")
            lines += [f"  {'':{name_w}}{more}" for more in body[1:]]
            if name in examples:
                lines.append(f"  {'':{name_w}}e.g. {examples[name]}")
    return "\n".join(lines)


def top_help(parser: argparse.ArgumentParser, table: Iterable[Command], groups: Iterable[str]
             ) -> str:
    """`a2a --help`: usage, description and options as argparse writes them, then the commands
    by group (argparse's one flat list of them is left out)."""
    formatter = parser._get_formatter()
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    formatter.add_text(parser.description)
    for group in parser._action_groups:
        actions = [a for a in group._group_actions
                   if not isinstance(a, argparse._SubParsersAction)]
        if actions:
            formatter.start_section(group.title)
            formatter.add_arguments(actions)
            formatter.end_section()
    head = formatter.format_help().rstrip("\n")
    return (f"{head}\n{commands_help(parser, table, groups)}\n\n"
            "`a2a COMMAND --help` tells more; the whole reference is docs/reference/cli.md.\n")
