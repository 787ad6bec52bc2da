"""Evidence pinned at submit: the submitted SHA is kept under a hidden ref the moment it is
submitted, so the user's cleanup (the worktree removed by hand, its branch deleted, `git gc
--prune=now`) cannot take it from the gate; a submitted commit that vanished anyway is not the
worker's strike but `commit_missing`: the verdict is unknown and the user hears of it."""

from __future__ import annotations

import shutil
import subprocess

from tests.gate.verify_support import attempt_state, board, claim, events, submit, verify
from tests.support import a2a, commit_in, git


def _clean_up_by_hand(repo, worktree, branch) -> None:
    """What a user tidying up does: the attempt's clone (and the branch in it) gone, every
    reflog expired, every unreachable object pruned. The refs a2a keeps of what it brought in
    from the clone (`refs/a2a/imported/`, which reclaim and the diff view rely on) go too, so
    that only the pin made at submit can keep the commit."""
    shutil.rmtree(worktree)
    for ref in git(repo, "for-each-ref", "--format=%(refname)", "refs/a2a/imported/").split():
        git(repo, "update-ref", "-d", ref)
    git(repo, "reflog", "expire", "--expire=now", "--all")
    git(repo, "gc", "-q", "--prune=now")


def test_a_submitted_commit_survives_its_branch_and_gc(repo):
    c, wt = claim(repo)
    sha = commit_in(wt, {"src/app.py": "def name(n):\n    return n.strip()\n"})
    submit(repo, c, sha)
    pins = git(repo, "for-each-ref", "--format=%(refname) %(objectname)", "refs/a2a/submitted/")
    assert pins == f"refs/a2a/submitted/{c['attempt']}/1 {sha}"
    _clean_up_by_hand(repo, wt, c["branch"])
    assert git(repo, "cat-file", "-t", sha) == "commit"
    v = verify(repo, c["attempt"])
    assert v.code == 0 and v.json["verdict"] == "passed", v.out


def test_each_submission_of_an_attempt_keeps_its_own_pin(repo):
    c, wt = claim(repo)
    first = commit_in(wt, {"src/app.py": "one\n"})
    submit(repo, c, first)
    second = commit_in(wt, {"src/app.py": "two\n"})
    submit(repo, c, second)
    pins = git(repo, "for-each-ref", "--format=%(refname) %(objectname)", "refs/a2a/submitted/")
    assert pins.splitlines() == [f"refs/a2a/submitted/{c['attempt']}/1 {first}",
                                 f"refs/a2a/submitted/{c['attempt']}/2 {second}"]


def test_a_submitted_commit_that_vanished_is_no_strike_but_unknown_and_the_users(repo):
    c, wt = claim(repo)
    sha = commit_in(wt, {"src/app.py": "def name(n):\n    return n.strip()\n"})
    submit(repo, c, sha)
    # Gone anyway: the pin removed too (by hand), then the same cleanup.
    git(repo, "update-ref", "-d", f"refs/a2a/submitted/{c['attempt']}/1")
    _clean_up_by_hand(repo, wt, c["branch"])
    assert subprocess.run(["git", "cat-file", "-e", sha], cwd=repo).returncode != 0
    v = verify(repo, c["attempt"])
    assert v.code != 0
    assert v.json["verdict"] == "commit_missing"
    sanity = next(ch for ch in v.json["checks"] if ch["name"] == "sanity")
    assert sanity["code"] == "commit_missing" and sha[:12] in sanity["detail"]
    att = attempt_state(repo, c["attempt"])
    assert att["state"] == "submitted" and att["rejections"] == 0
    assert not events(repo, "rejected")
    (item,) = [i for i in board(repo) if c["attempt"] in i["title"]]
    assert "missing" in item["title"]


def test_a_refused_submission_leaves_a_pin_the_next_one_replaces(repo):
    c, wt = claim(repo)
    first = commit_in(wt, {"src/app.py": "one\n"})
    r = a2a("submit", c["attempt"], "--sha", first, "--card-version", "1", "--fence",
            str(c["fence"] + 1), cwd=repo)   # a stale fence: refused after the pin
    assert r.code != 0 and "stale_fence" in r.err
    assert git(repo, "rev-parse", f"refs/a2a/submitted/{c['attempt']}/1") == first
    second = commit_in(wt, {"src/app.py": "two\n"})
    submit(repo, c, second)
    assert git(repo, "rev-parse", f"refs/a2a/submitted/{c['attempt']}/1") == second
