"""How much a candidate's tree may weigh: gate.toml's `[limits]` (its depth, its number of
entries, its largest file, its total size), measured from git's listing of the tree before
anything is written, and stopped at the first limit passed (a listing of millions of entries is
never held). Verify's boundary step reports what passed a limit (`tree_too_large`, blocking
whatever the rules say of the step); a checkout refuses such a tree on its own (checkout.py).
"""

from __future__ import annotations

from a2a_tui.gate.cards.gate_rules import Limits
from a2a_tui.git import Git, GitError

# No file system takes a longer path (Linux's PATH_MAX, with the checkout's own folder).
PATH_BYTES = 3072


def too_large(git: Git, sha: str, limits: Limits) -> str | None:
    """What of the tree of `sha` passes `limits`, in words (the first found), or None."""
    entries = total = 0
    for kind, size, path in git.sized_entries(sha):
        entries += 1
        depth = path.count("/") + 1
        if entries > limits.entries:
            return f"more than {limits.entries} entries (limits.entries)"
        if depth > limits.depth:
            return (f"{_short(path)} is {depth} folders deep, more than {limits.depth}"
                    " (limits.depth)")
        if len(path.encode(errors="surrogateescape")) > PATH_BYTES:
            return f"{_short(path)} is a path longer than {PATH_BYTES} bytes"
        if kind == "blob":
            if size > limits.blob_bytes:
                return (f"{path} holds {size} bytes, more than {limits.blob_bytes}"
                        " (limits.blob_bytes)")
            total += size
            if total > limits.tree_bytes:
                return (f"its files hold more than {limits.tree_bytes} bytes"
                        " (limits.tree_bytes)")
    return None


def refuse_too_large(git: Git, sha: str, limits: Limits) -> None:
    """GitError `tree_too_large` when the tree of `sha` passes `limits` (nothing written)."""
    why = too_large(git, sha, limits)
    if why is not None:
        raise GitError("checkout", "", code="tree_too_large",
                       message=f"the tree of {sha[:12]} is too large to check out: {why}")


def _short(path: str) -> str:
    return path if len(path) <= 120 else f"{path[:60]}…{path[-40:]}"

