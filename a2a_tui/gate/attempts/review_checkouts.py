"""The read-only checkouts an attempt's reviewers are given (gate/reviews/launch.py makes them),
and their removal once the attempt has ended (`a2a reclaim`, cleanup.py): with the attempt, below
the reviews, so reclaiming an attempt never reads the reviews' commands."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from a2a_tui.gate.context import GateContext
from a2a_tui.gate.ledger.records import attempt_in
from a2a_tui.git import GitError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads.reviews import ReviewCheckoutsReclaimed


def make_checkout(g: GateContext, path: Path, sha: str) -> None:
    """A detached worktree at exactly `sha`, every file and folder without write permission. An
    earlier one is kept only if it still shows exactly `sha`, untouched."""
    if path.exists() or path.is_symlink():
        if _untouched(g, path, sha):
            make_read_only(path)
            return
        remove_checkout(g, path)
    path.parent.mkdir(parents=True, exist_ok=True)
    g.git.worktree_add_detached(path, sha)
    make_read_only(path)


def _untouched(g: GateContext, path: Path, sha: str) -> bool:
    try:
        return g.git.head_commit(path) == sha and not g.git.status(path)
    except GitError:
        return False


def reclaim_checkouts(g: GateContext, attempt_id: str) -> list[JsonObject]:
    """Remove the review checkouts of an ended attempt (`a2a reclaim`); one that no longer shows
    exactly its SHA, untouched, is kept and said so."""
    out = []
    for r in g.store.all("SELECT DISTINCT checkout, sha FROM review_runs WHERE attempt_id = ?",
                         (attempt_id,)):
        path = Path(r["checkout"])
        if not (path.exists() or path.is_symlink()):
            continue
        if _untouched(g, path, r["sha"]):
            remove_checkout(g, path)
            out.append({"checkout": str(path), "state": "removed"})
        else:
            out.append({"checkout": str(path), "state": "kept",
                        "reason": f"it no longer shows exactly {r['sha'][:12]}, untouched"})
    if out:
        with g.store.write() as tx:
            tx.append("review_checkouts_reclaimed", actor=g.caller.actor,
                      task=attempt_in(tx, attempt_id).card_id,
                      attempt=attempt_id, session=g.caller.session,
                      payload=ReviewCheckoutsReclaimed(checkouts=out))
    return out


def remove_checkout(g: GateContext, path: Path) -> None:
    """Give write permission back and remove a review checkout."""
    make_writable(path)
    try:
        g.git.worktree_remove(path, force=True)
    except GitError:
        shutil.rmtree(path, ignore_errors=True)   # not (or no longer) a registered worktree
    g.git.worktree_prune()


def make_read_only(root: Path) -> None:
    """Clear every write bit below `root` (links are left alone: chmod would follow them)."""
    for top, dirs, files in os.walk(root, topdown=False):
        for name in files + dirs:
            _chmod(Path(top) / name, lambda m: m & ~0o222)
    _chmod(root, lambda m: m & ~0o222)


def make_writable(root: Path) -> None:
    _chmod(root, lambda m: m | stat.S_IWUSR)
    for top, dirs, files in os.walk(root):
        for name in dirs + files:
            _chmod(Path(top) / name, lambda m: m | stat.S_IWUSR)


def _chmod(p: Path, change) -> None:
    mode = os.lstat(p).st_mode
    if not stat.S_ISLNK(mode):
        os.chmod(p, stat.S_IMODE(change(mode)))
