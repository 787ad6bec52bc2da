"""Role cards only name commands; the rules live in the commands and in `a2a rules ROLE`."""

from __future__ import annotations

import re

import pytest

from a2a_tui.cli import build_parser
from a2a_tui.collab.roles import ROLES, role_rules
from a2a_tui.resources import rolecards_dir
from tests.support import a2a


@pytest.mark.parametrize("role", ROLES)
def test_rules_role_prints_that_roles_rules(repo, role):
    r = a2a("rules", role, "--json", cwd=repo)
    assert r.code == 0, r.err
    assert r.json["rules"] == role_rules(role)
    text = a2a("rules", role, cwd=repo).out
    assert all(rule in text for rule in role_rules(role))


def test_rules_without_a_role_are_the_callers_own(repo, panes):
    exe = panes.open("exe1", "executive")
    assert exe.run("rules", "--json").json["rules"] == role_rules("executive")
    everything = a2a("rules", "--json", cwd=repo).json  # the user: every role, command, right
    assert everything["roles"]["executive"] == role_rules("executive")
    assert a2a("rules", "nobody", "--json", cwd=repo).json["error"]["code"] == "unknown_topic"
    assert a2a("rules", "claim", "--json", cwd=repo).json["rules"]  # a command's rules too


def _commands(parser) -> dict[str, set[str]]:
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    out = {}
    for name, p in sub.choices.items():
        subs = [a for a in p._actions if a.__class__.__name__ == "_SubParsersAction"]
        # A command that also runs alone (`a2a profile`) may be named without a subcommand.
        alone = {""} if subs and not subs[0].required else set()
        out[name] = set(subs[0].choices) | alone if subs else set()
    return out


@pytest.mark.parametrize("role", ROLES)
def test_each_role_card_is_short_and_names_only_real_commands(role):
    text = (rolecards_dir() / f"{role}.md").read_text()
    assert len(text.splitlines()) <= 25
    assert f"`a2a rules {role}`" in text
    known = _commands(build_parser())
    named = re.findall(r"`a2a ([a-z-]+)(?: ([a-z|]+))?", text)
    assert named
    for cmd, sub in named:
        assert cmd in known, f"{role}.md names `a2a {cmd}`, which does not exist"
        if known[cmd]:
            for s in sub.split("|"):
                assert s in known[cmd], f"{role}.md names `a2a {cmd} {s}`, which does not exist"


def test_commands_print_their_rules(repo, plain_card):
    r = a2a("inbox", "post", "assign", "--card", plain_card, "--text", "go", "--json", cwd=repo)
    assert any("verbatim" in x for x in r.json["rules"])
    assert "rules:" in a2a("board", "report", "--title", "t", "--body", "b", cwd=repo).out
