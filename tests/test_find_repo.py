"""Every command starts by finding the repository's main worktree, from one git call."""

from __future__ import annotations

from pathlib import Path

import pytest

from a2a_tui.errors import A2AError
from a2a_tui.repo import find_repo
from tests.support import add_ready_card, git, make_repo


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


def test_an_attempts_clone_is_owned_by_the_repository_that_made_it(world, repo):
    """`a2a submit …`, the command a task prompt ends with, typed in the attempt's clone (the
    `w` shell opens there) acts on the repository whose gate made the clone, not on the clone
    as a repository of its own ("has no a2a state; run `a2a init`")."""
    add_ready_card(repo)
    claimed = world.a2a("claim", "T-1", "--json")
    assert claimed.code == 0, claimed.err
    clone = Path(claimed.json["worktree"])
    assert find_repo(clone).root == repo.resolve()
    assert find_repo(clone / ".git").root == repo.resolve()
    status = world.a2a("status", "--json", cwd=clone)
    assert status.code == 0 and "a2a init" not in status.err, status.err


def test_a_folder_named_like_a_clone_outside_an_a2a_repository_is_its_own(tmp_path):
    fake = make_repo(tmp_path / "x" / ".a2a" / "worktrees" / "T-1-a1")
    assert find_repo(fake).root == fake.resolve()
