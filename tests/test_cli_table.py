"""The commands are one table (a2a_tui/cli/table.py): every entry is whole (its function
exists, its parent comes first, a top-level command has a group), every `cmd_*` function is
named by it, `a2a --help` shows the groups in order with each command under its own, and every
example parses (issues 23, 26)."""

from __future__ import annotations

import argparse
import importlib
import inspect
import shlex

import pytest

from a2a_tui.cli import COMMANDS, build_parser, command_modules
from a2a_tui.cli.helptext import OTHER, grouped, top_help
from a2a_tui.cli.spec import Ref
from a2a_tui.cli.table import GROUPS, TABLE
from tests.support import a2a


def test_each_entry_is_whole():
    names = [c.name for c in TABLE]
    assert len(names) == len(set(names)), "a command twice in the table"
    for i, c in enumerate(TABLE):
        parent = " ".join(c.words[:-1])
        if parent:
            assert parent in names[:i], f"`{c.name}` comes before its parent"
            assert TABLE[names.index(parent)].subs, f"`{parent}` has no subs for `{c.name}`"
            assert not c.group and not c.example, f"`{c.name}`: a subcommand has no group"
        else:
            assert c.group in GROUPS, f"`{c.name}`: place it in a group of cli/table.py"
        assert c.func or c.subs, f"`{c.name}` runs nothing and holds nothing"
        if c.func:
            assert callable(Ref(c.func).resolve()), c.func
            # One module per command: `a2a CMD` imports that one alone (tests/test_startup.py).
            assert c.func.split(":")[0] == COMMANDS[c.top], f"`{c.name}` outside its module"


def test_every_command_function_is_in_the_table():
    named = {Ref(c.func).resolve() for c in TABLE if c.func}
    for module in map(importlib.import_module, command_modules()):
        for name, func in inspect.getmembers(module, inspect.isfunction):
            if name.startswith("cmd_") and func.__module__ == module.__name__:
                assert func in named, f"{module.__name__}.{name} is in no table entry"


def test_the_help_shows_each_group_with_its_commands_in_order(tmp_path):
    out = a2a("--help", cwd=tmp_path).out
    at = [out.index(f"\n{title}:\n") for title in GROUPS]
    assert at == sorted(at), "groups out of order"
    bounds = [*at, len(out)]
    for i, title in enumerate(GROUPS):
        section = out[bounds[i]:bounds[i + 1]]
        mine = [c.name for c in TABLE if c.group == title]
        assert [n for n in mine if f"\n  {n} " in section] == mine, f"not all under '{title}'"
        places = [section.index(f"\n  {n} ") for n in mine]
        assert places == sorted(places), f"'{title}' not in the table's order"
    assert "positional arguments" not in out, "the flat list is still shown"


def test_a_command_nobody_placed_shows_under_other_commands():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub.add_parser("new-thing", help="added later")
    assert grouped(parser, TABLE, GROUPS)[-1] == (OTHER, ["new-thing"])
    assert "\nother commands:\n  new-thing" in top_help(parser, TABLE, GROUPS)


def test_every_example_parses_as_its_command():
    parser = build_parser()
    examples = {c.name: c.example for c in TABLE if c.example}
    assert len(examples) >= 15
    for command, example in examples.items():
        words = shlex.split(example)
        assert words[:2] == ["a2a", command], example
        args = parser.parse_args(words[1:])
        assert args.command == command and getattr(args, "func", None), example


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_one_commands_parser_is_the_whole_parsers_part(command):
    # `a2a CMD` builds CMD's entries alone: what it builds is what the whole parser has for it.
    def subparser(parser):
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return sub.choices

    one, whole = subparser(build_parser(command)), subparser(build_parser())
    assert list(one) == [command]
    assert one[command].format_help() == whole[command].format_help()
