"""The one adapter for the git binary: nothing else in a2a shells out to git."""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from a2a_tui.errors import A2AError

FULL_SHA = re.compile(r"^[0-9a-f]{40}$")
ZERO_SHA = "0" * 40


@dataclass
class GitResult:
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0


class Git:
    """git, run in one directory, with output captured and failures turned into A2AError."""

    def __init__(self, cwd: Path | str):
        self.cwd = Path(cwd)

    def run(self, *args: str, check: bool = True, input: str | None = None,
            env: dict[str, str] | None = None, cwd: Path | None = None) -> GitResult:
        full_env = dict(os.environ)
        # Our own invocations never open an editor or a pager, and never prompt.
        full_env.update({"GIT_TERMINAL_PROMPT": "0", "GIT_EDITOR": "true", "GIT_PAGER": "cat"})
        if env:
            full_env.update(env)
        try:
            proc = subprocess.run(
                ["git", *args], cwd=str(cwd or self.cwd), input=input, capture_output=True,
                text=True, env=full_env,
            )
        except FileNotFoundError as exc:
            raise A2AError("git_missing", "git is not installed or not on PATH") from exc
        res = GitResult(proc.returncode, proc.stdout, proc.stderr)
        if check and not res.ok:
            first = (res.stderr.strip() or res.stdout.strip()).splitlines()
            raise A2AError("git_failed",
                           f"git {args[0]} failed: {first[0] if first else res.returncode}")
        return res

    def out(self, *args: str, cwd: Path | None = None) -> str:
        return self.run(*args, cwd=cwd).stdout.strip()

    # --- facts ---------------------------------------------------------------
    def resolve_commit(self, rev: str) -> str | None:
        """The full SHA of `rev` if it names a commit object, else None."""
        res = self.run("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False)
        return res.stdout.strip() if res.ok else None

    def object_is_commit(self, sha: str) -> bool:
        res = self.run("cat-file", "-t", sha, check=False)
        return res.ok and res.stdout.strip() == "commit"

    def ref_value(self, ref: str) -> str | None:
        res = self.run("rev-parse", "--verify", "--quiet", ref, check=False)
        return res.stdout.strip() if res.ok else None

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        res = self.run("merge-base", "--is-ancestor", ancestor, descendant, check=False)
        if res.returncode not in (0, 1):
            raise A2AError("git_failed", f"git merge-base failed: {res.stderr.strip()}")
        return res.returncode == 0

    def current_branch(self, cwd: Path | None = None) -> str | None:
        res = self.run("symbolic-ref", "--quiet", "--short", "HEAD", check=False, cwd=cwd)
        return res.stdout.strip() if res.ok else None

    def tree_of(self, rev: str) -> str:
        return self.out("rev-parse", f"{rev}^{{tree}}")

    def changed_paths(self, base: str, head: str) -> list[str]:
        """Paths changed between two commits (renames count as delete + add)."""
        out = self.run("diff", "--name-only", "--no-renames", "-z", base, head).stdout
        return [p for p in out.split("\0") if p]

    def numstat(self, base: str, head: str) -> tuple[int, int]:
        added = deleted = 0
        for line in self.run("diff", "--numstat", "--no-renames", base, head).stdout.splitlines():
            a, d, _ = line.split("\t", 2)
            if a != "-":
                added += int(a)
                deleted += int(d)
        return added, deleted

    def commits_between(self, base: str, head: str) -> list[str]:
        out = self.out("rev-list", "--reverse", f"{base}..{head}")
        return out.split() if out else []

    def trailers(self, sha: str) -> list[tuple[str, str]]:
        msg = self.run("log", "-1", "--format=%B", sha).stdout
        parsed = self.run("interpret-trailers", "--parse", input=msg).stdout
        out = []
        for line in parsed.splitlines():
            if ":" in line:
                k, v = line.split(":", 1)
                out.append((k.strip(), v.strip()))
        return out

    def status_porcelain(self, cwd: Path | None = None) -> list[str]:
        """Modified tracked files and untracked files (ignored files do not count)."""
        out = self.run("status", "--porcelain", "--untracked-files=all", cwd=cwd).stdout
        return [line for line in out.splitlines() if line.strip()]

    # --- changes -------------------------------------------------------------
    def update_ref(self, ref: str, new: str, old: str, message: str = "a2a") -> bool:
        """Compare-and-swap: move `ref` to `new` only if it still equals `old`."""
        res = self.run("update-ref", "-m", message, ref, new, old, check=False)
        return res.ok

    def worktree_add(self, path: Path, branch: str, start: str) -> None:
        self.run("worktree", "add", "-b", branch, str(path), start)

    def worktree_add_detached(self, path: Path, sha: str) -> None:
        self.run("worktree", "add", "--detach", str(path), sha)

    def worktree_remove(self, path: Path, force: bool = False) -> GitResult:
        args = ["worktree", "remove"] + (["--force"] if force else []) + [str(path)]
        return self.run(*args, check=False)

    def worktree_prune(self) -> None:
        self.run("worktree", "prune", check=False)

    def delete_branch(self, branch: str) -> None:
        self.run("branch", "-D", branch, check=False)
