"""Every command starts by finding the repository's main worktree, from one git call."""

from __future__ import annotations

import pytest

from a2a_tui.errors import A2AError
from a2a_tui.repo import find_repo
from tests.support import git, make_repo


def test_the_main_worktree_is_found_from_anywhere_inside_the_repository(tmp_path):
    root = make_repo(tmp_path / "repo")
    git(root, "worktree", "add", "-q", str(tmp_path / "linked"), "-b", "side")
    (root / "src/deep").mkdir()
    for start in (root, root / "src/deep", root / ".git", tmp_path / "linked"):
        assert find_repo(start).root == root.resolve()


@pytest.mark.parametrize("make, message", [
    # named .git, so that only git's own word tells it is bare
    (lambda p: git(p, "init", "-q", "--bare"), "a2a needs a repository with a main worktree"),
    (lambda p: None, "is not inside a git repository"),
])
def test_a_bare_repository_or_none_is_refused_in_one_line(tmp_path, make, message):
    where = tmp_path / "x" / ".git"
    where.mkdir(parents=True)
    make(where)
    with pytest.raises(A2AError) as err:
        find_repo(where)
    assert err.value.code == "not_a_repo" and message in err.value.message
