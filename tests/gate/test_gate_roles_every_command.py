"""A role rule for every command: the one table (`a2a_tui/gate/roles.py`) has a row for each
command the CLI has, `a2a rules` prints it, and a caller it does not name gets `role_forbidden`
(recorded). Pane and session commands included: a reviewer may not spawn, inject or pause;
options after `--` that set a CLI's permissions are the user's alone.
"""

from __future__ import annotations

import argparse
import json

import pytest

from a2a_tui.cli import build_parser
from a2a_tui.gate.roles import EVERYONE, ROLE_TABLE, USER
from tests.support import a2a, a2a_as, events


def _leaves(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()):
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield " ".join(words)
        return
    sub = subs[0]
    if not sub.required and words:       # `gate-rules` alone, `config` alone: a command too
        yield " ".join(words)
    for name, child in sub.choices.items():
        yield from _leaves(child, (*words, name))


def test_every_command_of_the_cli_has_a_row():
    leaves = set(_leaves(build_parser()))
    assert "session new" in leaves and "spawn" in leaves and "pause" in leaves  # the walk works
    missing = sorted(w for w in leaves if w not in ROLE_TABLE)
    assert missing == [], f"commands with no role rule: {missing}"
    extra = sorted(set(ROLE_TABLE) - leaves - {"spawn permission options", "comment list",
                                               "inject own"})
    assert extra == [], f"rows for no command: {extra}"


def test_a2a_rules_prints_every_row(repo):
    shown = a2a("rules", "--json", cwd=repo).json["gate_roles"]
    assert {r["command"] for r in shown} == set(ROLE_TABLE)
    text = a2a("rules", cwd=repo).out
    for command in ("spawn", "session new", "inject", "pause", "release", "target show"):
        assert f"  {command} " in text, command


@pytest.mark.parametrize("args", [
    ("spawn", "worker", "--cli", "demo"),
    ("session", "new", "worker", "--cli", "demo"),
    ("session", "fork", "w5"),
    ("session", "revive", "w5"),
    ("session", "restart", "w5"),
    ("session", "end", "w5", "--yes"),
    ("inject", "w5", "!id"),
    ("pause", "exec1"),
    ("resume", "exec1"),
    ("release", "exec1"),
    ("gate-rules", "accept"),
])
def test_a_reviewer_is_refused_pane_and_session_commands(repo, args):
    r = a2a_as(repo, "r1", "reviewer", *args, "--json")
    assert r.code != 0 and json.loads(r.out)["error"]["code"] == "role_forbidden", r.out + r.err
    refused = events(repo)[-1]
    assert refused.kind == "role_forbidden" and refused.session == "r1"
    assert refused.payload["command"] == " ".join(a for a in args[:2] if not a.startswith("-")
                                                  and a not in ("worker", "w5", "exec1", "!id"))


def test_permission_options_after_dashes_are_the_users_alone(repo):
    r = a2a_as(repo, "exec1", "executive", "spawn", "worker", "--cli", "claude", "--attempt",
               "T-9-a1", "--json", "--", "--dangerously-skip-permissions")
    err = json.loads(r.out)["error"]
    assert err["code"] == "role_forbidden" and "--dangerously-skip-permissions" in err["message"]
    # Without them the executive may spawn (this one fails later, on its unknown attempt).
    r = a2a_as(repo, "exec2", "executive", "spawn", "worker", "--cli", "demo", "--attempt",
               "T-9-a1", "--json")
    assert json.loads(r.out)["error"]["code"] != "role_forbidden", r.out


def test_reads_are_open_and_the_table_says_so():
    for command in ("target show", "config show", "status", "rules", "whoami", "card show"):
        assert ROLE_TABLE[command] == (EVERYONE,), command
    for command in ("pause", "resume", "release", "gate-rules accept", "approve"):
        assert ROLE_TABLE[command] == (USER,), command
    assert set(ROLE_TABLE["spawn"]) == {USER, "executive"}
