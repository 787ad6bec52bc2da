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
from tests.support import git, wait_until

require()
pytestmark = pytest.mark.real_cli

CLI_NAMES = ("claude", "codex", "gemini")
CLIS = ["claude", "codex", pytest.param("gemini", marks=needs_safe_folder())]
# What each CLI answers the model when it refuses a write (measured).
REFUSED = {"claude": "denied", "gemini": "denied by policy"}
REFUSED_SHELL = {**REFUSED, "codex": "Read-only file system"}


def granted(w: World, cli: str, role: str, sid: str) -> permissions.Permissions:
    run_dir = w.repo / ".a2a" / "run" / sid
    out = run_dir / "out"                  # what a read-only role may write (its results)
    return {"claude": lambda: permissions.claude(role, out),
            "codex": lambda: permissions.codex(role),
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
    world.fm.script(m, Reply(text="Writing.", tool=shell_call(cli, f"echo mine > {by_shell}")),
                    Reply(text="Again.", tool=write_call(cli, world.repo, by_tool, "mine\n")),
                    Reply(text="done"))
    n = world.inject(sid, f"write the files {m}")
    if cli == "codex":
        # Codex's own edit tool (apply_patch) is not refused in its read-only sandbox: Codex asks
        # the user (its PermissionRequest hook: the pane is waiting) and writes nothing unless
        # they approve. Its shell's write was refused by the sandbox, with no dialog.
        waiting = world.wait_state(sid, "waiting", timeout=60)
        assert waiting["in_flight"] == n
        req = world.signals(sid, "PermissionRequest")
        assert [p["raw"]["tool_name"] for p in req] == ["apply_patch"]
        answers = [r for r in world.fm.turns() if m in r.text][-1].tool_results
    else:
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


def test_a_codex_reviewers_a2a_call_runs_outside_the_sandbox_once_the_user_approves(
        world, panes):
    s = start(world, panes, "codex", "reviewer")
    sid, pane = s["session"], s["pane"]
    m = mark("ESCALATE")
    world.fm.script(m, Reply(text="Asking.", tool=("exec_command", {
        "cmd": "a2a whoami", "sandbox_permissions": "require_escalated",
        "justification": "a2a records the review"})), Reply(text="done"))
    n = world.inject(sid, f"who am I {m}")
    world.wait_state(sid, "waiting", timeout=30)
    assert world.signals(sid, "PermissionRequest")[0]["to"] == "waiting"
    # The user approves in the pane (their eyes only: a2a never answers a dialog).
    wait_until(lambda: "Would you like to run" in world.screen(pane), timeout=10,
               what="Codex's approval dialog")
    world.keys(pane, "y")
    world.wait_dispatch(n, "done", timeout=30)
    answer = [r for r in world.fm.turns() if m in r.text][-1].tool_results[-1]
    assert f"session {sid} (reviewer)" in answer, answer
