"""An attempt's clone (gate/attempts/ownership.py): made once by this repository's git, then
the agent's; a2a reads it back only as data (`clone_head`) or through `import_commit`, which
never runs git inside it."""

from __future__ import annotations

import os
import stat
import subprocess
import tempfile
from pathlib import Path

from a2a_tui.git.clone_objects import DIR_FLAGS, FILE_FLAGS, copy_objects
from a2a_tui.git.env import hardened_env
from a2a_tui.git.refs import FULL_SHA
from a2a_tui.git.repository import RepositoryOps
from a2a_tui.git.runner import GitError, Runner, error_line, timed_out

# git's own checks of the names in a tree, as errors (`--strict` makes every other finding one
# too): a `.git` in any spelling, `.` or `..`, a symlinked `.gitmodules` never enters the
# repository (`tree_refused`). Given on the command line and as command-line-scope config, so
# no config file (the repository's, the user's) can turn them into warnings.
PATH_IDS = ("hasDot", "hasDotdot", "hasDotgit", "fullPathname", "gitmodulesSymlink")
PATH_CHECKS = ",".join(f"{m}=error" for m in PATH_IDS)
PATH_CONFIG = tuple((f"{scope}.{m}", "error") for m in PATH_IDS
                    for scope in ("fsck", "receive.fsck", "fetch.fsck")) + (
    ("transfer.fsckObjects", "true"),)


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

    def import_commit(self, objects: Path, sha: str, have: list[str], *, limit: int,
                      timeout_s: float) -> None:
        """Copy object `sha` (the caller checks that it is a commit) and what it reaches, but
        what `have` reaches, from the object folder `objects` into this repository, verified.

        git never reads `objects` (an attempt clone's `.git/objects`, its agent's): its regular
        files are first copied to a private folder (clone_objects.py: no pipe, device or
        symlink is opened, its alternates are not followed; `clone_unsafe` names what is
        refused), which a `pack-objects` run here reads through GIT_ALTERNATE_OBJECT_DIRECTORIES
        (no config, hook or attribute of the clone is read). `index-pack --strict` then hashes
        and checks every object and that the pack's links resolve here (path findings are
        warnings: the gate's boundary step rejects them by name); nothing is written on a
        failure. The copy and each git process have `timeout_s` seconds (`git_timeout`)."""
        revs = "".join(f"{r}\n" for r in (sha, "--not", *have))
        with tempfile.TemporaryDirectory(prefix="a2a-import-") as tmp:
            copy, pack = Path(tmp) / "objects", Path(tmp) / "import.pack"
            copy.mkdir()
            copy_objects(objects, copy, limit=limit, timeout_s=timeout_s)
            with open(pack, "w+b") as out:
                self._piped(["pack-objects", "--revs", "--stdout", "-q"], revs.encode(), out,
                            timeout_s, {"GIT_ALTERNATE_OBJECT_DIRECTORIES": str(copy)})
                out.seek(0)
                try:
                    self._piped(["index-pack", "--stdin", f"--strict={PATH_CHECKS}"], out,
                                subprocess.DEVNULL, timeout_s, None, PATH_CONFIG)
                except GitError as exc:
                    found = next((m for m in PATH_IDS if f"{m}:" in exc.stderr), None)
                    if found is None:
                        raise
                    raise GitError("index-pack", exc.stderr, exc.returncode,
                                   code="tree_refused",
                                   message=f"the commit holds a name git reserves ({found}:"
                                   f" {error_line(exc.stderr)}); nothing was imported") from exc

    def _piped(self, args: list[str], given, out, timeout_s: float,
               env: dict[str, str] | None, config: tuple[tuple[str, str], ...] = ()) -> None:
        """git `args` here, reading `given` (bytes or a file), writing to `out`, hardened and
        stopped at `timeout_s` seconds."""
        try:
            proc = subprocess.run(["git", *args], cwd=str(self.cwd), stdout=out,
                                  stderr=subprocess.PIPE, env=hardened_env(env, config),
                                  timeout=timeout_s,
                                  **({"input": given} if isinstance(given, bytes)
                                     else {"stdin": given}))
        except subprocess.TimeoutExpired as exc:
            raise timed_out(args[0], timeout_s) from exc
        if proc.returncode != 0:
            raise GitError(args[0], proc.stderr.decode(errors="replace"), proc.returncode)


def clone_head(path: Path) -> str | None:
    """The commit an attempt's clone has checked out, read from its files as data (git never
    runs inside the clone): HEAD, the loose ref it names, else `packed-refs`. None when the
    clone has none or its files are not what git writes (a symlink, a `gitdir:` file, junk):
    nothing in it is followed out of its own `.git`."""
    git = path / ".git"
    if git.is_symlink() or not git.is_dir():
        return None
    head = _small_file(git, "HEAD")
    if head is None:
        return None
    if FULL_SHA.match(head):
        return head
    if not head.startswith("ref: refs/heads/"):
        return None
    ref = head[len("ref: "):]
    if ".." in ref or "//" in ref:
        return None
    loose = _small_file(git, ref)
    if loose is not None:
        return loose if FULL_SHA.match(loose) else None
    packed = _small_file(git, "packed-refs", limit=1 << 22) or ""
    for line in packed.splitlines():
        sha, _, name = line.partition(" ")
        if name == ref and FULL_SHA.match(sha):
            return sha
    return None


def _small_file(git: Path, rel: str, limit: int = 4096) -> str | None:
    """The stripped text of the regular file `rel` inside the folder `git`, or None: no
    component is followed through a symlink, and a pipe or a device is never waited on."""
    try:
        folder = os.open(git, DIR_FLAGS)
    except OSError:
        return None
    try:
        *parents, name = rel.split("/")
        for part in parents:
            inner = os.open(part, DIR_FLAGS, dir_fd=folder)
            os.close(folder)
            folder = inner
        fd = os.open(name, FILE_FLAGS, dir_fd=folder)
    except OSError:
        return None
    finally:
        os.close(folder)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, limit + 1)
    finally:
        os.close(fd)
    return None if len(data) > limit else data.decode("ascii", errors="replace").strip()
