"""Boundary in full: a symlink whose target leaves the repository, and a path git would refuse to
check out, reject; artifacts the card names must be in the candidate."""

from __future__ import annotations

import os

import pytest

from tests.gate.verify_support import claim, gate_toml, result, submit_verify
from tests.support import git


def _commit_symlink(wt, path: str, target: str) -> str:
    link = wt / path
    link.parent.mkdir(parents=True, exist_ok=True)
    if link.exists() or link.is_symlink():
        link.unlink()
    os.symlink(target, link)
    git(wt, "add", "-A")
    git(wt, "commit", "-q", "-m", "link")
    return git(wt, "rev-parse", "HEAD")


@pytest.mark.parametrize("target", ["/etc/passwd", "../../outside.py", "inner/../../../x"])
def test_a_symlink_leaving_the_repository_rejects(repo, target):
    c, wt = claim(repo)
    v = submit_verify(repo, c, sha=_commit_symlink(wt, "src/app.py", target))
    assert v.json["verdict"] == "rejected", v.out
    b = result(v, "boundary")
    assert b["code"] == "symlink_escape" and "src/app.py" in b["detail"]


def test_a_symlink_escaping_through_another_symlink_rejects(repo):
    c, wt = claim(repo)
    _commit_symlink(wt, "src/up", "..")
    v = submit_verify(repo, c, sha=_commit_symlink(wt, "src/deep.py", "up/../x.py"))
    assert result(v, "boundary")["code"] == "symlink_escape"


def test_a_symlink_into_git_rejects(repo):
    c, wt = claim(repo)
    v = submit_verify(repo, c, sha=_commit_symlink(wt, "src/cfg", "../.git/config"))
    assert result(v, "boundary")["code"] == "symlink_escape"


def test_a_symlink_inside_the_repository_passes(repo):
    c, wt = claim(repo)
    v = submit_verify(repo, c, sha=_commit_symlink(wt, "src/alias.py", "app.py"))
    assert v.json["verdict"] == "passed", v.out


@pytest.mark.parametrize("stop", [True, False])
def test_a_path_git_would_refuse_to_check_out_rejects(repo, stop):
    # A `.git` in any spelling never enters the repository (test_gate_reserved.py); a name
    # git takes here but refuses where `\\` separates folders is the boundary's to refuse.
    if not stop:  # the checks are tried all the same
        gate_toml(repo, "stop_at_first_blocking_failure = false\n")
    c, wt = claim(repo, "true", "true")
    blob = git(wt, "hash-object", "-w", "src/app.py")
    src = git_mktree(wt, f"100644 blob {blob}\tapp.py\n100644 blob {blob}\t..\\config\n")
    root = git_mktree(wt, f"100644 blob {git(wt, 'rev-parse', 'HEAD:README.md')}\tREADME.md\n"
                          f"040000 tree {src}\tsrc\n")
    sha = git(wt, "commit-tree", root, "-p", "HEAD", "-m", "sneaky")
    v = submit_verify(repo, c, sha=sha)
    assert v.code == 1 and v.json["verdict"] == "rejected", v.out + v.err
    b = result(v, "boundary")
    assert b["code"] == "path_refused" and "src/..\\config" in b["detail"], b
    assert result(v, "check1")["skipped"] == stop


def git_mktree(wt, listing: str) -> str:
    import subprocess

    return subprocess.run(["git", "mktree"], cwd=wt, input=listing, text=True, check=True,
                          capture_output=True).stdout.strip()


def test_an_artifact_missing_rejects(repo):
    c, _ = claim(repo, extra='artifacts = ["src/report.txt"]\n')
    v = submit_verify(repo, c, {"src/app.py": "x\n"})
    a = result(v, "artifacts")
    assert v.json["verdict"] == "rejected" and a["code"] == "artifact_missing"
    assert "src/report.txt" in a["detail"]
    v = submit_verify(repo, c, {"src/report.txt": "done\n"})
    assert v.json["verdict"] == "passed", v.out
