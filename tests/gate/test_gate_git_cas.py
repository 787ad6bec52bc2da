"""The compare-and-swap the gate relies on: update-ref refuses when the ref is not `old`."""

from __future__ import annotations

from a2a_tui.git import Git
from tests.support import commit_in, git, make_repo


def test_update_ref_is_compare_and_swap(tmp_path):
    repo = make_repo(tmp_path / "r")
    g = Git(repo)
    a = git(repo, "rev-parse", "HEAD")
    b = commit_in(repo, {"x.txt": "1\n"})
    c = commit_in(repo, {"x.txt": "2\n"})
    git(repo, "update-ref", "refs/heads/t", a)
    assert g.update_ref("refs/heads/t", c, b) is False  # t is a, not b: refused
    assert g.ref_value("refs/heads/t") == a
    assert g.update_ref("refs/heads/t", c, a) is True
    assert g.ref_value("refs/heads/t") == c
