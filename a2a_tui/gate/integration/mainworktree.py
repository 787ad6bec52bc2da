"""The main worktree, where the target branch may be checked out: moving the branch under it
must bring its files along when they are clean, and must never touch them when they are not.

Used by integrate (the gate's advance) and by `a2a target restore` (the user's move back).
"""

from __future__ import annotations

from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.verification.structural import is_reserved
from a2a_tui.git import GitError
from a2a_tui.repo import A2A_DIR


def checked_out_here(g: GateContext, branch: str) -> Path | None:
    """The main worktree if `branch` is checked out there, else None."""
    return g.repo.root if g.git.current_branch(g.repo.root) == branch else None


def blocking_changes(g: GateContext, root: Path, old: str, new: str) -> list[str]:
    """Uncommitted changes to tracked files, and untracked files the new tree would overwrite."""
    out = g.git.status(root, untracked=False)
    incoming = set(g.git.changed_paths(old, new))
    return out + [f"?? {p}" for p in g.git.untracked_files(root) if p in incoming]


def dirty_error(branch: str, root: Path, dirty: list[str], what: str) -> A2AError:
    return A2AError(
        "main_worktree_dirty",
        f"{branch} is checked out in {root} with uncommitted changes ({len(dirty)} path(s));"
        f" commit or stash them, then {what} again. Nothing was changed.")


def sync_worktree(g: GateContext, root: Path, old: str, new: str, branch: str) -> bool | str:
    """Bring the main worktree from `old` to `new` if it still shows `old` and is clean, and
    `new` changes nothing in a2a's own folder (verify's boundary refuses that; this holds
    whatever a record says)."""
    if g.git.current_branch(root) != branch:
        return "not checked out"
    reserved = [p for p in g.git.changed_paths(old, new) if is_reserved(p)]
    if reserved:
        return (f"left alone: the new tree changes a2a's own folder ({A2A_DIR}/):"
                f" {', '.join(reserved[:5])}")
    index_tree = g.git.write_tree(root)
    if index_tree == g.git.tree_of(new) and not g.git.differs_from(new, root):
        return True
    if index_tree != g.git.tree_of(old) or g.git.differs_from(old, root):
        return "left alone: the worktree changed"
    try:
        g.git.read_tree(old, new, root)
    except GitError as exc:
        return f"{exc.operation} failed: {exc.stderr.strip()[:200]}"
    return True
