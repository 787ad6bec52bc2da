"""What the agent-facing commands import: nothing heavy (bench/bench_cli.py times them).

Agents run `a2a submit`, `inbox post`, `board ask|report`, `say`, `whoami`, `status` and
`sessions` many times a turn, and each call pays for its imports. Each command runs here as a
real subprocess through its real entry point, in a repository with a claimed card and live
managed sessions (so identity has processes to compare). A `sitecustomize` on the test's
PYTHONPATH writes the process's `sys.modules` at exit. None of HEAVY may be among them, nor
another command module than the command's own (`a2a CMD` builds only CMD's entries of the
command table, a2a_tui/cli/table.py).

Adding `import pydantic` to `a2a_tui/cli/output.py` makes `test_agent_commands_import_nothing_heavy`
fail for every command; building the whole parser for every command (`build_parser()` in `main`)
makes it fail with the other `*_cmds` modules.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from a2a_tui.cli import COMMANDS, build_parser, command_in
from tests.support import a2a, a2a_as, commit_in, register_session, write_card

HEAVY = ("pydantic", "pydantic_core", "textual", "rich", "libtmux", "importlib.metadata",
         "hypothesis", "watchfiles", "tomli_w", "tomllib", "a2a_tui.tui")
# psutil is for identity: a command that never asks who calls does not load it.
NO_CALLER = {"sessions"}
# Who calls is not what was said: `whoami` loads none of the collaboration records.
NO_COLLAB = {"whoami", "whoami as a session", "sessions"}


HOOK = """\
import atexit, os, sys
def _dump(path=os.environ["A2A_TEST_MODULES"]):
    with open(path, "w") as f:
        f.write("\\n".join(sorted(sys.modules)))
atexit.register(_dump)
"""


@pytest.fixture
def profile(tmp_path):
    """`env` for a command run, and `modules()`: what that run had imported when it exited."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(HOOK)
    out = tmp_path / "modules.txt"

    class Profile:
        env = {"PYTHONPATH": str(hook), "A2A_TEST_MODULES": str(out)}

        @staticmethod
        def modules() -> set[str]:
            found = set(out.read_text().splitlines())
            out.unlink()
            return found

    return Profile()


def heavy_in(mods: set[str], command: str) -> list[str]:
    """The heavy modules among `mods`, and other command modules than `command`'s own."""
    forbidden = (HEAVY + (("psutil",) if command in NO_CALLER else ())
                 + (("a2a_tui.collab",) if command in NO_COLLAB else ()))
    own = f"a2a_tui.cli.{COMMANDS[command.split()[0]]}"
    return sorted(m for m in mods
                  if any(m == h or m.startswith(h + ".") for h in forbidden)
                  or (m.endswith("_cmds") and m != own))


@pytest.fixture
def claimed(repo):
    """A claimed card with a commit to submit; an ideation and an executive session, alive."""
    card = write_card(repo, "T-1")
    for args in (("card", "add", str(card)), ("card", "ready", "T-1")):
        assert a2a(*args, cwd=repo).code == 0
    panes = [subprocess.Popen(["sleep", "120"]) for _ in range(2)]
    register_session(repo, "i1", "ideation", panes[0].pid)
    register_session(repo, "x1", "executive", panes[1].pid)
    claim = a2a("claim", "T-1", "--json", cwd=repo).json
    sha = commit_in(Path(claim["worktree"]), {"src/app.py": "x = 1\n"})
    yield repo, claim, sha
    for p in panes:
        p.kill()
        p.wait()


def test_agent_commands_import_nothing_heavy(claimed, profile):
    repo, claim, sha = claimed
    env = profile.env
    runs = {
        "whoami": lambda: a2a("whoami", cwd=repo, env=env),
        "status": lambda: a2a("status", cwd=repo, env=env),
        "sessions": lambda: a2a("sessions", cwd=repo, env=env),
        "say": lambda: a2a("say", "hello", cwd=repo, env=env),
        "submit": lambda: a2a("submit", claim["attempt"], "--sha", sha, "--card-version", "1",
                              "--fence", str(claim["fence"]), cwd=repo, env=env),
        "inbox post": lambda: a2a_as(repo, "x2", "executive", "inbox", "post", "report",
                                     "--text", "done", "--card", "T-1", "--status", "PASS",
                                     env=env),
        "board ask": lambda: a2a_as(repo, "x3", "executive", "board", "ask", "--title", "Which?",
                                    "--option", "a=one", "--option", "b=two", "--recommend", "a",
                                    "--why", "w", env=env),
        "board report": lambda: a2a_as(repo, "w1", "worker", "board", "report", "--title",
                                       "Flaky", "--body", "it flakes", env=env),
        "whoami as a session": lambda: a2a_as(repo, "w2", "worker", "whoami", env=env),
    }
    found = {}
    for name, run_it in runs.items():
        run = run_it()
        assert run.code == 0, f"a2a {name}: {run.out}{run.err}"
        mods = profile.modules()
        assert "a2a_tui.cli" in mods  # the hook really ran
        if heavy := heavy_in(mods, name):
            found[name] = heavy
        if name == "whoami as a session":
            assert "session w2 (worker)" in run.out
    assert found == {}


def test_the_console_script_imports_as_little(claimed, profile):
    repo, _claim, _sha = claimed
    script = Path(sys.executable).parent / "a2a"
    if not script.exists():
        pytest.skip("no console script beside this interpreter (the package is not installed)")
    run = subprocess.run([str(script), "whoami"], cwd=repo, capture_output=True, text=True,
                         env={**os.environ, **profile.env})
    assert run.returncode == 0, run.stderr
    assert heavy_in(profile.modules(), "whoami") == []


def test_the_check_sees_a_heavy_import(claimed, profile):
    # `card show` parses the card with pydantic: the same check must name it.
    repo, _claim, _sha = claimed
    assert a2a("card", "show", "T-1", cwd=repo, env=profile.env).code == 0
    assert "pydantic" in heavy_in(profile.modules(), "card")


@pytest.mark.parametrize("argv, command", [
    (["submit", "A"], "submit"), (["--json", "inbox", "post"], "inbox"),
    (["--repo", "/r", "whoami"], "whoami"), (["--repo=/r", "sessions"], "sessions"),
    ([], None), (["--help"], None), (["-h", "whoami"], None), (["--js", "whoami"], None),
    (["--version"], None), (["nope"], None), (["--repo", "whoami"], None),
    (["--", "whoami"], None),
])
def test_only_spelled_out_options_before_a_known_command_take_the_short_way(argv, command):
    assert command_in(argv) == command


def test_help_lists_every_command_with_its_help(repo):
    full = build_parser()
    sub = next(a for a in full._actions if isinstance(a, argparse._SubParsersAction))
    helps = {c.dest: c.help for c in sub._choices_actions}
    assert set(helps) == set(COMMANDS)
    for argv in (["--help"], []):
        out = a2a(*argv, cwd=repo).out
        for name, text in helps.items():
            assert name in out and " ".join(text.split()[:3]) in " ".join(out.split())
