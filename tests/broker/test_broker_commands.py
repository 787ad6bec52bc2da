"""The broker's allow-list covers the whole command table, and a command it does not name is
refused: a command added later fails closed until someone places it (a2a_tui/broker/commands.py
says what each may touch)."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

from a2a_tui.broker import commands
from a2a_tui.cli import COMMANDS, build_parser
from tests.gate.test_gate_docs import ROOT, documented_codes


def test_every_command_is_placed_once_either_run_for_agents_or_refused_with_a_reason():
    paths = set(commands.command_paths(build_parser()).values())
    assert {p.split()[0] for p in paths} == set(COMMANDS)   # the walk reached every command
    placed = set(commands.AGENT) | set(commands.REFUSED)
    assert paths - placed == set(), "place these commands in commands.AGENT or REFUSED"
    assert placed - paths == set(), "these names are no command"
    assert set(commands.AGENT) & set(commands.REFUSED) == set()
    assert all(commands.REFUSED.values())
    assert set(commands.FILE_ARGS) <= commands.AGENT


def test_a_command_nobody_placed_is_refused():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))

    def cmd_new_thing(ctx, args):   # a command added later
        raise AssertionError("never run")

    sub.add_parser("new-thing").set_defaults(func=cmd_new_thing)
    words = commands.command_paths(parser)[cmd_new_thing]
    assert words == "new-thing"
    assert commands.refusal(words) == "not a command a2a runs for an agent"
    assert commands.refusal(None) is not None


def test_the_users_own_commands_and_a2as_processes_are_not_run_for_agents():
    for words in ("say", "approve", "resolve", "target adopt", "target restore", "review override",
                  "store reseal", "store rebuild", "board answer", "init", "serve", "up",
                  "down", "demo", "workbench", "demo-agent", "demo-director"):
        assert commands.refusal(words), words
    for words in ("whoami", "submit", "board report", "inbox post", "card add",
                  "review verdict"):
        assert commands.refusal(words) is None, words
    # An editor, and a file the broker would write where the agent says: never for an agent.
    for words in ("card edit", "store backup", "store restore"):
        assert commands.refusal(words), words


def test_card_new_runs_for_an_agent_only_to_print_the_template():
    parser = build_parser()
    printed = parser.parse_args(["card", "new", "--print"])
    assert commands.refusal("card new", printed) is None
    for argv in (["card", "new"], ["card", "new", "--no-edit", "--file", "/etc/x.toml"]):
        why = commands.refusal("card new", parser.parse_args(argv))
        assert why and "--print" in why, argv


def test_the_file_arguments_name_what_their_commands_read():
    paths = commands.command_paths(build_parser())
    parser = build_parser()
    for words, dest in commands.FILE_ARGS.items():
        argv = {"card add": ["card", "add", "c.toml"],
                "review verdict": ["review", "verdict", "A", "--sha", "x", "--file", "r.md"],
                "retro save": ["retro", "save", "--file", "r.md"]}[words]
        args = parser.parse_args(argv)
        assert paths[args.func] == words
        assert str(getattr(args, dest)) in ("c.toml", "r.md")


def test_every_broker_error_code_has_a_meaning_in_the_docs():
    documented = {code for code in documented_codes() if code.startswith("broker_")}
    raised = set()
    for path in (ROOT / "a2a_tui" / "broker").glob("*.py"):
        raised |= set(re.findall(r'(?:A2AError|fail)\(\s*"([a-z_]+)"', path.read_text()))
        raised |= set(re.findall(r'"code": "([a-z_]+)"', path.read_text()))
    assert {"broker_unavailable", "broker_refused", "broker_peer_mismatch"} <= raised
    assert raised == documented


def test_what_the_broker_loads_before_forking_holds_no_screen_library():
    """The broker imports the command line and what the agent-facing commands use once, before
    its first fork; the workbench's libraries are none of it."""
    code = ("import importlib, sys; from a2a_tui import cli; from a2a_tui.broker.__main__ import"
            " PRELOAD; [importlib.import_module(m) for m in (*PRELOAD, *cli.command_modules())];"
            " print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
