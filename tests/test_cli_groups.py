"""`a2a --help` is grouped the way people work (issue 26): every command is in exactly one group,
the help shows the groups in order with each command under its own, and every example parses."""

from __future__ import annotations

import argparse
import shlex

from a2a_tui.cli import COMMANDS, build_parser
from a2a_tui.cli.groups import EXAMPLES, GROUPS, OTHER, grouped, top_help
from tests.support import a2a


def test_every_command_is_in_exactly_one_group():
    placed = [c for g in GROUPS for c in g.commands]
    twice = {c for c in placed if placed.count(c) > 1}
    assert twice == set(), f"in more than one group: {twice}"
    assert set(placed) - set(COMMANDS) == set(), "groups name commands that do not exist"
    assert set(COMMANDS) - set(placed) == set(), "place these in a group of cli/groups.py"


def test_the_help_shows_each_group_with_its_commands_in_order(tmp_path):
    out = a2a("--help", cwd=tmp_path).out
    at = [out.index(f"\n{g.title}:\n") for g in GROUPS]
    assert at == sorted(at), "groups out of order"
    bounds = [*at, len(out)]
    for i, g in enumerate(GROUPS):
        section = out[bounds[i]:bounds[i + 1]]
        for command in g.commands:
            assert f"\n  {command} " in section, f"{command} is not under '{g.title}'"
    assert "positional arguments" not in out, "the flat list is still shown"


def test_a_command_nobody_placed_shows_under_other_commands():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub.add_parser("new-thing", help="added later")
    assert grouped(parser)[-1] == (OTHER, ["new-thing"])
    assert "\nother commands:\n  new-thing" in top_help(parser)


def test_every_example_parses_as_its_command():
    parser = build_parser()
    for command, example in EXAMPLES.items():
        words = shlex.split(example)
        assert words[:2] == ["a2a", command], example
        args = parser.parse_args(words[1:])
        assert args.command == command and getattr(args, "func", None), example
