"""The one adapter for the git binary: nothing else in a2a shells out to git or spells its argv.

Every operation a2a needs is a named method of `Git` that returns a typed value (a str, a bool, a
list, a Path) or raises `GitError`, which carries the operation and git's own message. Every git
process it starts is hardened (env.py: it takes orders from no file an agent could have written).

The package is split by what its parts serve, and `Git` combines them:
- env.py: the hardened environment and command-line config of every git process;
- runner.py: `Runner`, the one place a process starts, and `GitError`;
- repository.py: the repository as a whole (init, config, its git directory and hooks);
- refs.py: refs and the commit graph, and the compare-and-swap that moves a ref;
- trees.py: diffs, trees, blobs and commit texts, read without a checkout;
- worktrees.py: worktrees, their files and index;
- clones.py: an attempt's clone, made once and then read only as data.
Import from `a2a_tui.git`, not from its modules.
"""

from __future__ import annotations

from a2a_tui.git.clones import PATH_CHECKS, CloneOps, clone_head
from a2a_tui.git.env import (
    FILTER_KEYS,
    FIXED_ENV,
    HARDENED_CONFIG,
    NO_DRIVERS,
    PASSED_ENV,
    filter_overrides,
    hardened_env,
    reading_env,
    user_identity,
)
from a2a_tui.git.refs import FULL_SHA, ZERO_SHA, RefOps
from a2a_tui.git.repository import RepositoryOps
from a2a_tui.git.runner import GitError, Result, Runner, error_line
from a2a_tui.git.trees import CHUNK, EMPTY_TREE, Change, TreeEntry, TreeOps
from a2a_tui.git.worktrees import WorktreeOps


class Git(CloneOps, WorktreeOps, TreeOps, RefOps, RepositoryOps):
    """git, run in one directory (or in `cwd` where a method takes it), output captured: every
    operation of the package's modules on one object."""


__all__ = [
    "CHUNK", "EMPTY_TREE", "FILTER_KEYS", "FIXED_ENV", "FULL_SHA", "HARDENED_CONFIG", "NO_DRIVERS",
    "PASSED_ENV", "PATH_CHECKS", "ZERO_SHA", "Change", "CloneOps", "Git", "GitError",
    "RefOps", "RepositoryOps", "Result", "Runner", "TreeEntry", "TreeOps", "WorktreeOps",
    "clone_head", "error_line", "filter_overrides", "hardened_env", "reading_env",
    "user_identity",
]
