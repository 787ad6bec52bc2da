"""Worktrees and checkouts: adding and removing them, what their files hold against a commit,
and moving an index and its files from one tree to another."""

from __future__ import annotations

from pathlib import Path

from a2a_tui.git.env import NO_DRIVERS, user_identity
from a2a_tui.git.repository import RepositoryOps


class WorktreeOps(RepositoryOps):
    """A worktree's files and index, and the worktrees git has registered."""

    def status(self, cwd: Path | None = None, *, untracked: bool = True) -> list[str]:
        """`git status --porcelain` lines: modified tracked files and, with `untracked`, every
        untracked file (ignored files do not count)."""
        out = self._run("status", "--porcelain",
                        f"--untracked-files={'all' if untracked else 'no'}", cwd=cwd).stdout
        return [line for line in out.splitlines() if line.strip()]

    def untracked_files(self, cwd: Path | None = None) -> list[str]:
        """Untracked files that are not ignored (`ls-files --others --exclude-standard`)."""
        out = self._run("ls-files", "--others", "--exclude-standard", "-z", cwd=cwd).stdout
        return [p for p in out.split("\0") if p]

    def differs_from(self, commit: str, cwd: Path | None = None, *,
                     index: Path | None = None) -> bool:
        """Whether the worktree at `cwd` differs from `commit` in tracked files (`index`: read
        through that index file instead of the worktree's own). A failure to compare counts as
        a difference: callers then leave the worktree alone."""
        return not self._run("diff", *NO_DRIVERS, "--quiet", commit, "--", cwd=cwd, check=False,
                             files=True, env=_index_env(index)).ok

    def tracked_changes(self, cwd: Path, commit: str, index: Path) -> list[str]:
        """Tracked files of `commit` that the files at `cwd` no longer match (changed, deleted,
        replaced), whatever happened to the worktree's own index or HEAD meanwhile: compared
        through a fresh index (`index`, a scratch file) read from `commit`."""
        env = {"GIT_INDEX_FILE": str(index)}
        self._run("read-tree", commit, cwd=cwd, env=env)
        out = self._run("diff", *NO_DRIVERS, "--name-only", "--no-renames", "-z", cwd=cwd,
                        env=env, files=True).stdout
        return [p for p in out.split("\0") if p]

    def head_commit(self, cwd: Path | None = None) -> str:
        """The full SHA HEAD points at."""
        return self._out("rev-parse", "HEAD", cwd=cwd)

    def worktree_paths(self) -> list[Path]:
        """Every worktree git has registered for this repository (the main one first)."""
        out = self._out("worktree", "list", "--porcelain")
        return [Path(line[len("worktree "):]) for line in out.splitlines()
                if line.startswith("worktree ")]

    def worktree_add(self, path: Path, branch: str, start: str) -> None:
        self._run("worktree", "add", "-b", branch, str(path), start, env=user_identity())

    def worktree_add_detached(self, path: Path, sha: str) -> None:
        self._run("worktree", "add", "--detach", str(path), sha)

    def worktree_remove(self, path: Path, force: bool = False) -> None:
        self._run("worktree", "remove", *(["--force"] if force else []), str(path), also=path)

    def worktree_prune(self) -> None:
        """Forget worktrees whose folders are gone (best effort: a failure changes nothing)."""
        self._run("worktree", "prune", check=False)

    def work_tree_status(self, work_tree: Path, commit: str, index: Path,
                         timeout_s: float | None = None) -> list[str]:
        """What the files at `work_tree` hold beyond `commit`: its tracked files that changed
        (`M path`, deleted ones too) and untracked files that are not ignored (`?? path`),
        judged by this repository's git with a fresh index (`index`, a scratch file) read from
        `commit`. The work tree's own `.git` (an attempt's clone) is never read: its config,
        hooks and index are its agent's. Its files are too (a `.gitignore` or a
        `.gitattributes` may be a named pipe): each git stops at `timeout_s` (`git_timeout`)."""
        env = {"GIT_DIR": str(self.common_dir()), "GIT_WORK_TREE": str(work_tree),
               "GIT_INDEX_FILE": str(index)}
        self._run("read-tree", commit, cwd=work_tree, env=env, timeout=timeout_s)
        changed = self._run("diff", *NO_DRIVERS, "--name-only", "--no-renames", "-z",
                            cwd=work_tree, env=env, files=True, timeout=timeout_s).stdout
        others = self._run("ls-files", "--others", "--exclude-standard", "-z", cwd=work_tree,
                           env=env, timeout=timeout_s).stdout
        return ([f"M {p}" for p in changed.split("\0") if p]
                + [f"?? {p}" for p in others.split("\0") if p])

    def write_tree(self, cwd: Path | None = None, *, index: Path | None = None) -> str | None:
        """The tree the index at `cwd` holds (`index`: that index file), or None when it cannot
        be written (a merge in progress leaves unmerged entries)."""
        res = self._run("write-tree", cwd=cwd, check=False, env=_index_env(index))
        return res.stdout.strip() if res.ok else None

    def read_tree(self, old: str, new: str, cwd: Path | None = None, *,
                  index: Path | None = None, files: bool = True) -> None:
        """Bring the index (`index`: that index file) and the files at `cwd` from tree `old` to
        tree `new` (a two-tree merge, `read-tree -m -u`: refused when it would lose a local
        change); `files` False: the index alone."""
        self._run("read-tree", "-m", *(["-u"] if files else []), old, new, cwd=cwd,
                  files=True, env=_index_env(index))

    def init_private(self, git_dir: Path, objects_from: Path, commit: str) -> None:
        """Make `git_dir` a git directory of its own whose HEAD is `commit` (detached) and
        whose index holds its tree, borrowing the objects of `objects_from` (an objects
        folder) read-only through `objects/info/alternates`; nothing is written there."""
        self._run("init", "-q", "--bare", "--template=", str(git_dir))
        (git_dir / "objects" / "info" / "alternates").write_text(f"{objects_from}\n")
        (git_dir / "HEAD").write_text(f"{commit}\n")
        self._run("config", "--file", str(git_dir / "config"), "core.bare", "false")
        self._run("read-tree", commit, env={"GIT_DIR": str(git_dir),
                                            "GIT_INDEX_FILE": str(git_dir / "index")})


def _index_env(index: Path | None) -> dict[str, str] | None:
    return {"GIT_INDEX_FILE": str(index)} if index is not None else None
