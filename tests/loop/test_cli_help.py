"""Every option and argument of every command has help text (`a2a COMMAND --help` explains
each), and every command says what it does."""

from __future__ import annotations

import argparse

from a2a_tui.cli import build_parser


def commands(parser: argparse.ArgumentParser, path: str = "a2a"):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {c.dest: c.help for c in action._choices_actions}
            for name, sub in action.choices.items():
                assert helps.get(name), f"`{path} {name}` has no help line"
                yield from commands(sub, f"{path} {name}")


def test_every_option_of_every_command_has_help():
    missing = []
    for path, parser in commands(build_parser()):
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._VersionAction,
                                   argparse._SubParsersAction)):
                continue
            if not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{path} {'/'.join(action.option_strings) or action.dest}")
    assert not missing, "no help text: " + ", ".join(missing)
