"""An attempt's clone: where its writer works, and how its commits reach the repository.

Each attempt gets a repository of its own at `.a2a/worktrees/<attempt>` (`Git.make_clone`),
borrowing the main repository's objects through alternates. Its agent writes only the clone's
`.git`; the main repository's `config`, `hooks/`, refs and `packed-refs` are never the agent's
(a confined session sees them read-only, if at all).

The gate never runs git inside the clone: its config, hooks and attributes are its agent's. A
commit reaches the main repository when the gate imports it: a `pack-objects` run in the main
repository reads a copy of the regular files of the clone's object folder (git/clone_objects.py:
no pipe or symlink, no alternates of the clone), `index-pack --strict` verifies every object
into the main repository, and the commit is pinned under
`refs/a2a/imported/<attempt>/<sha>` so it stays reachable (and every earlier candidate with it).
Each git process reading the clone stops at gate.toml's `limits.clone_s` (`git_timeout`).
The clone's head (before a submission: the diff view, reclaim) is read from its files as data
(`git.clone_head`).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from a2a_tui.gate.context import GateContext
from a2a_tui.gate.ledger.records import AttemptRecord
from a2a_tui.git import ZERO_SHA, GitError, clone_head
from a2a_tui.repo import Repo

IMPORTED = "refs/a2a/imported"


def imported_ref(attempt_id: str, sha: str) -> str:
    return f"{IMPORTED}/{attempt_id}/{sha}"


def objects_of(path: Path) -> Path | None:
    """The clone's object folder, when it is one (not a symlink out of it)."""
    objects = path / ".git" / "objects"
    git = path / ".git"
    if git.is_symlink() or objects.is_symlink() or not objects.is_dir():
        return None
    return objects


def head_of(att: AttemptRecord) -> str | None:
    """The commit the attempt's clone has checked out (None when there is no clone)."""
    return clone_head(Path(att.worktree))


def bring_in(g: GateContext, att: AttemptRecord, sha: str) -> bool:
    """Make commit `sha` of the attempt's clone present in the main repository and pin it.
    True when it is there (already, or imported now); False when the clone does not have it.
    A broken import raises GitError with git's message."""
    return import_head(g.repo, att.id, Path(att.worktree), sha, att.start_commit)


def import_head(repo: Repo, attempt_id: str, clone: Path, sha: str, start: str) -> bool:
    """`bring_in` for a reader that has the repository and the attempt's facts."""
    git = repo.git
    if not git.object_is_commit(sha):
        objects = objects_of(clone)
        if objects is None:
            return False
        tree_bytes, clone_s = clone_limits(repo)
        try:
            git.import_commit(objects, sha, [start], limit=tree_bytes, timeout_s=clone_s)
        except GitError as exc:
            if any(w in exc.stderr for w in ("bad object", "bad revision", "not a valid",
                                             "unknown revision")):
                return False
            raise
        if not git.object_is_commit(sha):
            return False     # a tree or a blob of the clone: nothing to pin
    ref = imported_ref(attempt_id, sha)
    if git.ref_value(ref) != sha:
        try:
            git.update_ref(ref, sha, ZERO_SHA, message=f"a2a import {attempt_id}")
        except GitError as exc:
            # Another reader pinned it between the look and the move (the workbench's views
            # bring in the same head at once): what counts is that the pin is there, read back.
            if exc.code != "ref_moved" or git.ref_value(ref) != sha:
                raise
    return True


def dirty_files(g: GateContext, path: Path, head: str) -> list[str]:
    """What in the clone's files differs from `head` (changed, deleted, untracked), judged by
    the main repository's git with the clone as its work tree and a scratch index."""
    with tempfile.TemporaryDirectory(prefix="a2a-index-") as tmp:
        return g.git.work_tree_status(path, head, Path(tmp) / "index",
                                      timeout_s=clone_limits(g.repo)[1])


# gate.toml's [limits] defaults (gate_rules.Limits; tests/gate/test_gate_tree_limits.py keeps
# the two equal): a gate.toml that sets no limit has them without loading the rules.
TREE_BYTES_DEFAULT, CLONE_S_DEFAULT = 1 << 30, 60


def clone_limits(repo: Repo) -> tuple[int, int]:
    """(tree_bytes, clone_s) of the gate rules in force (gate.toml as accepted); read without
    pydantic where they set no limit (`submit`, an agent's most frequent command, stays
    light)."""
    if "limits" not in repo.rule_file("gate.toml").text:
        return TREE_BYTES_DEFAULT, CLONE_S_DEFAULT
    from a2a_tui.gate.cards import gate_rules  # pydantic: only when gate.toml sets limits

    limits = gate_rules.in_force(repo).limits
    return limits.tree_bytes, limits.clone_s
