"""Only the package `a2a_tui/git/` spells git's argv and only `a2a_tui/tmux.py` spells tmux's.

Every other module calls their named operations (`Git.worktree_add`, `Tmux.attach_argv`, ...).
The scan reads the package's source (docstrings aside, so prose may still say `git update-ref`)
and flags: a list or tuple, or a call, that starts with "git" or "tmux"; a call of `run`, `out`,
`cmd` (or their private forms) whose first argument is a git or tmux subcommand; and any string
naming a hyphenated tmux subcommand (`kill-session`, `attach-session`, ...) or git plumbing
(`rev-parse`, `write-tree`, ...). Tests under tests/ may drive git and tmux directly, as a user.
`test_the_scan_catches_planted_argv` shows each rule firing; run against the tree before the
adapters took every call (main at 7fad071) it lists 21 lines in 8 files: the 17 raw git call
sites, a message naming read-tree, and the tmux commands built in tui/up.py and demo/start.py.

Four files write shell text that *others* run, never a2a itself; they are named in `SHELL_TEXT`
with the reason, and the test checks that each is still needed.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "a2a_tui"
# The one place each tool's argv may be spelled: a module, or a package (a folder, every module in
# it).
OWNER = {"git": "git/", "tmux": "tmux.py"}

GIT_SUBCOMMANDS = {
    "add", "branch", "cat-file", "checkout", "commit", "config", "diff", "fetch", "init",
    "interpret-trailers", "log", "ls-files", "merge", "merge-base", "read-tree", "reset",
    "rev-list", "rev-parse", "show", "status", "symbolic-ref", "update-ref", "worktree",
    "write-tree",
}
GIT_PLUMBING = {c for c in GIT_SUBCOMMANDS if "-" in c}
TMUX_SUBCOMMANDS = {
    "attach", "attach-session", "capture-pane", "delete-buffer", "detach-client",
    "display-message", "has-session", "kill-pane", "kill-server", "kill-session", "list-panes",
    "load-buffer", "new-session", "new-window", "paste-buffer", "rename-window", "select-pane",
    "select-window", "send-keys", "set-hook", "set-option", "show-options", "switch-client",
}
TMUX_HYPHENATED = {c for c in TMUX_SUBCOMMANDS if "-" in c}
RUNNERS = {"run", "_run", "out", "_out", "cmd", "_cmd"}
SHELL_TEXT = {
    ("demo/director.py", "git"): "the demo agents' prompts: `!git ...` lines the agent runs in its"
                                 " own pane, as the user of a real CLI would",
    ("demo_agent/signals.py", "git"): "the demo agent's delivery: the shell line its Bash tool"
                                      " runs in its own pane, as a model would type it",
    ("panes/githooks.py", "git"): "the generated prepare-commit-msg hook: a script git runs"
                                  " inside the agent's own commit",
    ("profiles/permissions.py", "git"): "the git commands an agent CLI lets its session run"
                                        " without asking (its permission rules), never run by a2a",
}


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _str(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def argv_spelled(source: str) -> list[tuple[int, str]]:
    """(line, tool) for each place `source` spells git or tmux argv."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        first = None
        if isinstance(node, (ast.List, ast.Tuple)) and node.elts:
            first = _str(node.elts[0])
        elif isinstance(node, ast.Call) and node.args:
            first = _str(node.args[0])
            if isinstance(node.func, ast.Attribute) and node.func.attr in RUNNERS and first:
                if first in GIT_SUBCOMMANDS:
                    found.append((node.lineno, "git"))
                if first in TMUX_SUBCOMMANDS:
                    found.append((node.lineno, "tmux"))
        if first is not None:
            for tool in OWNER:
                if first == tool or first.startswith(tool + " "):
                    found.append((node.lineno, tool))
        text = _str(node)
        if text is not None and id(node) not in skip:
            words = set(re.findall(r"(?<![\w-])[a-z]+(?:-[a-z]+)+(?![\w-])", text))
            if words & TMUX_HYPHENATED:
                found.append((node.lineno, "tmux"))
            if words & GIT_PLUMBING:
                found.append((node.lineno, "git"))
    return sorted(set(found))


def owns(name: str, tool: str) -> bool:
    """Whether the module `name` (relative to a2a_tui/) is `tool`'s adapter or inside it."""
    owner = OWNER[tool]
    return name.startswith(owner) if owner.endswith("/") else name == owner


def test_only_the_adapters_spell_git_and_tmux_argv():
    offenders, shell_text = [], set()
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        for line, tool in argv_spelled(path.read_text(encoding="utf-8")):
            if owns(name, tool):
                continue
            if (name, tool) in SHELL_TEXT:
                shell_text.add((name, tool))
                continue
            offenders.append(f"a2a_tui/{name}:{line}: {tool} argv")
    assert offenders == [], "\n".join(offenders)
    assert shell_text == set(SHELL_TEXT), "an exemption no longer needed: remove it"


def test_the_adapters_themselves_are_seen_spelling_argv():
    # The scan is not blind: the two adapters do spell their tool's argv (the git package in the
    # modules that start its processes, its runner first), and only their own tool's.
    git = {path.name: {t for _, t in argv_spelled(path.read_text(encoding="utf-8"))}
           for path in (PACKAGE / OWNER["git"]).glob("*.py")}
    assert set().union(*git.values()) == {"git"}, git
    assert git["runner.py"] == {"git"}, git
    assert "tmux" in {t for _, t in argv_spelled((PACKAGE / "tmux.py").read_text())}


@pytest.mark.parametrize("source, tool", [
    ('subprocess.run(["git", "status", "--porcelain"])', "git"),
    ('repo.git.run("rev-parse", "HEAD", cwd=cwd)', "git"),
    ('g.git._run("write-tree", check=False)', "git"),
    ('git.out("worktree", "list", "--porcelain")', "git"),
    ('os.system("git commit -m x")', "git"),
    ('argv = ("git", "-C", str(root), "log")', "git"),
    ('cmd = shlex.join(["tmux", "-L", sock, "attach", "-t", s])', "tmux"),
    ('os.execvp("tmux", argv)', "tmux"),
    ('server.cmd("send-keys", "-t", pane, "Enter")', "tmux"),
    ('text = f"end it with: tmux -L {sock} kill-session -t {name}"', "tmux"),
])
def test_the_scan_catches_planted_argv(source, tool):
    assert tool in {t for _, t in argv_spelled(source)}, source


@pytest.mark.parametrize("source", [
    '"""Moves the branch with `git update-ref`, then reads it back."""',
    'shlex.join([hook, "--spool", spool, "--pane", pane, "tmux"])',  # "tmux" as an argument
    'raise A2AError("x", "attach to tmux to see it")',
    'g.git.worktree_add(path, branch, start)',
])
def test_the_scan_leaves_named_operations_and_prose_alone(source):
    assert argv_spelled(source) == [], source


def test_every_git_process_a2a_starts_is_hardened(repo, monkeypatch):
    """Every git process a2a runs — here through a claim, a verify (its checkout included), an
    integrate and the workbench's diff, in-process — has the hardened environment
    (`a2a_tui/git/env.py` `hardened_env`): no hooks, no fsmonitor, no system or global config, no
    replace refs; only a config read may see the user's own files (and it runs no program)."""
    import subprocess
    import traceback

    from a2a_tui.gate.attempts import ownership as attempts
    from a2a_tui.gate.context import GateContext
    from a2a_tui.gate.integration.advance import integrate
    from a2a_tui.gate.model import Score
    from a2a_tui.gate.reviews.diff import attempt_diff
    from a2a_tui.gate.verification.command import verify
    from a2a_tui.git import HARDENED_CONFIG
    from a2a_tui.identity import Caller
    from a2a_tui.repo import Repo
    from tests.support import add_ready_card, commit_in

    seen: list[tuple[list[str], dict[str, str]]] = []
    real = subprocess.Popen

    class Recording(real):  # type: ignore[misc, valid-type]
        def __init__(self, args, *a, **kw):
            # a2a's own git, told apart from the test's by who started it (never by its env)
            ours = any(f"{os.sep}a2a_tui{os.sep}" in f.filename
                       for f in traceback.extract_stack())
            if list(args)[:1] == ["git"] and ours:
                seen.append((list(args), dict(kw.get("env") or os.environ)))
            super().__init__(args, *a, **kw)

    add_ready_card(repo)
    monkeypatch.setattr(subprocess, "Popen", Recording)
    r = Repo(repo)
    with r.store() as store:
        g = GateContext(r, store, Caller())
        att = attempts.claim(g, "T-1")
        sha = commit_in(repo / ".a2a/worktrees" / att.attempt, {"src/app.py": "v = 2\n"})
        attempts.submit(g, att.attempt, sha, att.card_version, att.fence)
        assert verify(g, att.attempt).verdict == "passed"
        attempt_diff(r, store, att.attempt)
        integrate(g, att.attempt, Score(3, "in", 2, "fine"))
    ours = seen
    assert len(ours) > 20
    # The clone's import (pack-objects, index-pack) is among them.
    assert {"pack-objects", "index-pack"} <= {argv[1] for argv, _ in ours}
    for argv, env in ours:
        if argv[1:3] == ["config", "--global"] or argv[1:3] == ["config", "--get"]:
            assert "GIT_DIR" not in env and "GIT_CONFIG_COUNT" not in env, argv
            continue
        given = {(env.get(f"GIT_CONFIG_KEY_{i}"), env.get(f"GIT_CONFIG_VALUE_{i}"))
                 for i in range(int(env.get("GIT_CONFIG_COUNT", "0")))}
        assert set(HARDENED_CONFIG) <= given, (argv, "not hardened")
        assert env["GIT_CONFIG_NOSYSTEM"] == "1" and env["GIT_CONFIG_GLOBAL"] == os.devnull
        assert env["GIT_NO_REPLACE_OBJECTS"] == "1", argv
