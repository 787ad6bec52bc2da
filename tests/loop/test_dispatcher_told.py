"""The executive controller that dispatched an attempt (claimed it and gave it a worker with its
task) is told in its pane when that worker submits, so the loop goes on without the user
carrying the news (issue 28); an attempt dispatched otherwise tells nobody."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest

from tests.support import (
    A2A,
    a2a,
    add_ready_card,
    commit_in,
    register_session,
    rows,
    wait_until,
)

pytestmark = pytest.mark.tmux


class Controller:
    """A shell registered as a managed session: the a2a commands it runs are that session's
    (identity by process tree), as an agent's tool commands are."""

    def __init__(self, world, repo: Path, sid: str, role: str) -> None:
        self.repo = repo
        self.proc = subprocess.Popen(["sh"], stdin=subprocess.PIPE, cwd=str(repo), text=True,
                                     env=world.env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        register_session(repo, sid, role, pid=self.proc.pid)
        self.n = 0

    def run(self, *args: str) -> str:
        self.n += 1
        out, rc = self.repo.parent / f"out{self.n}", self.repo.parent / f"rc{self.n}"
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{shlex.join([*A2A, *args])} > {out} 2>&1; echo $? > {rc}\n")
        self.proc.stdin.flush()
        wait_until(rc.exists, timeout=60, what=f"a2a {' '.join(args)}")
        wait_until(lambda: rc.read_text().strip(), what="its exit code")
        assert rc.read_text().strip() == "0", out.read_text()
        return out.read_text()

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def test_the_dispatching_executive_is_told_of_the_submission(world, repo, tmux_socket):
    add_ready_card(repo, "T-1")
    exec1 = Controller(world, repo, "exec1", "executive")
    try:
        exec1.run("claim", "T-1")
        exec1.run("session", "new", "worker", "--cli", "demo", "--attempt", "T-1-a1",
                  "--assign", "--tmux-socket", tmux_socket)
        [task] = rows(repo, "SELECT session, text FROM dispatches")
        assert task["session"] == "w1" and "a2a submit T-1-a1 --sha <SHA>" in task["text"]
        att = rows(repo, "SELECT worktree, fence FROM attempts")[0]
        sha = commit_in(Path(att["worktree"]), {"src/app.py": "v = 2\n"})
        r = a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence",
                str(att["fence"]), cwd=repo)
        assert r.code == 0, r.err
        told = rows(repo, "SELECT session, text, source FROM dispatches WHERE session = 'exec1'")
        assert len(told) == 1 and told[0]["source"] == "gate"
        assert f"T-1-a1 submitted {sha}" in told[0]["text"]
        assert "`a2a verify T-1-a1`" in told[0]["text"]
    finally:
        exec1.close()


def test_an_attempt_the_executive_did_not_dispatch_tells_nobody(world, repo):
    add_ready_card(repo, "T-1")
    exec1 = Controller(world, repo, "exec1", "executive")
    try:
        exec1.run("claim", "T-1")   # claimed, but no worker given its task through a2a
        att = rows(repo, "SELECT worktree, fence FROM attempts")[0]
        sha = commit_in(Path(att["worktree"]), {"src/app.py": "v = 2\n"})
        assert a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence",
                   str(att["fence"]), cwd=repo).code == 0
        assert rows(repo, "SELECT n FROM dispatches") == []
    finally:
        exec1.close()
