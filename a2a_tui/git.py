"""The one adapter for the git binary: nothing else in a2a shells out to git or spells its argv.

Every operation a2a needs is a named method of `Git` that returns a typed value (a str, a bool, a
list, a Path) or raises `GitError`, which carries the operation and git's own message.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from a2a_tui.errors import A2AError

FULL_SHA = re.compile(r"^[0-9a-f]{40}$")
ZERO_SHA = "0" * 40


class GitError(A2AError):
    """A git operation failed. `operation` names it (`worktree add`, `read-tree`, ...), `stderr`
    is git's own message; the one-line message quotes its first line."""

    def __init__(self, operation: str, stderr: str, returncode: int | None = None, *,
                 code: str = "git_failed", message: str | None = None):
        first = stderr.strip().splitlines()
        super().__init__(code, message or f"git {operation} failed:"
                         f" {first[0] if first else returncode}")
        self.operation = operation
        self.stderr = stderr
        self.returncode = returncode


@dataclass
class _Result:
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0


class Git:
    """git, run in one directory (or in `cwd` where a method takes it), output captured."""

    def __init__(self, cwd: Path | str):
        self.cwd = Path(cwd)

    def _run(self, *args: str, check: bool = True, input: str | None = None,
             env: dict[str, str] | None = None, cwd: Path | None = None) -> _Result:
        full_env = dict(os.environ)
        # Our own invocations never open an editor or a pager, and never prompt.
        full_env.update({"GIT_TERMINAL_PROMPT": "0", "GIT_EDITOR": "true", "GIT_PAGER": "cat"})
        if env:
            full_env.update(env)
        try:
            # git prints bytes: a worker's file name or commit message need not be UTF-8
            # (nor convertible from the encoding the commit names). An undecodable byte is
            # read as U+FFFD rather than stopping the gate with a traceback.
            proc = subprocess.run(
                ["git", *args], cwd=str(cwd or self.cwd), input=input, capture_output=True,
                text=True, errors="replace", env=full_env,
            )
        except FileNotFoundError as exc:
            raise GitError(args[0], "", code="git_missing",
                           message="git is not installed or not on PATH") from exc
        res = _Result(proc.returncode, proc.stdout, proc.stderr)
        if check and not res.ok:
            operation = " ".join(args[:2]) if args[0] == "worktree" else args[0]
            raise GitError(operation, res.stderr.strip() or res.stdout.strip(), res.returncode)
        return res

    def _out(self, *args: str, cwd: Path | None = None) -> str:
        return self._run(*args, cwd=cwd).stdout.strip()

    # --- repositories --------------------------------------------------------
    def init(self, branch: str) -> None:
        """Make `cwd` a new repository whose first branch is `branch`."""
        self._run("init", "-q", "-b", branch)

    def config_value(self, key: str) -> str | None:
        """The value git reads for `key` here (repository, then global config), or None."""
        res = self._run("config", "--get", key, check=False)
        return res.stdout.strip() or None if res.ok else None

    def set_config(self, key: str, value: str) -> None:
        """Set `key` in this repository's own config (never the global one)."""
        self._run("config", "--local", key, value)

    def commit_all(self, message: str) -> None:
        """Stage every change (new files too) and commit it."""
        self._run("add", "-A")
        self._run("commit", "-q", "-m", message)

    def common_dir(self) -> Path | None:
        """The absolute git directory shared by all worktrees, or None outside a repository."""
        res = self._run("rev-parse", "--path-format=absolute", "--git-common-dir", check=False)
        return Path(res.stdout.strip()) if res.ok else None

    def is_bare(self) -> bool:
        res = self._run("rev-parse", "--is-bare-repository", check=False)
        return res.stdout.strip() == "true"

    def git_path(self, name: str, cwd: Path | None = None) -> Path:
        """The absolute path git uses for `name` inside the git directory (`info/exclude`)."""
        return Path(self._out("rev-parse", "--path-format=absolute", "--git-path", name, cwd=cwd))

    def own_hooks_dir(self, cwd: Path | None = None) -> Path:
        """The repository's own hooks folder, ignoring config passed in the environment
        (inside an a2a pane, GIT_CONFIG_* point core.hooksPath at that session's hooks)."""
        return Path(self._run("rev-parse", "--path-format=absolute", "--git-path", "hooks",
                              cwd=cwd, env={"GIT_CONFIG_COUNT": "0"}).stdout.strip())

    # --- facts ---------------------------------------------------------------
    def resolve_commit(self, rev: str) -> str | None:
        """The full SHA of `rev` if it names a commit object, else None."""
        res = self._run("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False)
        return res.stdout.strip() if res.ok else None

    def object_is_commit(self, sha: str) -> bool:
        res = self._run("cat-file", "-t", sha, check=False)
        return res.ok and res.stdout.strip() == "commit"

    def ref_value(self, ref: str) -> str | None:
        res = self._run("rev-parse", "--verify", "--quiet", ref, check=False)
        return res.stdout.strip() if res.ok else None

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        res = self._run("merge-base", "--is-ancestor", ancestor, descendant, check=False)
        if res.returncode not in (0, 1):
            raise GitError("merge-base", res.stderr, res.returncode)
        return res.returncode == 0

    def current_branch(self, cwd: Path | None = None) -> str | None:
        res = self._run("symbolic-ref", "--quiet", "--short", "HEAD", check=False, cwd=cwd)
        return res.stdout.strip() if res.ok else None

    def tree_of(self, rev: str) -> str:
        return self._out("rev-parse", f"{rev}^{{tree}}")

    def changed_paths(self, base: str, head: str) -> list[str]:
        """Paths changed between two commits (renames count as delete + add)."""
        out = self._run("diff", "--name-only", "--no-renames", "-z", base, head).stdout
        return [p for p in out.split("\0") if p]

    def numstat(self, base: str, head: str) -> tuple[int, int]:
        added = deleted = 0
        for line in self._run("diff", "--numstat", "--no-renames", base, head).stdout.splitlines():
            a, d, _ = line.split("\t", 2)
            if a != "-":
                added += int(a)
                deleted += int(d)
        return added, deleted

    def commits_between(self, base: str, head: str) -> list[str]:
        out = self._out("rev-list", "--reverse", f"{base}..{head}")
        return out.split() if out else []

    def trailers(self, sha: str) -> list[tuple[str, str]]:
        msg = self._run("log", "-1", "--format=%B", sha).stdout
        parsed = self._run("interpret-trailers", "--parse", input=msg).stdout
        out = []
        for line in parsed.splitlines():
            if ":" in line:
                k, v = line.split(":", 1)
                out.append((k.strip(), v.strip()))
        return out

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

    def differs_from(self, commit: str, cwd: Path | None = None) -> bool:
        """Whether the worktree at `cwd` differs from `commit` in tracked files. A failure to
        compare counts as a difference: callers then leave the worktree alone."""
        return not self._run("diff", "--quiet", commit, "--", cwd=cwd, check=False).ok

    def head_commit(self, cwd: Path | None = None) -> str:
        """The full SHA HEAD points at."""
        return self._out("rev-parse", "HEAD", cwd=cwd)

    def worktree_paths(self) -> list[Path]:
        """Every worktree git has registered for this repository (the main one first)."""
        out = self._out("worktree", "list", "--porcelain")
        return [Path(line[len("worktree "):]) for line in out.splitlines()
                if line.startswith("worktree ")]

    # --- changes -------------------------------------------------------------
    def update_ref(self, ref: str, new: str, old: str, message: str = "a2a") -> bool:
        """Compare-and-swap: move `ref` to `new` only if it still equals `old`."""
        res = self._run("update-ref", "-m", message, ref, new, old, check=False)
        return res.ok

    def worktree_add(self, path: Path, branch: str, start: str) -> None:
        self._run("worktree", "add", "-b", branch, str(path), start)

    def worktree_add_detached(self, path: Path, sha: str) -> None:
        self._run("worktree", "add", "--detach", str(path), sha)

    def worktree_remove(self, path: Path, force: bool = False) -> None:
        self._run("worktree", "remove", *(["--force"] if force else []), str(path))

    def worktree_prune(self) -> None:
        """Forget worktrees whose folders are gone (best effort: a failure changes nothing)."""
        self._run("worktree", "prune", check=False)

    def delete_branch(self, branch: str) -> None:
        """Delete `branch` if it exists (best effort: a missing branch is not an error)."""
        self._run("branch", "-D", branch, check=False)

    def write_tree(self, cwd: Path | None = None) -> str | None:
        """The tree the index at `cwd` holds, or None when it cannot be written (a merge in
        progress leaves unmerged entries)."""
        res = self._run("write-tree", cwd=cwd, check=False)
        return res.stdout.strip() if res.ok else None

    def read_tree(self, old: str, new: str, cwd: Path | None = None) -> None:
        """Bring the index and the files at `cwd` from tree `old` to tree `new` (a two-tree
        merge, `read-tree -m -u`: refused when it would lose a local change)."""
        self._run("read-tree", "-m", "-u", old, new, cwd=cwd)
