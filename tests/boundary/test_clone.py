"""An attempt's clone is its agent's; the gate never runs git inside it.

The agent plants in its own clone everything git would run: `core.fsmonitor`, hooks, a filter
driver with `.gitattributes`, `core.pager`, an alias. The gate imports the submitted commit
(submit), shows its diff before a submission, and reclaims the clone: none of it runs, and
the commit that reached the repository is the one submitted, verified object by object.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from a2a_tui.gate.reviews.diff import attempt_diff
from a2a_tui.repo import Repo
from a2a_tui.store import Store
from tests.support import a2a, add_ready_card, commit_in, git

PLANT = {"core.fsmonitor": "touch {mark}.fsmonitor", "core.pager": "touch {mark}.pager; cat",
         "filter.evil.clean": "touch {mark}.clean; cat",
         "filter.evil.smudge": "touch {mark}.smudge; cat", "diff.external": "touch {mark}.diff",
         "core.hooksPath": "{hooks}"}


def test_the_gate_runs_nothing_of_the_clone(world, repo):
    attempt = a2a("claim", add_ready_card(repo), "--json", cwd=repo).json["attempt"]
    clone = repo / ".a2a" / "worktrees" / attempt
    assert (clone / ".git").is_dir()                       # a repository of its own
    assert (clone / ".git" / "objects" / "info" / "alternates").read_text().strip() == \
        str(repo / ".git" / "objects")
    mark = world.base / "ran"
    hooks = world.base / "evil-hooks"
    hooks.mkdir()
    for name in ("post-checkout", "pre-commit", "post-commit", "reference-transaction",
                 "post-index-change", "pre-auto-gc"):
        (hooks / name).write_text(f"#!/bin/sh\ntouch {mark}.hook-{name}\n")
        (hooks / name).chmod(0o755)
    sha = commit_in(clone, {"src/app.py": "fixed = True\n", ".gitattributes": "* filter=evil\n"})
    for key, value in PLANT.items():
        git(clone, "config", key, value.format(mark=mark, hooks=hooks))
    (clone / "dirty.txt").write_text("uncommitted\n")
    before = set(world.base.glob("ran.*"))
    assert not _in_repo(repo, sha)                          # only in the clone
    # Before a submission the workbench's diff shows the clone's head: imported, not run.
    with Store(repo / ".a2a" / "a2a.db") as store:
        seen = attempt_diff(Repo(repo), store, attempt)
    assert seen.head == sha and "src/app.py" in seen.files

    r = a2a("submit", attempt, "--sha", sha, "--card-version", "1", "--fence", "1", "--json",
            cwd=repo)
    assert r.code == 0, r.out
    assert git(repo, "cat-file", "-t", sha) == "commit"
    assert git(repo, "rev-parse", f"refs/a2a/imported/{attempt}/{sha}") == sha
    a2a("abandon", attempt, "--score", "boundary=0:x", "--score", "taste=0:x", "--reason", "x",
        cwd=repo)
    rec = a2a("reclaim", attempt, "--json", cwd=repo)
    assert rec.code == 0, rec.out
    assert rec.json, rec.out
    got = rec.json[0] if isinstance(rec.json, list) else rec.json["reclaimed"][0]
    assert got["worktree_state"] == "kept_dirty"   # judged by the repository's git
    assert "dirty.txt" in " ".join(got["files"])
    assert set(world.base.glob("ran.*")) == before, sorted(world.base.glob("ran.*"))


def _in_repo(repo, sha: str) -> bool:
    return subprocess.run(["git", "cat-file", "-e", f"{sha}^{{commit}}"], cwd=repo).returncode == 0


def test_no_git_runs_inside_the_clone_for_a_spawn_a_submit_the_diff_or_reclaim(
        world, repo, tmux_socket, serve, tmp_path):
    # A `git` first on a2a's PATH notes where each git process a2a starts runs, then runs git.
    shim, log = tmp_path / "shim", tmp_path / "git-calls"
    shim.mkdir()
    real = shutil.which("git")
    (shim / "git").write_text(f'#!/bin/sh\nprintf "%s|%s\\n" "$PWD" "$GIT_DIR" >> {log}\n'
                              f'exec {real} "$@"\n')
    (shim / "git").chmod(0o755)
    via = {"PATH": f"{shim}{os.pathsep}{os.environ['PATH']}"}
    attempt = a2a("claim", add_ready_card(repo), "--json", cwd=repo).json["attempt"]
    clone = repo / ".a2a" / "worktrees" / attempt
    sha = commit_in(clone, {"src/app.py": "fixed = True\n"})
    log.unlink(missing_ok=True)              # the claim made the clone: git ran there once
    serve()
    s = a2a("spawn", "worker", "--cli", "demo", "--attempt", attempt, "--tmux-socket",
            tmux_socket, "--json", env=via, cwd=repo)
    assert s.code == 0, s.out + s.err
    assert s.json["cwd"] == str(clone)
    for args in (("diff", attempt), ("submit", attempt, "--sha", sha, "--card-version", "1",
                                     "--fence", "1"),
                 ("abandon", attempt, "--score", "boundary=0:x", "--score", "taste=0:x",
                  "--reason", "x"), ("reclaim", attempt)):
        r = a2a(*args, "--json", env=via, cwd=repo)
        assert r.code == 0, (args, r.out)
    calls = [line.split("|") for line in log.read_text().splitlines()]
    assert calls, "the shim saw no git at all"
    inside = [(cwd, git_dir) for cwd, git_dir in calls if Path(cwd).is_relative_to(clone)]
    # Only the repository's own git may look at the clone's files (its status, by reclaim);
    # none reads the clone's `.git`.
    assert all(git_dir == str(repo / ".git") for _, git_dir in inside), inside
