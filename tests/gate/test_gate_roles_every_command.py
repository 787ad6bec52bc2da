"""A role rule for every command: the one table (`a2a_tui/gate/roles.py`) has a row for each
command the CLI has, `a2a rules` prints it, and a caller it does not name gets `role_forbidden`
(recorded). Pane and session commands included: a reviewer may not spawn, inject or pause;
options after `--` that set a CLI's permissions are the user's alone.
"""

from __future__ import annotations

import json

import pytest

from a2a_tui.cli import build_parser, command_paths
from a2a_tui.gate.roles import EVERYONE, QUALIFIERS, ROLE_TABLE, USER
from tests.support import a2a, a2a_as, events


def test_every_command_of_the_cli_has_a_row():
    # Named as the CLI's entry check and the broker name them: by the words of each command's
    # function in the parser (`a2a config` runs `config show`).
    leaves = set(command_paths(build_parser()).values())
    assert "session new" in leaves and "spawn" in leaves and "pause" in leaves  # the walk works
    missing = sorted(w for w in leaves if w not in ROLE_TABLE)
    assert missing == [], f"commands with no role rule: {missing}"
    extra = sorted(set(ROLE_TABLE) - leaves - QUALIFIERS)
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


# Every other row a reviewer is not in, with arguments that parse; the gate's rows are
# tests/gate/test_gate_roles.py's (they need an attempt).
REFUSED_TO_A_REVIEWER = {
    "card new": ("card", "new", "--no-edit"),
    "card edit": ("card", "edit", "T-1"),
    "store backup": ("store", "backup", "b.db"),
    "store restore": ("store", "restore", "../b.db"),
    "store rebuild": ("store", "rebuild"),
    "store reseal": ("store", "reseal", "--reason", "x"),
    "feedback more": ("feedback", "more", "T-1-a1", "--rounds", "1"),
    "comment": ("comment", "T-1-a1", "--file", "a.py", "--line", "1", "--text", "x"),
    "say": ("say", "hello"),
    "input confirm": ("input", "confirm", "U-1"),
    "board answer": ("board", "answer", "Q-1", "--adopt"),
    "board send": ("board", "send"),
    "board ask": ("board", "ask", "--title", "t", "--option", "a=A", "--option", "b=B",
                  "--recommend", "a", "--why", "w"),
    "board close": ("board", "close", "F-1", "--reason", "x"),
    "inbox post": ("inbox", "post", "assign", "--card", "T-1", "--text", "b"),
    "retro": ("retro", "--cli", "demo"),
    "retro save": ("retro", "save", "--file", "r.md"),
    "init": ("init",),
    "serve": ("serve",),
    "down": ("down", "--yes"),
    "demo-director": ("demo-director",),
    "profile confirm": ("profile", "confirm"),
}


def test_the_table_names_every_command_a_reviewer_is_refused_here_or_elsewhere():
    from a2a_tui.gate.roles import GATE_ROLES, QUALIFIERS, allows
    from a2a_tui.identity import Caller

    reviewer = Caller(session="r1", role="reviewer")
    refused = {c for c in ROLE_TABLE if not allows(c, reviewer)} - QUALIFIERS
    here = {" ".join(a[:2]) if len(a) > 1 and not a[1].startswith("-") else a[0]
            for a in _REVIEWER_ARGS}
    assert refused - set(GATE_ROLES) - here - set(REFUSED_TO_A_REVIEWER) <= {
        "up", "workbench", "demo"}   # these attach a terminal: their refusal is below


_REVIEWER_ARGS = [
    ("spawn",), ("session", "new"), ("session", "fork"), ("session", "revive"),
    ("session", "restart"), ("session", "end"), ("inject",), ("pause",), ("resume",),
    ("release",), ("gate-rules", "accept")]


@pytest.mark.parametrize("command", sorted(REFUSED_TO_A_REVIEWER))
def test_a_reviewer_is_refused_every_command_the_table_does_not_give_it(repo, command):
    if command == "board close":
        assert a2a("board", "report", "--title", "t", "--body", "b", cwd=repo).code == 0
    if command == "store restore":
        assert a2a("store", "backup", str(repo.parent / "b.db"), cwd=repo).code == 0
    r = a2a_as(repo, "r1", "reviewer", *REFUSED_TO_A_REVIEWER[command], "--json")
    assert r.code != 0, r.out + r.err
    err = json.loads(r.out)["error"]
    # The role table's refusal at entry, or the command's own (the user's alone, or the
    # collaboration rules of collab/roles.py), before it touches anything.
    assert err["code"] in ("role_forbidden", "user_only", "ask_not_allowed",
                           "close_not_allowed", "kind_not_allowed"), err


@pytest.mark.parametrize("args", [("up", "--no-attach"), ("workbench",), ("demo", "--no-attach")])
def test_a_reviewer_starts_no_workbench_orchestrator_or_demo(repo, args):
    r = a2a_as(repo, "r1", "reviewer", *args, "--json")
    assert r.code != 0 and json.loads(r.out)["error"]["code"] == "role_forbidden", r.out
