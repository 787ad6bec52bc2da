"""Nothing of a commit lands in a2a's own folder, and no `.git` name enters the repository.

A candidate whose tree holds `.a2a/gate.toml` once passed verify (a card whose allowed_paths
cover it: nothing reserved the folder), and integrate's update of the user's checkout wrote it
into the user's `.a2a/`, one accept away from being the rules in force. Now a change under
`.a2a/` (in any spelling a file system folds to it, or a symlink into it) fails the boundary
step as `path_reserved`, blocking whatever gate.toml says of the step, and integrate's update of
the checkout refuses such a tree on its own. Objects with a path git reserves (`.git` in any
spelling, a symlinked `.gitmodules`) are refused at import (`tree_refused`): git's own checks
run as errors, given on its command line.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from a2a_tui import quoting
from a2a_tui.gate.context import Caller, GateContext
from a2a_tui.gate.integration.mainworktree import sync_worktree
from a2a_tui.repo import Repo
from a2a_tui.store import Store
from tests.gate.verify_support import claim, gate_toml, result, submit_verify
from tests.support import a2a, commit_in, git

EVERYWHERE = ("**", ".*/**", ".*")
RULES = "[steps]\nboundary = false\n"     # the project made the boundary advisory


def _mktree(wt, listing: str) -> str:
    return subprocess.run(["git", "mktree"], cwd=wt, input=listing, text=True, check=True,
                          capture_output=True).stdout.strip()


def _commit_with(wt, top: str, inner: str, blob_text: str = "evil = true\n",
                 mode: str = "100644") -> str:
    """A commit of the clone's HEAD tree plus `top/inner` (a blob), made with git's plumbing
    (a checkout could not hold some of these names)."""
    blob = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=wt, input=blob_text,
                          text=True, check=True, capture_output=True).stdout.strip()
    sub = _mktree(wt, f"{mode} blob {blob}\t{inner}\n")
    listing = git(wt, "ls-tree", "HEAD") + f"\n040000 tree {sub}\t{top}\n"
    return git(wt, "commit-tree", _mktree(wt, listing), "-p", "HEAD", "-m", "sneaky")


@pytest.mark.parametrize("top", [".a2a", ".A2A", ".a2a.", ".a2a\u200c"])
def test_a_change_under_a2as_folder_fails_the_boundary_whatever_the_rules(repo, top):
    gate_toml(repo, RULES)
    c, wt = claim(repo, allowed=EVERYWHERE)
    v = submit_verify(repo, c, sha=_commit_with(wt, top, "gate.toml",
                                                 '[steps]\nboundary = false\n'))
    assert v.json["verdict"] == "rejected", v.out
    b = result(v, "boundary")
    assert b["code"] == "path_reserved" and b["blocking"], b
    assert quoting.name(top) in b["detail"], b     # shown quoted: the ZWNJ as \u200c


def test_a_symlink_named_or_into_a2as_folder_fails_the_boundary(repo):
    gate_toml(repo, RULES)
    c, wt = claim(repo, allowed=EVERYWHERE)
    os.symlink("../.a2a/gate.toml", wt / "src" / "rules.toml")
    sha = commit_in(wt, {})
    v = submit_verify(repo, c, sha=sha)
    b = result(v, "boundary")
    assert v.json["verdict"] == "rejected" and b["blocking"], v.out
    assert b["code"] in ("path_reserved", "symlink_escape") and "src/rules.toml" in b["detail"]
    # A symlink named .a2a at the top.
    c2, wt2 = claim(repo, card_id="T-2", allowed=EVERYWHERE)
    os.symlink("src", wt2 / ".a2a")
    v2 = submit_verify(repo, c2, sha=commit_in(wt2, {}))
    b2 = result(v2, "boundary")
    assert v2.json["verdict"] == "rejected" and b2["code"] == "path_reserved", v2.out


def test_integrates_update_of_the_checkout_never_writes_a2as_folder(repo):
    start = git(repo, "rev-parse", "HEAD")
    git(repo, "update-index", "--add", "--cacheinfo",
        f"100644,{git(repo, 'hash-object', '-w', 'README.md')},.a2a/gate.toml")
    new = git(repo, "commit-tree", git(repo, "write-tree"), "-p", start, "-m", "sneaky")
    git(repo, "reset", "-q", start)
    before = (repo / ".a2a" / "gate.toml").exists()
    with Store(repo / ".a2a" / "a2a.db") as store:
        g = GateContext(Repo(repo), store, Caller())
        got = sync_worktree(g, repo, start, new, "main")
    assert got is not True and ".a2a" in got, got
    assert (repo / ".a2a" / "gate.toml").exists() == before
    assert git(repo, "rev-parse", "HEAD") == start


@pytest.mark.parametrize("top,inner,mode", [
    ("src", ".GIT", "040000"), ("src", "git~1", "040000"), ("src", ".git\u200c", "040000"),
    ("src", ".gitmodules", "120000")], ids=["dotGIT", "8.3", "hfs", "gitmodules-symlink"])
def test_objects_with_a_path_git_reserves_are_refused_at_import(repo, top, inner, mode):
    c, wt = claim(repo, "true")
    blob = git(wt, "hash-object", "-w", "src/app.py")
    if mode == "040000":
        inner_tree = _mktree(wt, f"100644 blob {blob}\tconfig\n")
        entry = f"040000 tree {inner_tree}\t{inner}\n"
    else:
        target = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=wt, input="x",
                                text=True, check=True, capture_output=True).stdout.strip()
        entry = f"120000 blob {target}\t{inner}\n"
    src = _mktree(wt, f"100644 blob {blob}\tapp.py\n{entry}")
    root = _mktree(wt, git(wt, "ls-tree", "HEAD").replace(
        git(wt, "rev-parse", "HEAD:src"), src))
    sha = git(wt, "commit-tree", root, "-p", "HEAD", "-m", "sneaky")
    r = a2a("submit", c["attempt"], "--sha", sha, "--card-version", str(c["card_version"]),
            "--fence", str(c["fence"]), "--json", cwd=repo)
    assert r.code != 0, r.out
    assert r.json["error"]["code"] == "tree_refused", r.out
    assert subprocess.run(["git", "cat-file", "-e", root], cwd=repo).returncode != 0
