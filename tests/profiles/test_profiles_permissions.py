"""Narrow allow-lists per CLI: each role runs named a2a commands (those the role table gives it)
and a worker named git subcommands without being asked; never `git *` or `a2a *` (which let
`git -c alias.x='!sh …' x`, `git config` or any a2a command through); a git command with
`--output` (which writes any file) is refused; a reviewer or controller runs no git at all.
How the real CLIs read these rules is measured in tests/real_cli/test_real_permissions.py.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from a2a_tui.gate.roles import EVERYONE, ROLE_TABLE, WRITER
from a2a_tui.profiles import permissions

ROLES = ("worker", "reviewer", "ideation", "executive", "retro")


def _claude_rules(role: str) -> tuple[list[str], list[str]]:
    args = list(permissions.claude(role, Path("/run/x")).args)
    allowed = args[args.index("--allowedTools") + 1].split(",")
    denied = (args[args.index("--disallowedTools") + 1].split(",")
              if "--disallowedTools" in args else [])
    return allowed, denied


def _gemini_rules(role: str) -> list[dict]:
    p = permissions.gemini(role, Path("/run/x"))
    return tomllib.loads(p.files[permissions.GEMINI_POLICY])["rule"]


@pytest.mark.parametrize("role", ROLES)
def test_no_rule_lets_every_git_or_a2a_command_through(role):
    allowed, _ = _claude_rules(role)
    assert not {"Bash(git *)", "Bash(a2a *)", "Bash", "Bash(*)"} & set(allowed), allowed
    for rule in _gemini_rules(role):
        for prefix in rule.get("commandPrefix", []):
            assert prefix.split() not in (["git"], ["a2a"]) and len(prefix.split()) >= 2, prefix
    for command in permissions.commands(role):
        tool, sub = command.split()[:2]
        assert tool in ("git", "a2a") and not sub.startswith("-"), command   # no `git -c`
        assert sub not in ("config", "-c", "alias", "submodule", "push", "fetch", "remote",
                           "hook", "daemon", "credential"), command


@pytest.mark.parametrize("role", ROLES)
def test_every_a2a_command_allowed_unasked_is_one_the_role_table_gives_the_role(role):
    for command in permissions.A2A_COMMANDS[role]:
        row = ROLE_TABLE[command.removeprefix("a2a ")]
        assert EVERYONE in row or role in row or (role == "worker" and WRITER in row), command


def test_reviewers_and_controllers_run_no_git_and_read_through_a2a():
    for role in ("reviewer", "ideation", "executive", "retro"):
        cmds = permissions.commands(role)
        assert not [c for c in cmds if c.startswith("git")], role
        assert {"a2a diff", "a2a show"} <= set(cmds), role
    assert "a2a submit" in permissions.commands("worker")
    assert "a2a review verdict" in permissions.commands("reviewer")
    assert "a2a spawn" in permissions.commands("executive")
    assert "a2a spawn" not in permissions.commands("reviewer")


@pytest.mark.parametrize("role", ROLES)
def test_a_git_command_with_output_is_refused_above_every_allow(role):
    _, denied = _claude_rules(role)
    if role == "worker":
        assert "Bash(git *--output*)" in denied
    rules = _gemini_rules(role)
    deny = next(r for r in rules if r["decision"] == "deny" and "argsPattern" in r
                and "git" in r["argsPattern"])
    assert deny["priority"] > max(r["priority"] for r in rules if r["decision"] == "allow")
    pattern = re.compile(deny["argsPattern"])
    for js in (dict(separators=(",", ":")), {}):    # JSON.stringify's, and with spaces
        assert pattern.search(json.dumps({"command": "git log -p --output=/tmp/x"}, **js))
        assert pattern.search(json.dumps({"command": "cd src && git diff --output x"}, **js))
        assert not pattern.search(json.dumps({"command": "git log -1"}, **js))
