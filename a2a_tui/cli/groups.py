"""`a2a --help` grouped the way people work (git's `git help` is the model): start and look
around; tasks through the gate; the controllers and the board; sessions and panes; the record
and metrics. Each group names its commands in the order a person meets them, with a one-line
example for the common ones.

Every command of the parser is in exactly one group (tests/test_cli_groups.py): a command added
later shows under "other commands" until it is placed here, and that test fails until it is.
The generated CLI reference (docs/generate.py) follows the same groups.
"""

from __future__ import annotations

import argparse
import shutil
import textwrap
from dataclasses import dataclass


@dataclass(frozen=True)
class Group:
    """A heading of `a2a --help` and the commands under it (the words after `a2a`)."""

    title: str
    commands: tuple[str, ...]


GROUPS: tuple[Group, ...] = (
    Group("start and look around",
          ("init", "up", "demo", "status", "whoami", "rules", "config", "down", "workbench")),
    Group("tasks through the gate",
          ("card", "claim", "submit", "verify", "log", "review", "comment", "approve",
           "integrate", "abandon", "reclaim", "feedback", "gate-rules", "target", "recover",
           "resolve")),
    Group("talk to the controllers and answer the board",
          ("say", "board", "inbox", "attention", "input")),
    Group("sessions and panes",
          ("session", "sessions", "inject", "pause", "resume", "release", "spawn", "serve",
           "demo-agent", "demo-director")),
    Group("the record and metrics", ("events", "metrics", "retro", "store")),
)

# One line each, for the commands people type most; each parses (tests/test_cli_groups.py).
EXAMPLES: dict[str, str] = {
    "init": "a2a init",
    "up": "a2a up",
    "demo": "a2a demo",
    "status": "a2a status",
    "card": "a2a card new",
    "claim": "a2a claim T-1",
    "submit": "a2a submit T-1-a1 --sha <sha> --card-version 1 --fence 1",
    "verify": "a2a verify T-1-a1",
    "review": "a2a review start T-1-a1 --cli codex",
    "integrate": 'a2a integrate T-1-a1 --score boundary=3:"in scope" --score taste=2:"clear"',
    "say": 'a2a say "T-2 can wait until Monday"',
    "board": "a2a board answer Q-1 --adopt",
    "session": "a2a session new worker --cli claude --attempt T-1-a1 --assign",
    "inject": 'a2a inject w1 "run the tests again"',
    "release": "a2a release w1",
    "events": "a2a events --tail 20",
    "metrics": "a2a metrics first-pass --since 7d",
    "store": "a2a store verify",
}

OTHER = "other commands"
WIDTH = 100


def group_of(command: str) -> str:
    """The title of the group `command` is in, or OTHER."""
    return next((g.title for g in GROUPS if command in g.commands), OTHER)


def subcommands(parser: argparse.ArgumentParser) -> dict[str, str]:
    """The parser's commands and their one-line help, in the order they were added."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {a.dest: a.help or "" for a in action._choices_actions}
    return {}


def grouped(parser: argparse.ArgumentParser) -> list[tuple[str, list[str]]]:
    """(title, commands) per group, each command once; commands in no group come last."""
    found = subcommands(parser)
    out = [(g.title, [c for c in g.commands if c in found]) for g in GROUPS]
    placed = {c for _title, commands in out for c in commands}
    rest = [c for c in found if c not in placed]
    return [(t, cs) for t, cs in out if cs] + ([(OTHER, rest)] if rest else [])


def commands_help(parser: argparse.ArgumentParser) -> str:
    """The grouped command list of `a2a --help`: each command, its help, and its example."""
    found = subcommands(parser)
    width = min(WIDTH, shutil.get_terminal_size((WIDTH, 24)).columns) - 2
    name_w = max(map(len, found), default=0) + 2
    lines: list[str] = []
    for title, commands in grouped(parser):
        lines += ["", f"{title}:"]
        for name in commands:
            body = textwrap.wrap(found[name], max(width - name_w - 2, 30)) or [""]
            lines.append(f"  {name.ljust(name_w)}{body[0]}")
            lines += [f"  {'':{name_w}}{more}" for more in body[1:]]
            if name in EXAMPLES:
                lines.append(f"  {'':{name_w}}e.g. {EXAMPLES[name]}")
    return "\n".join(lines)


def top_help(parser: argparse.ArgumentParser) -> str:
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
    return (f"{head}\n{commands_help(parser)}\n\n"
            "`a2a COMMAND --help` tells more; the whole reference is docs/reference/cli.md.\n")
