"""An attempt's clone (gate/attempts/ownership.py): made once by this repository's git, then
the agent's; a2a reads it back only as data (`clone_head`) or through `import_commit`, which
never runs git inside it."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

from a2a_tui.git.env import hardened_env
from a2a_tui.git.refs import FULL_SHA
from a2a_tui.git.repository import RepositoryOps
from a2a_tui.git.runner import GitError, Runner

# fsck's findings about paths in a tree are the gate's to judge and name (its boundary step:
# `path_refused`, a rejection with its reason); every other finding refuses the import.
PATH_CHECKS = ",".join(f"{m}=warn" for m in ("hasDot", "hasDotdot", "hasDotgit", "fullPathname",
                                               "gitmodulesSymlink"))


class CloneOps(RepositoryOps):
    """Making an attempt's clone and importing the commit its agent made there."""

    def make_clone(self, path: Path, branch: str, start: str, target: str,
                   identity: dict[str, str]) -> None:
        """A repository of its own at `path` for one attempt, on a new `branch` at `start`,
        borrowing this repository's objects (alternates) and writing only its own `.git`.

        Made with `git init` rather than `git clone`: no template hooks, no copy of this
        repository's refs or config; `origin` names this repository (read-only to the agent)
        so `git fetch origin` brings the target in. Its git runs here once, before any agent
        has touched it; afterwards a2a never runs git inside it."""
        objects = self.git_path("objects")
        self._run("init", "-q", "--template=", str(path), cwd=path.parent)
        (path / ".git" / "objects" / "info" / "alternates").write_text(f"{objects}\n")
        clone = Runner(path)
        for key, value in (("remote.origin.url", str(self.cwd)),
                           ("remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"),
                           *identity.items()):
            clone._run("config", "--local", key, value)
        clone._run("update-ref", f"refs/remotes/origin/{target}", start)
        clone._run("update-ref", f"refs/heads/{branch}", start)
        clone._run("symbolic-ref", "HEAD", f"refs/heads/{branch}")
        # The files and the clone's index, written by this repository's git from its own
        # objects (reading them through the clone's alternates is several times slower).
        self._run("read-tree", "-u", "--reset", start, cwd=path, files=True,
                  env={"GIT_DIR": str(self.common_dir()), "GIT_WORK_TREE": str(path),
                       "GIT_INDEX_FILE": str(path / ".git" / "index")})

    def import_commit(self, objects: Path, sha: str, have: list[str]) -> None:
        """Copy object `sha` (the caller checks that it is a commit) and what it reaches, but
        what `have` reaches, from the object folder `objects` into this repository, verified.

        `objects` (an attempt clone's `.git/objects`) is read as data through
        GIT_ALTERNATE_OBJECT_DIRECTORIES by a `pack-objects` run here: no config, hook or
        attribute of the clone is read. `index-pack --strict` then hashes and checks every
        object and that the pack's links resolve here (path findings are warnings: the gate's
        boundary step rejects them by name); nothing is written on a failure."""
        revs = "".join(f"{r}\n" for r in (sha, "--not", *have))
        pack = subprocess.run(["git", "pack-objects", "--revs", "--stdout", "-q"],
                              cwd=str(self.cwd), input=revs.encode(), capture_output=True,
                              env=hardened_env({"GIT_ALTERNATE_OBJECT_DIRECTORIES":
                                                str(objects)}))
        if pack.returncode != 0:
            raise GitError("pack-objects", pack.stderr.decode(errors="replace"),
                           pack.returncode)
        index = subprocess.run(["git", "index-pack", "--stdin", f"--strict={PATH_CHECKS}"],
                               cwd=str(self.cwd), input=pack.stdout, capture_output=True,
                               env=hardened_env())
        if index.returncode != 0:
            raise GitError("index-pack", index.stderr.decode(errors="replace"),
                           index.returncode)


def clone_head(path: Path) -> str | None:
    """The commit an attempt's clone has checked out, read from its files as data (git never
    runs inside the clone): HEAD, the loose ref it names, else `packed-refs`. None when the
    clone has none or its files are not what git writes (a symlink, a `gitdir:` file, junk):
    nothing in it is followed out of its own `.git`."""
    git = path / ".git"
    if git.is_symlink() or not git.is_dir():
        return None
    head = _small_file(git / "HEAD")
    if head is None:
        return None
    if FULL_SHA.match(head):
        return head
    if not head.startswith("ref: refs/heads/"):
        return None
    ref = head[len("ref: "):]
    if ".." in ref or "//" in ref:
        return None
    loose = _small_file(git / ref)
    if loose is not None:
        return loose if FULL_SHA.match(loose) else None
    packed = _small_file(git / "packed-refs", limit=1 << 22) or ""
    for line in packed.splitlines():
        sha, _, name = line.partition(" ")
        if name == ref and FULL_SHA.match(sha):
            return sha
    return None


def _small_file(path: Path, limit: int = 4096) -> str | None:
    """The stripped text of a regular file (never through a symlink), or None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, limit + 1)
    finally:
        os.close(fd)
    return None if len(data) > limit else data.decode("ascii", errors="replace").strip()
