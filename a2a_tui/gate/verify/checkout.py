"""Throwaway checkouts of exactly one commit, and the comparison of a checkout with that commit.

A checkout is a detached git worktree under `.a2a/verify/`, removed (and pruned) afterwards
whatever happened, including a checkout that failed half-way.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from pathlib import Path

from a2a_tui.gate.context import GateContext
from a2a_tui.git import GitError


class Checkout:
    """A detached worktree at `sha`: `with Checkout(g, sha, name) as path: ...`."""

    def __init__(self, g: GateContext, sha: str, name: str):
        self.g, self.sha = g, sha
        base = g.repo.a2a_dir / "verify"
        base.mkdir(parents=True, exist_ok=True)
        self.path = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=base))

    def __enter__(self) -> Path:
        self.path.rmdir()
        try:
            self.g.git.worktree_add_detached(self.path, self.sha)
        except BaseException:
            self.close()
            raise
        return self.path

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(GitError):  # the folder goes below; prune then forgets it
            self.g.git.worktree_remove(self.path, force=True)
        shutil.rmtree(self.path, ignore_errors=True)
        self.g.git.worktree_prune()

    def changed(self) -> list[str]:
        """Tracked files of the commit that the checkout no longer matches. A checkout git can no
        longer read (its `.git` file removed, say) counts as wholly changed."""
        index = self.path.parent / f"{self.path.name}.index"
        try:
            return self.g.git.tracked_changes(self.path, self.sha, index)
        except GitError as exc:
            return [f"(the checkout cannot be compared: {exc.message})"]
        finally:
            index.unlink(missing_ok=True)


class Workspace:
    """The candidate's checkout the chain's run steps share, in order: build outputs (untracked
    files) stay for the next step; after a step that changed a tracked file, the next one gets a
    fresh checkout."""

    def __init__(self, g: GateContext, sha: str, name: str):
        self.g, self.sha, self.name = g, sha, name
        self.n = 0
        self.current: Checkout | None = None

    def path(self) -> Path:
        if self.current is None:
            self.n += 1
            co = Checkout(self.g, self.sha, f"{self.name}-{self.n}")
            co.__enter__()
            self.current = co
        return self.current.path

    def changed(self) -> list[str]:
        """Compare with the SHA's tree; a changed checkout is dropped (the next step gets a new
        one)."""
        if self.current is None:
            return []
        changed = self.current.changed()
        if changed:
            self.close()
        return changed

    def close(self) -> None:
        if self.current is not None:
            self.current.close()
            self.current = None
