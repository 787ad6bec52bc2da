"""The compare-and-swap the gate relies on: update-ref refuses when the ref is not `old`, and a
refusal says why in git's words (a held lock is not a moved ref)."""

from __future__ import annotations

import pytest

from a2a_tui.git import Git, GitError
from tests.support import commit_in, git, make_repo


def test_update_ref_is_compare_and_swap_and_says_why_it_refused(tmp_path):
    repo = make_repo(tmp_path / "r")
    g = Git(repo)
    a = git(repo, "rev-parse", "HEAD")
    b = commit_in(repo, {"x.txt": "1\n"})
    c = commit_in(repo, {"x.txt": "2\n"})
    git(repo, "update-ref", "refs/heads/t", a)
    with pytest.raises(GitError) as moved:
        g.update_ref("refs/heads/t", c, b)  # t is a, not b
    assert moved.value.code == "ref_moved"
    assert f"is at {a}" in moved.value.stderr and a in moved.value.message
    lock = repo / ".git/refs/heads/t.lock"
    lock.write_text("")
    for attempt in (lambda: g.update_ref("refs/heads/t", c, a),
                    lambda: g.check_ref_update("refs/heads/t", c, a)):
        with pytest.raises(GitError) as locked:
            attempt()
        assert locked.value.code == "ref_locked"
        assert locked.value.details["lock"] == str(lock) and "File exists" in locked.value.stderr
    assert lock.exists() and g.ref_value("refs/heads/t") == a
    lock.unlink()
    g.check_ref_update("refs/heads/t", c, a)  # would apply: nothing moves
    assert g.ref_value("refs/heads/t") == a
    g.update_ref("refs/heads/t", c, a)
    assert g.ref_value("refs/heads/t") == c
