"""The one place a git process is started for a `Git`: hardened (env.py), its output captured,
a failure raised as `GitError` with git's own message. The operations (refs.py, trees.py,
worktrees.py, clones.py, repository.py) are methods of `Runner`'s subclasses, which `Git`
combines."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.git.env import FILES_COMMANDS, filter_overrides, hardened_env, reading_env


def error_line(stderr: str) -> str:
    """The line of git's output that says what went wrong: its first `fatal:` or `error:` line
    (progress such as "Preparing worktree" may come first), else its first line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return next((line for line in lines if line.startswith(("fatal:", "error:"))),
                lines[0] if lines else "")


class GitError(A2AError):
    """A git operation failed. `operation` names it (`worktree add`, `read-tree`, ...), `stderr`
    is git's own message; the one-line message quotes its error line. `code` is `git_failed`
    unless the cause is known (`ref_locked`, `ref_moved`: see `Git.update_ref`)."""

    def __init__(self, operation: str, stderr: str, returncode: int | None = None, *,
                 code: str = "git_failed", message: str | None = None,
                 details: dict | None = None):
        super().__init__(code, message or f"git {operation} failed:"
                         f" {error_line(stderr) or returncode}", details=details)
        self.operation = operation
        self.stderr = stderr
        self.returncode = returncode


def timed_out(operation: str, seconds: float) -> GitError:
    """The failure of a git process stopped at its time limit."""
    return GitError(operation, "", code="git_timeout",
                    message=f"git {operation} did not finish within {seconds:g} s (a file it"
                    " reads may be a named pipe or a device); it was stopped")


@dataclass
class Result:
    """What one git process gave back: its exit status and its output, decoded."""

    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0


class Runner:
    """git, run in one directory (or in `cwd` where a method takes it), output captured: what
    every group of operations builds on."""

    def __init__(self, cwd: Path | str):
        self.cwd = Path(cwd)

    def _run(self, *args: str, check: bool = True, input: str | None = None,
             env: dict[str, str] | None = None, cwd: Path | None = None,
             files: bool = False, also: Path | None = None, reading: bool = False,
             timeout: float | None = None) -> Result:
        """Run git hardened (env.py). `files`: the command reads or writes a
        worktree's files (implied for the commands in FILES_COMMANDS), so filter drivers are
        emptied, the ones the config at `cwd` (and at `also`, a worktree it acts on) defines.
        `reading`: a config read as the user's git does it (`reading_env`). `timeout`: git is
        stopped after so many seconds (`git_timeout`): for a git reading an agent's files,
        where a named pipe would make it wait for ever."""
        where = cwd or self.cwd
        if reading:
            full_env = {**reading_env(), **(env or {})}
        else:
            config: tuple[tuple[str, str], ...] = ()
            if files or args[0] in FILES_COMMANDS:
                # A command given GIT_DIR reads that repository's config, not the one at `where`.
                git_dir = (env or {}).get("GIT_DIR")
                config = (self._filters(where, git_dir)
                          + (self._filters(also) if also else ()))
            full_env = hardened_env(env, config)
        try:
            # git prints bytes: a worker's file name or commit message need not be UTF-8
            # (nor convertible from the encoding the commit names). An undecodable byte is
            # read as U+FFFD rather than stopping the gate with a traceback.
            proc = subprocess.run(
                ["git", *args], cwd=str(where), input=input, capture_output=True,
                text=True, errors="replace", env=full_env, stdin=None if input is not None
                else subprocess.DEVNULL, timeout=timeout,
            )
        except subprocess.TimeoutExpired as exc:
            raise timed_out(args[0], timeout or 0) from exc
        except FileNotFoundError as exc:
            raise GitError(args[0], "", code="git_missing",
                           message="git is not installed or not on PATH") from exc
        res = Result(proc.returncode, proc.stdout, proc.stderr)
        if check and not res.ok:
            operation = " ".join(args[:2]) if args[0] == "worktree" else args[0]
            raise GitError(operation, res.stderr.strip() or res.stdout.strip(), res.returncode)
        return res

    def _filters(self, where: Path, git_dir: str | None = None) -> tuple[tuple[str, str], ...]:
        """The filter drivers the repository's config at `where` (or of `git_dir`) defines,
        emptied. A config git cannot read stops the command (nothing runs that we could not
        neutralise)."""
        if not where.exists():
            return ()
        proc = subprocess.run(["git", "config", "--list", "--name-only", "-z", "--includes"],
                              cwd=str(where), capture_output=True,
                              env=hardened_env({"GIT_DIR": git_dir} if git_dir else None),
                              stdin=subprocess.DEVNULL)
        if proc.returncode != 0:
            stderr = proc.stderr.decode(errors="replace")
            if "not a git repository" in stderr:
                return ()
            raise GitError("config", stderr, proc.returncode)
        return filter_overrides(proc.stdout.decode("utf-8", errors="surrogateescape"))

    def _out(self, *args: str, cwd: Path | None = None) -> str:
        return self._run(*args, cwd=cwd).stdout.strip()

    def _bytes(self, *args: str) -> bytes:
        """git's stdout as bytes (blob contents and file names need not be text)."""
        proc = subprocess.run(["git", *args], cwd=str(self.cwd), capture_output=True,
                              env=hardened_env(), stdin=subprocess.DEVNULL)
        if proc.returncode != 0:
            raise GitError(args[0], proc.stderr.decode(errors="replace"), proc.returncode)
        return proc.stdout
