"""Refs and commits: what a name points at, how commits relate, and the compare-and-swap that
moves a ref (`update_ref`) with its refusals named (`ref_locked`, `ref_moved`)."""

from __future__ import annotations

import re
from pathlib import Path

from a2a_tui.git.env import user_identity
from a2a_tui.git.runner import GitError, Result, Runner, error_line

FULL_SHA = re.compile(r"^[0-9a-f]{40}$")
ZERO_SHA = "0" * 40


class RefOps(Runner):
    """Reading refs and the commit graph; moving a ref only by compare-and-swap."""

    def resolve_commit(self, rev: str) -> str | None:
        """The full SHA of `rev` if it names a commit object, else None."""
        res = self._run("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False)
        return res.stdout.strip() if res.ok else None

    def object_is_commit(self, sha: str) -> bool:
        res = self._run("cat-file", "-t", sha, check=False)
        return res.ok and res.stdout.strip() == "commit"

    def ref_value(self, ref: str) -> str | None:
        """The SHA `ref` holds; None when it does not exist. A ref git cannot read (a broken
        file) is not "missing": that raises `GitError` with git's message."""
        res = self._run("rev-parse", "--verify", "--quiet", ref, check=False)
        if res.ok:
            return res.stdout.strip()
        if res.stderr.strip():
            raise GitError("rev-parse", f"{ref}: {res.stderr.strip()}", res.returncode)
        return None

    def reflog(self, ref: str, limit: int = 10) -> list[str]:
        """The newest `limit` reflog entries of `ref`, newest first, as `<sha> <selector>
        <subject>` lines; empty when git keeps no reflog for it."""
        res = self._run("reflog", "show", "--no-abbrev", "--format=%H %gd %gs", f"-n{limit}",
                        ref, "--", check=False)
        return res.stdout.splitlines() if res.ok else []

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        res = self._run("merge-base", "--is-ancestor", ancestor, descendant, check=False)
        if res.returncode not in (0, 1):
            raise GitError("merge-base", res.stderr, res.returncode)
        return res.returncode == 0

    def current_branch(self, cwd: Path | None = None) -> str | None:
        res = self._run("symbolic-ref", "--quiet", "--short", "HEAD", check=False, cwd=cwd)
        return res.stdout.strip() if res.ok else None

    def commits_between(self, base: str, head: str) -> list[str]:
        out = self._out("rev-list", "--reverse", f"{base}..{head}")
        return out.split() if out else []

    def commits_not_in(self, head: str, *excluded: str) -> list[str]:
        """Commits reachable from `head` and from none of `excluded`, oldest first."""
        out = self._out("rev-list", "--reverse", head, "--not", *excluded, "--")
        return out.split() if out else []

    def merge_base(self, a: str, b: str) -> str | None:
        """The best common ancestor of two commits, or None when they share none."""
        res = self._run("merge-base", a, b, check=False)
        return res.stdout.strip() if res.ok and res.stdout.strip() else None

    def update_ref(self, ref: str, new: str, old: str, message: str = "a2a") -> None:
        """Compare-and-swap: move `ref` to `new` only if it still equals `old`.

        A refusal raises `GitError` with git's message and its cause as the code: `ref_locked`
        (another process holds `<ref>.lock`; `details["lock"]` names the file, which a2a never
        removes), `ref_moved` (the ref is not `old`), or `git_failed`.
        """
        res = self._run("update-ref", "-m", message, ref, new, old, check=False,
                        env=user_identity())
        if not res.ok:
            raise _ref_update_error(ref, res)

    def check_ref_update(self, ref: str, new: str, old: str) -> None:
        """Whether `update_ref(ref, new, old)` would apply now, asked of git itself: a ref
        transaction is prepared (taking the lock and checking `old`) and aborted, so nothing
        moves. Raises exactly what `update_ref` would."""
        res = self._run("update-ref", "--stdin", check=False, env=user_identity(),
                        input=f"start\nupdate {ref} {new} {old}\nprepare\nabort\n")
        if not res.ok:
            raise _ref_update_error(ref, res)

    def delete_branch(self, branch: str) -> None:
        """Delete `branch` if it exists (best effort: a missing branch is not an error)."""
        self._run("branch", "-D", branch, check=False, env=user_identity())


# git's words for the two refusals of a ref update that are not failures of git itself.
_LOCKED = re.compile(r"Unable to create '(?P<lock>[^']+\.lock)': File exists")
_MOVED = re.compile(r"is at [0-9a-f]+ but expected|reference already exists"
                    r"|unable to resolve reference")


def _ref_update_error(ref: str, res: Result) -> GitError:
    stderr = res.stderr.strip() or res.stdout.strip()
    first = error_line(stderr)
    locked = _LOCKED.search(stderr)
    if locked:
        return GitError("update-ref", stderr, res.returncode, code="ref_locked",
                        message=f"{ref} is locked: {locked['lock']} exists (git: {first})",
                        details={"lock": locked["lock"]})
    if _MOVED.search(stderr):
        return GitError("update-ref", stderr, res.returncode, code="ref_moved",
                        message=f"{ref} is not where it was expected (git: {first})")
    return GitError("update-ref", stderr, res.returncode)
