"""A repository as a whole: making one, its config, where its git directory and hooks are."""

from __future__ import annotations

from pathlib import Path

from a2a_tui.git.runner import Runner


class RepositoryOps(Runner):
    """Operations on the repository itself (not one ref, tree or worktree of it)."""

    def init(self, branch: str) -> None:
        """Make `cwd` a new repository whose first branch is `branch`."""
        self._run("init", "-q", "-b", branch)

    def config_value(self, key: str) -> str | None:
        """The value git reads for `key` here (repository, then global config), or None."""
        res = self._run("config", "--get", key, check=False, reading=True)
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

    def common_dir_and_bare(self) -> tuple[Path, bool] | None:
        """`common_dir` and whether the repository is bare, from one git call (every `a2a`
        command asks both); None outside a repository."""
        res = self._run("rev-parse", "--path-format=absolute", "--git-common-dir",
                        "--is-bare-repository", check=False)
        lines = res.stdout.splitlines()
        return (Path(lines[0]), lines[1] == "true") if res.ok and len(lines) == 2 else None

    def git_path(self, name: str, cwd: Path | None = None) -> Path:
        """The absolute path git uses for `name` inside the git directory (`info/exclude`)."""
        return Path(self._out("rev-parse", "--path-format=absolute", "--git-path", name, cwd=cwd))

    def own_hooks_dir(self, cwd: Path | None = None) -> Path:
        """The repository's own hooks folder, ignoring config passed in the environment
        (inside an a2a pane, GIT_CONFIG_* point core.hooksPath at that session's hooks)."""
        return Path(self._run("rev-parse", "--path-format=absolute", "--git-path", "hooks",
                              cwd=cwd, reading=True).stdout.strip())

    def identity(self) -> dict[str, str]:
        """`user.name` and `user.email` as git reads them here (for an attempt's clone)."""
        return {k: v for k in ("user.name", "user.email") if (v := self.config_value(k))}
