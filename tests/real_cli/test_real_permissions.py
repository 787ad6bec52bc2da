"""Permission layers per role (issue 14), enforced by each real CLI itself.

A reviewer session that is asked by its model to write a file is stopped by the CLI (no file,
no dialog); a worker's edits, commits and `a2a` calls need no dialog (also shown through the
whole gate in test_real_gate.py). The launch record and the role card say what was given.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from a2a_tui.profiles import permissions
from tests.real_cli.fakemodel import Reply
from tests.real_cli.harness import World, mark, needs_safe_folder, shell_call, write_call
from tests.real_cli.isolation import require
from tests.real_cli.test_real_gate import claim
from tests.support import git

require()
pytestmark = pytest.mark.real_cli

CLI_NAMES = ("claude", "codex", "gemini")
CLIS = ["claude", "codex", pytest.param("gemini", marks=needs_safe_folder())]
# What each CLI answers the model when it refuses a write (measured).
REFUSED = {"claude": "denied", "gemini": "denied by policy",
           "codex": "writing outside of the project; rejected by user approval settings"}
# Codex's edit tool, through its shell, on a full path.
CODEX_PATCH = ("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: {path}\n+mine\n"
               "*** End Patch\nEOF\n")
REFUSED_SHELL = {**REFUSED, "codex": "Read-only file system"}


def granted(w: World, cli: str, role: str, sid: str) -> permissions.Permissions:
    run_dir = w.repo / ".a2a" / "run" / sid
    out = run_dir / "out"                  # what a read-only role may write (its results)
    return {"claude": lambda: permissions.claude(role, out),
            "codex": lambda: permissions.codex(role, w.repo, writes_cwd=False, own_folder=out),
            "gemini": lambda: permissions.gemini(role, run_dir, writes_in=out)}[cli]()


def start(w: World, panes: list[str], cli: str, role: str) -> dict:
    # Codex signals nothing before its first turn ends: a first prompt makes the pane idle.
    first = [f"say hello {mark('HELLO')}"] if cli == "codex" else []
    return w.start(panes, cli, *first, role=role, timeout=60)


@pytest.mark.parametrize("cli", CLIS)
def test_a_reviewer_that_tries_to_write_a_file_is_stopped_by_the_cli(world, panes, cli):
    s = start(world, panes, cli, "reviewer")
    sid = s["session"]
    by_shell, by_tool = (f"by-the-{cli}-reviewers-{how}.txt" for how in ("shell", "tool"))
    m = mark("WRITE")
    # Into the repository by its full path (a Codex reviewer's working root is its own folder).
    world.fm.script(m, Reply(text="Writing.", tool=shell_call(
                        cli, f"echo mine > {world.repo / by_shell}")),
                    Reply(text="Again.", tool=write_call(cli, world.repo, by_tool, "mine\n")
                          if cli != "codex" else shell_call(cli, CODEX_PATCH.format(
                              path=world.repo / by_tool))),
                    Reply(text="done"))
    n = world.inject(sid, f"write the files {m}")
    # Refused, with no dialog: Codex's `workspace-write` root is the reviewer's own folder
    # (issue 35, finding 11), and a2a's confinement keeps the repository read-only.
    world.wait_dispatch(n, "done", timeout=60)
    assert [p for p in world.signals(sid) if p["to"] == "waiting"] == []
    answers = [r for r in world.fm.turns() if m in r.text][-1].tool_results
    assert REFUSED[cli] in answers[-1], answers
    assert REFUSED_SHELL[cli] in answers[0], answers
    assert not (world.repo / by_shell).exists() and not (world.repo / by_tool).exists()

    given = world.events("session_launching", session=sid)[0].payload["permissions"]
    expected = granted(world, cli, "reviewer", sid)
    assert given == {"args": list(expected.args), "description": expected.description}
    if cli != "gemini":  # Gemini takes no role card (FINDINGS.md)
        assert f"Permissions in this session: {given['description']}." in " ".join(s["argv"])


@pytest.mark.parametrize("cli", CLIS)
def test_a_worker_edits_commits_and_runs_a2a_without_a_dialog(world, panes, cli):
    # A worker writes in its attempt's clone: its confinement binds the repository read-only
    # (test_real_boundary.py). The same grants carry a task through the gate (test_real_gate.py).
    att = claim(world, f"T-{10 + CLI_NAMES.index(cli)}", cli)
    clone = Path(att["worktree"])
    first = [f"say hello {mark('HELLO')}"] if cli == "codex" else []
    sid = world.start(panes, cli, *first, attempt=att["attempt"], timeout=60)["session"]
    m = mark("COMMIT")
    world.fm.script(
        m, Reply(text="Writing.", tool=write_call(cli, clone, f"{cli}.txt", "w\n")),
        Reply(text="Committing.", tool=shell_call(cli, f"git add {cli}.txt && git commit -q"
                                                       f" -m 'worker {cli}'")),
        Reply(text="Asking a2a.", tool=shell_call(cli, "a2a whoami")),
        Reply(text="done"))
    n = world.inject(sid, f"commit it {m}")
    world.wait_dispatch(n, "done", timeout=60)
    assert [p for p in world.signals(sid) if p["to"] == "waiting"] == []
    assert world.turns_with(cli, m)
    said = [r for r in world.fm.turns() if m in r.text][-1].tool_results
    assert f"session {sid} (worker)" in said[-1], said
    assert git(clone, "log", "-1", "--format=%s") == f"worker {cli}", said


def test_a_codex_reviewer_reaches_a2a_and_writes_its_report_with_no_dialog(world, panes):
    """Issue 35, finding 11: in Codex's `read-only` sandbox every `connect()` is refused, so each
    `a2a` call of a reviewer or a controller waited for the user's approval in the pane. Its
    working root is now its own folder, in `workspace-write` with the network switch on."""
    s = start(world, panes, "codex", "reviewer")
    sid = s["session"]
    out = world.repo / ".a2a" / "run" / sid / "out"
    m = mark("NODIALOG")
    world.fm.script(m, Reply(text="Asking.", tool=shell_call("codex", "a2a whoami")),
                    Reply(text="Reporting.", tool=write_call("codex", out, "review.md",
                                                              "# Review\n")),
                    Reply(text="done"))
    n = world.inject(sid, f"who am I {m}")
    world.wait_dispatch(n, "done", timeout=60)
    assert [p for p in world.signals(sid) if p["to"] == "waiting"] == []
    answers = [r for r in world.fm.turns() if m in r.text][-1].tool_results
    assert f"session {sid} (reviewer)" in answers[0], answers
    assert (out / "review.md").read_text() == "# Review\n", answers


NAMED_CLIS = ["claude", pytest.param("gemini", marks=needs_safe_folder())]
# Named commands only (issue 22): `git log --output=FILE` writes a file, `git -c alias…` runs a
# shell.
OUTPUT, ALIAS = "git log -1 --output=by-output.txt", "git -c alias.x='!touch by-alias.txt' x"


def _try_git(world, panes, cli: str, role: str, *more) -> tuple[str, int, str]:
    """A session of `role` whose model runs OUTPUT, ALIAS, then `more` commands: (session,
    dispatch, the test's mark)."""
    if role == "worker":
        # A confined worker runs any command (the confinement stops what it could reach); the
        # allow-lists are what an unconfined worker, or one your config keeps on them, gets.
        own = world.home / ".config" / "a2a" / "config.toml"
        own.parent.mkdir(parents=True, exist_ok=True)
        own.write_text("[confinement]\nany_command = false\n")
    sid = start(world, panes, cli, role)["session"]
    m = mark("GIT")
    world.fm.script(m, *(Reply(text="Next.", tool=shell_call(cli, c))
                         for c in (OUTPUT, ALIAS, *more)), Reply(text="done"))
    return sid, world.inject(sid, f"try git {m}"), m


def _nothing_written(world) -> None:
    assert not (world.repo / "by-output.txt").exists()
    assert not (world.repo / "by-alias.txt").exists()


@pytest.mark.parametrize("cli", NAMED_CLIS)
def test_a_reviewer_gets_no_git_and_reads_through_a2a(world, panes, cli):
    # A reviewer runs neither, and reads the candidate with `a2a diff|show`.
    sid, n, m = _try_git(world, panes, cli, "reviewer", "a2a status")
    world.wait_dispatch(n, "done", timeout=60)
    assert [p for p in world.signals(sid) if p["to"] == "waiting"] == []
    answers = [r for r in world.fm.turns() if m in r.text][-1].tool_results
    assert REFUSED[cli] in answers[0] and REFUSED[cli] in answers[1], answers
    assert "target" in answers[2], answers            # a2a status ran
    _nothing_written(world)


@pytest.mark.parametrize("cli", NAMED_CLIS)
def test_a_workers_git_c_is_asked_and_its_output_option_refused(world, panes, cli):
    sid, _, m = _try_git(world, panes, cli, "worker")
    world.wait_state(sid, "waiting", timeout=60)       # the alias: asked, not run
    answers = [r for r in world.fm.turns() if m in r.text][-1].tool_results
    assert REFUSED[cli] in answers[0], answers
    _nothing_written(world)
