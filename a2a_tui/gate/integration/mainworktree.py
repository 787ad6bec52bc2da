"""The main worktree, where the target branch may be checked out: moving the branch under it
must bring its files along when they are clean, and must never touch them when they are not.

Used by integrate (the gate's advance) and by `a2a target restore` (the user's move back).

The checkout's index is taken the way git takes it, `index.lock` created exclusively
(`IndexLock`). Before the branch moves, once (`probe`): a lock another git process holds (past
a second: a live git process holds it for milliseconds) is found before anything moves
(`index_locked`, with git's own advice). After the move, for the update: written into the lock
file and renamed over the index, as git commits a lock. The lock is not held across the move,
so that an a2a killed in between leaves the user's git free (its recovery brings the checkout
along). Should the checkout still not be updated (a lock taken in between, a file git may not
write, files of the user's in the way), the answer says so, names the cause and gives the one
command that brings the files along; where a2a could take the index, the index alone is brought
to the branch, so that it never shows a staged revert of what moved. A lock a2a left when it
died holding it is known by the note it keeps beside it (`.git/a2a-index-lock.json`: its process
and the lock's inode) and taken away by the next a2a command that looks at the checkout.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.gate.context import GateContext
from a2a_tui.git import GitError
from a2a_tui.repo import A2A_DIR

NOTE = "a2a-index-lock.json"
WAIT_S = 1.0   # how long a held index lock is waited for before it is taken for a stale one
GIT_ADVICE = ("Another git process seems to be running in this repository, e.g. an editor opened"
              " by 'git commit'. Please make sure all processes are terminated then try again."
              " If it still fails, a git process may have crashed in this repository earlier:"
              " remove the file manually to continue")


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


class IndexLock:
    """git's own lock on the index of the checkout at `root`, held by a2a."""

    def __init__(self, g: GateContext, root: Path):
        self.git = g.git
        self.root = root
        self.index = g.git.git_path("index", cwd=root)
        self.path = self.index.with_name("index.lock")
        self.note = self.index.with_name(NOTE)
        self.mine: tuple[int, int] | None = None   # the lock file's (device, inode) while held

    def take(self, branch: str, what: str) -> None:
        """Create the lock (with the index's content, as git does); refused with `index_locked`
        while another process holds it, `index_unwritable` when it cannot be made."""
        self.clear_own_stale()
        try:
            fd = self._create()
        except FileExistsError:
            raise A2AError("index_locked", f"{branch} is checked out in {self.root}, and git's"
                           f" index lock {self.path} exists: git cannot update that checkout,"
                           f" so nothing was moved. git says: Unable to create '{self.path}':"
                           f" File exists. {GIT_ADVICE} (`rm {self.path}`), then {what} again",
                           details={"lock": str(self.path)}) from None
        except OSError as exc:
            raise _unwritable(branch, self.path, exc) from exc
        try:
            with os.fdopen(fd, "wb") as out:
                if self.index.exists():
                    with open(self.index, "rb") as src:
                        shutil.copyfileobj(src, out)
            st = os.stat(self.path)
            self.mine = (st.st_dev, st.st_ino)
            self.note.write_text(json.dumps({"pid": os.getpid(), "lock": list(self.mine)}))
        except OSError as exc:
            self.release()
            raise _unwritable(branch, self.path, exc) from exc

    def _create(self) -> int:
        """The lock file, made exclusively; a lock that goes within WAIT_S (a git process of
        the user's editor refreshing the index holds it for milliseconds) is waited for."""
        deadline = time.monotonic() + WAIT_S
        while True:
            try:
                return os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                if time.monotonic() >= deadline:
                    raise
                time.sleep(0.02)

    def probe(self, branch: str, what: str) -> None:
        """Take the lock and give it back at once: refused (as `take`) when git could not take
        the index now. Before a move, so that nothing moves that the update would then find
        locked; not held across the move, so that a crash in between leaves the user's git
        free."""
        self.take(branch, what)
        self.release()

    def commit(self) -> None:
        """The lock's content becomes the index (git's commit of a lock file)."""
        os.replace(self.path, self.index)
        self.mine = None
        self.note.unlink(missing_ok=True)

    def release(self) -> None:
        """Give the lock up unchanged (only the file a2a made: never another process's)."""
        if self.mine is not None and _file_id(self.path) == self.mine:
            self.path.unlink(missing_ok=True)
        self.mine = None
        self.note.unlink(missing_ok=True)

    def clear_own_stale(self) -> None:
        """Remove a lock an a2a process made and left when it died (its note says so)."""
        try:
            note = json.loads(self.note.read_text())
            pid, lock = int(note["pid"]), tuple(note["lock"])
        except (OSError, ValueError, KeyError, TypeError):
            return
        if _alive(pid) and pid != os.getpid():
            return
        if _file_id(self.path) == lock:
            self.path.unlink(missing_ok=True)
        self.note.unlink(missing_ok=True)


def sync_worktree(g: GateContext, root: Path, old: str, new: str, branch: str) -> bool | str:
    """Bring the main worktree from `old` to `new` if it still shows `old` and is clean, and
    `new` changes nothing in a2a's own folder (verify's boundary refuses that; this holds
    whatever a record says), under git's index lock. True, or why not, and the command that
    brings it along."""
    if g.git.current_branch(root) != branch:
        return "not checked out"
    from a2a_tui.gate.verification.structural import is_reserved  # pydantic: not at start-up

    reserved = [p for p in g.git.changed_paths(old, new) if is_reserved(p)]
    if reserved:
        return (f"left alone: the new tree changes a2a's own folder ({A2A_DIR}/):"
                f" {', '.join(reserved[:5])}")
    lock = IndexLock(g, root)
    try:
        lock.take(branch, "bring it along")
    except A2AError as exc:
        return _not_updated(root, old, new, branch, f"lock: {exc.message}", g)
    try:
        return _update(g, lock, root, old, new, branch)
    finally:
        lock.release()


def _update(g: GateContext, lock: IndexLock, root: Path, old: str, new: str,
            branch: str) -> bool | str:
    index_tree = g.git.write_tree(root, index=lock.path)
    if index_tree == g.git.tree_of(new) and not g.git.differs_from(new, root, index=lock.path):
        return True
    if index_tree != g.git.tree_of(old) or g.git.differs_from(old, root, index=lock.path):
        return "left alone: the worktree changed"
    try:
        g.git.read_tree(old, new, root, index=lock.path)
    except GitError as exc:
        # The files stay; the index moves alone, so that it never shows a staged revert.
        g.git.read_tree(old, new, root, index=lock.path, files=False)
        lock.commit()
        return _not_updated(root, old, new, branch, _cause(exc.stderr), g)
    lock.commit()
    return True


def _cause(stderr: str) -> str:
    """What stopped git, named for what it is."""
    said = " ".join(line.strip() for line in stderr.splitlines() if line.strip())[:300]
    if "Permission denied" in said or "Operation not permitted" in said:
        return f"permission: git may not write a file of it ({said})"
    if any(w in said for w in ("not uptodate", "would be overwritten", "would lose untracked")):
        return f"conflict: files of yours are in the way ({said})"
    if "index.lock" in said:
        return f"lock: {said}"
    return f"git: {said}"


def _not_updated(root: Path, old: str, new: str, branch: str, cause: str,
                 g: GateContext) -> str:
    paths = g.git.changed_paths(old, new)
    spec = " ".join(paths) if 0 < len(paths) <= 10 else ":/"
    return (f"not updated: {branch} moved to {new[:12]}, but its checkout in {root} still has"
            f" the files of {old[:12]}: {cause}. Once that is dealt with, bring them to"
            f" {branch} with `git -C {root} restore --source={branch} --staged --worktree --"
            f" {spec}`")


def _unwritable(branch: str, path: Path, exc: OSError) -> A2AError:
    return A2AError("index_unwritable", f"{branch} is checked out in {path.parent.parent}, and"
                    f" git's index lock {path} cannot be made ({exc.strerror or exc}): git could"
                    " not update that checkout, so nothing was moved; make its .git writable",
                    details={"lock": str(path)})


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
