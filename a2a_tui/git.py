"""The one adapter for the git binary: nothing else in a2a shells out to git or spells its argv.

Every operation a2a needs is a named method of `Git` that returns a typed value (a str, a bool, a
list, a Path) or raises `GitError`, which carries the operation and git's own message.

Every git process a2a starts is hardened (`hardened_env`): it takes orders from no file an agent
could have written. Its environment is built from scratch (nothing of the caller's but PATH, HOME,
TMPDIR and TZ: no GIT_DIR, GIT_CONFIG_*, GIT_EXTERNAL_DIFF, GIT_SSH...), no system or global
config, no replace refs, no prompt, pager or editor; and command-line-scope config (which wins over
every config file) switches off what the repository's own `.git/config`, its includes, `.git/hooks`
and `.git/info/attributes` could make git run: hooks (`core.hooksPath=/dev/null`), fsmonitor,
pager, editor, askpass, credential helpers, ssh command, gpg (a signed commit's `log` would run
`gpg.program`), automatic gc. Diffs pass `--no-ext-diff --no-textconv`. A command that reads or
writes a worktree's files also gets every filter driver the repository's config defines
(includes followed, `filter_overrides`) set to nothing, so no clean, smudge or process filter runs.
Aliases never apply: a2a runs only git's own commands, which no alias can shadow. Transport is
limited to local paths (`GIT_ALLOW_PROTOCOL=file`). tests/gate/test_gate_hostile_git.py plants each
of these and shows nothing runs.
"""

from __future__ import annotations

import functools
import os
import re
import stat
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from a2a_tui.errors import A2AError

FULL_SHA = re.compile(r"^[0-9a-f]{40}$")
ZERO_SHA = "0" * 40
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"   # git's tree with nothing in it


# What a git process may take from a2a's own environment: where programs are, the user's home (for
# `~` in a path), a temp folder, the time zone. The rest is dropped: a hook or an agent's pane
# that started a2a could have set any GIT_* variable.
PASSED_ENV = ("PATH", "HOME", "TMPDIR", "TZ")
FIXED_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_ATTR_NOSYSTEM": "1",
    "GIT_NO_REPLACE_OBJECTS": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat",
    "PAGER": "cat", "GIT_EDITOR": ":", "GIT_SEQUENCE_EDITOR": ":", "GIT_ASKPASS": "",
    "SSH_ASKPASS": "", "GIT_OPTIONAL_LOCKS": "0", "GIT_ALLOW_PROTOCOL": "file", "LC_ALL": "C",
}
# Command-line scope (GIT_CONFIG_COUNT pairs): wins over .git/config and whatever it includes.
# An empty credential.helper empties the list of helpers.
HARDENED_CONFIG = (
    ("core.hooksPath", os.devnull), ("core.fsmonitor", "false"), ("core.pager", "cat"),
    ("core.editor", ":"), ("sequence.editor", ":"), ("core.askPass", ""),
    ("credential.helper", ""), ("core.sshCommand", "ssh"), ("log.showSignature", "false"),
    ("commit.gpgSign", "false"), ("tag.gpgSign", "false"), ("gc.auto", "0"),
    ("maintenance.auto", "false"), ("submodule.recurse", "false"),
    ("status.submoduleSummary", "false"), ("diff.ignoreSubmodules", "all"),
)
# The settings of a filter driver, each set to nothing (an empty command runs no filter, and a
# driver that is not `required` may then be skipped).
FILTER_KEYS = (("clean", ""), ("smudge", ""), ("process", ""), ("required", "false"))
# git commands that read or write the files of a worktree, where filters apply.
_FILES_COMMANDS = frozenset({"worktree", "status", "add", "commit", "checkout", "reset",
                             "stash", "checkout-index", "archive"})


def hardened_env(extra: dict[str, str] | None = None,
                 config: tuple[tuple[str, str], ...] = ()) -> dict[str, str]:
    """The environment of every git process a2a runs: see the module docstring. `config` adds
    command-line-scope settings after the hardened ones; `extra` adds variables (an index)."""
    env = {k: os.environ[k] for k in PASSED_ENV if k in os.environ}
    env.update(FIXED_ENV)
    pairs = (*HARDENED_CONFIG, *config)
    env["GIT_CONFIG_COUNT"] = str(len(pairs))
    for i, (key, value) in enumerate(pairs):
        env[f"GIT_CONFIG_KEY_{i}"] = key
        env[f"GIT_CONFIG_VALUE_{i}"] = value
    if extra:
        env.update(extra)
    return env


def reading_env() -> dict[str, str]:
    """For reading a config value as the user's git would (their global and system files too):
    reading config runs no program. Still nothing else of the caller's environment."""
    keep = (*PASSED_ENV, "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
            "GIT_CONFIG_NOSYSTEM")
    return {**{k: os.environ[k] for k in keep if k in os.environ}, "LC_ALL": "C",
            "GIT_NO_REPLACE_OBJECTS": "1"}


def filter_overrides(config_names: str) -> tuple[tuple[str, str], ...]:
    """Command-line settings that empty every filter driver named in `config_names` (the output
    of `git config --list --name-only -z`). A driver's name may hold dots, `=` or spaces: the
    pairs travel in the environment, where no `-c key=value` parsing splits them."""
    drivers = []
    for name in config_names.split("\0"):
        section, _, rest = name.partition(".")
        sub, _, key = rest.rpartition(".")
        if section.lower() == "filter" and sub and sub not in drivers:
            drivers.append(sub)
    return tuple((f"filter.{d}.{k}", v) for d in drivers for k, v in FILTER_KEYS)


# Every diff a2a asks for: no external diff program and no textconv driver, whatever the
# attributes and config say (and the same text on every machine).
NO_DRIVERS = ("--no-ext-diff", "--no-textconv")


def user_identity() -> dict[str, str]:
    """The user's own name and email (their global config) for what a2a records in a reflog;
    empty when they have none (git then makes one up, as it would)."""
    return dict(_identity(*(os.environ.get(k) for k in (
        "HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
        "GIT_CONFIG_NOSYSTEM"))))


@functools.lru_cache(maxsize=8)
def _identity(*_env_key: str | None) -> tuple[tuple[str, str], ...]:
    out = []
    for key, names in (("user.name", ("GIT_COMMITTER_NAME", "GIT_AUTHOR_NAME")),
                       ("user.email", ("GIT_COMMITTER_EMAIL", "GIT_AUTHOR_EMAIL"))):
        proc = subprocess.run(["git", "config", "--global", "--includes", "--get", key],
                              capture_output=True, text=True, errors="replace",
                              env=reading_env(), stdin=subprocess.DEVNULL, cwd=os.sep)
        if proc.returncode == 0 and proc.stdout.strip():
            out += [(n, proc.stdout.strip()) for n in names]
    return tuple(out)


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


@dataclass(frozen=True)
class Change:
    """One path changed between two commits (`git diff --raw`): its status letter (A, M, D, T),
    its mode and blob after and before (zeros where there is none)."""

    status: str
    path: str
    new_mode: str
    new_blob: str
    old_blob: str = ZERO_SHA
    old_mode: str = "000000"

    @property
    def is_symlink(self) -> bool:
        return self.new_mode == "120000"


@dataclass(frozen=True)
class TreeEntry:
    """One entry of a commit's tree, recursively (`git ls-tree -r`): a blob (a file, or a
    symlink with mode 120000) or a commit (a submodule's gitlink, mode 160000)."""

    mode: str
    kind: str
    oid: str
    path: str

    @property
    def is_symlink(self) -> bool:
        return self.mode == "120000"

    @property
    def executable(self) -> bool:
        return self.mode == "100755"


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
             env: dict[str, str] | None = None, cwd: Path | None = None,
             files: bool = False, also: Path | None = None, reading: bool = False) -> _Result:
        """Run git hardened (module docstring). `files`: the command reads or writes a
        worktree's files (implied for the commands in _FILES_COMMANDS), so filter drivers are
        emptied, the ones the config at `cwd` (and at `also`, a worktree it acts on) defines.
        `reading`: a config read as the user's git does it (`reading_env`)."""
        where = cwd or self.cwd
        if reading:
            full_env = {**reading_env(), **(env or {})}
        else:
            config: tuple[tuple[str, str], ...] = ()
            if files or args[0] in _FILES_COMMANDS:
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
                else subprocess.DEVNULL,
            )
        except FileNotFoundError as exc:
            raise GitError(args[0], "", code="git_missing",
                           message="git is not installed or not on PATH") from exc
        res = _Result(proc.returncode, proc.stdout, proc.stderr)
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

    # --- repositories --------------------------------------------------------
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

    # --- facts ---------------------------------------------------------------
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

    def tree_of(self, rev: str) -> str:
        return self._out("rev-parse", f"{rev}^{{tree}}")

    def changed_paths(self, base: str, head: str) -> list[str]:
        """Paths changed between two commits (renames count as delete + add)."""
        out = self._run("diff", *NO_DRIVERS, "--name-only", "--no-renames", "-z", base,
                        head).stdout
        return [p for p in out.split("\0") if p]

    def numstat(self, base: str, head: str) -> tuple[int, int]:
        added = deleted = 0
        for line in self._run("diff", *NO_DRIVERS, "--numstat", "--no-renames", base,
                              head).stdout.splitlines():
            a, d, _ = line.split("\t", 2)
            if a != "-":
                added += int(a)
                deleted += int(d)
        return added, deleted

    def diff_text(self, base: str, head: str) -> str:
        """The unified diff from `base` to `head` as git prints it for a person (renames found,
        no colour, no external diff or textconv driver: the same text on every machine)."""
        return self._run("diff", *NO_DRIVERS, "--no-color", "--find-renames", base,
                         head).stdout

    def line_count(self, rev: str, path: str) -> int | None:
        """How many lines file `path` has at commit `rev` (a binary file: 0); None when `rev`
        has no such file."""
        res = self._run("cat-file", "-t", f"{rev}:{path}", check=False)
        if not res.ok or res.stdout.strip() != "blob":
            return None
        # Added lines against the empty tree: counted by git, never decoded here.
        out = self._out("diff", *NO_DRIVERS, "--numstat", "--no-renames", EMPTY_TREE, rev, "--",
                        path)
        added = out.split("\t", 1)[0] if out else "0"
        return int(added) if added.isdigit() else 0

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

    def changes(self, base: str, head: str) -> list[Change]:
        """Every path changed between two commits, with its new mode and blob (renames count as
        delete + add)."""
        out = self._run("diff", *NO_DRIVERS, "--raw", "-z", "--no-renames", "--no-abbrev", base,
                        head).stdout
        fields = out.split("\0")
        found = []
        for meta, path in zip(fields[0::2], fields[1::2], strict=False):
            if not meta.startswith(":"):
                continue
            old_mode, new_mode, old_blob, new_blob, status = meta[1:].split(" ")
            found.append(Change(status[0], path, new_mode, new_blob, old_blob, old_mode))
        return found

    def renames(self, base: str, head: str) -> dict[str, str]:
        """Files git sees renamed between two commits (content at least half the same):
        old path -> new path."""
        out = self._run("diff", "--name-status", "-z", "-M", "--no-abbrev", base, head).stdout
        fields, found, i = out.split("\0"), {}, 0
        while i < len(fields) - 1:
            status = fields[i]
            if status.startswith("R"):
                found[fields[i + 1]] = fields[i + 2]
                i += 3
            elif status.startswith("C"):
                i += 3
            else:
                i += 2
        return found

    def blob(self, sha: str) -> bytes:
        """The contents of a blob (a file, or a symlink's target)."""
        return self._bytes("cat-file", "blob", sha)

    def symlinks(self, commit: str) -> dict[str, bytes]:
        """Every symlink in `commit`'s tree: path -> target."""
        out = self._run("ls-tree", "-r", "-z", "--full-tree", commit).stdout
        links = {}
        for entry in out.split("\0"):
            if entry.startswith("120000 "):
                meta, path = entry.split("\t", 1)
                links[path] = self.blob(meta.split(" ")[2])
        return links

    def tree_entries(self, commit: str) -> list[TreeEntry]:
        """Every entry of `commit`'s tree, recursively, in git's order (a folder's entries
        together, after the entries that sort before it)."""
        out = self._bytes("ls-tree", "-r", "-z", "--full-tree", commit)
        entries = []
        for raw in out.split(b"\0"):
            if raw:
                meta, _, path = raw.partition(b"\t")
                mode, kind, oid = meta.decode("ascii").split(" ")
                entries.append(TreeEntry(mode, kind, oid, os.fsdecode(path)))
        return entries

    def object_format(self) -> str:
        """The repository's hash: `sha1` or `sha256`."""
        res = self._run("rev-parse", "--show-object-format", check=False)
        return res.stdout.strip() if res.ok and res.stdout.strip() else "sha1"

    def blobs(self, oids: list[str]) -> Iterator[bytes]:
        """The contents of each blob in `oids`, in order, streamed from one `git cat-file
        --batch` (a whole tree's files without holding them all in memory)."""
        proc = subprocess.Popen(["git", "cat-file", "--batch"], cwd=str(self.cwd),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=hardened_env())
        assert proc.stdin is not None and proc.stdout is not None

        def feed() -> None:
            try:
                for oid in oids:
                    proc.stdin.write(f"{oid}\n".encode())
                proc.stdin.close()
            except (BrokenPipeError, ValueError):
                pass  # cat-file stopped (the reader below says why)

        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
        try:
            for oid in oids:
                header = proc.stdout.readline().split()
                if len(header) != 3 or header[1] != b"blob":
                    raise GitError("cat-file", f"{oid}: not a blob here"
                                   f" ({b' '.join(header).decode(errors='replace')})")
                size = int(header[2])
                data = proc.stdout.read(size)
                proc.stdout.read(1)                     # the newline after the contents
                if len(data) != size:
                    raise GitError("cat-file", f"{oid}: cut short")
                yield data
        finally:
            proc.stdout.close()
            proc.kill()
            proc.wait()
            feeder.join()

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

    def files(self, commit: str) -> list[str]:
        """Every file path in `commit`'s tree."""
        out = self._run("ls-tree", "-r", "-z", "--name-only", "--full-tree", commit).stdout
        return [p for p in out.split("\0") if p]

    def paths_exist(self, commit: str, paths: list[str]) -> dict[str, bool]:
        """Whether each path (a file or a folder) is in `commit`'s tree."""
        clean = [p for p in paths if "\n" not in p]
        if not clean:
            return {p: False for p in paths}
        out = self._run("cat-file", "--batch-check",
                        input="".join(f"{commit}:{p}\n" for p in clean)).stdout.splitlines()
        found = {p: not line.endswith(" missing") for p, line in zip(clean, out, strict=True)}
        return {p: found.get(p, False) for p in paths}

    def file_at(self, rev: str, path: str) -> bytes | None:
        """The contents of file `path` at commit `rev` (a symlink: its target); None when
        `rev` has no such file."""
        res = self._run("cat-file", "-t", f"{rev}:{path}", check=False)
        if not res.ok or res.stdout.strip() != "blob":
            return None
        return self._bytes("cat-file", "blob", f"{rev}:{path}")

    def commit_text(self, sha: str) -> str:
        """A commit as a person reads it: its SHA, author, date and message."""
        return self._run("log", "-1", "--no-color", "--format=commit %H%nAuthor: %an <%ae>%n"
                         "Date:   %ad%n%n%w(0,4,4)%B", sha).stdout

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
        return not self._run("diff", *NO_DRIVERS, "--quiet", commit, "--", cwd=cwd, check=False,
                             files=True).ok

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

    # --- changes -------------------------------------------------------------
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

    def worktree_add(self, path: Path, branch: str, start: str) -> None:
        self._run("worktree", "add", "-b", branch, str(path), start, env=user_identity())

    def worktree_add_detached(self, path: Path, sha: str) -> None:
        self._run("worktree", "add", "--detach", str(path), sha)

    def worktree_remove(self, path: Path, force: bool = False) -> None:
        self._run("worktree", "remove", *(["--force"] if force else []), str(path), also=path)

    def worktree_prune(self) -> None:
        """Forget worktrees whose folders are gone (best effort: a failure changes nothing)."""
        self._run("worktree", "prune", check=False)

    def delete_branch(self, branch: str) -> None:
        """Delete `branch` if it exists (best effort: a missing branch is not an error)."""
        self._run("branch", "-D", branch, check=False, env=user_identity())

    # --- an attempt's clone (gate/attempts/ownership.py) ------------------------------------------
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
        clone = Git(path)
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

    def identity(self) -> dict[str, str]:
        """`user.name` and `user.email` as git reads them here (for an attempt's clone)."""
        return {k: v for k in ("user.name", "user.email") if (v := self.config_value(k))}

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

    def work_tree_status(self, work_tree: Path, commit: str, index: Path) -> list[str]:
        """What the files at `work_tree` hold beyond `commit`: its tracked files that changed
        (`M path`, deleted ones too) and untracked files that are not ignored (`?? path`),
        judged by this repository's git with a fresh index (`index`, a scratch file) read from
        `commit`. The work tree's own `.git` (an attempt's clone) is never read: its config,
        hooks and index are its agent's."""
        env = {"GIT_DIR": str(self.common_dir()), "GIT_WORK_TREE": str(work_tree),
               "GIT_INDEX_FILE": str(index)}
        self._run("read-tree", commit, cwd=work_tree, env=env)
        changed = self._run("diff", *NO_DRIVERS, "--name-only", "--no-renames", "-z",
                            cwd=work_tree, env=env, files=True).stdout
        others = self._run("ls-files", "--others", "--exclude-standard", "-z", cwd=work_tree,
                           env=env).stdout
        return ([f"M {p}" for p in changed.split("\0") if p]
                + [f"?? {p}" for p in others.split("\0") if p])

    def write_tree(self, cwd: Path | None = None) -> str | None:
        """The tree the index at `cwd` holds, or None when it cannot be written (a merge in
        progress leaves unmerged entries)."""
        res = self._run("write-tree", cwd=cwd, check=False)
        return res.stdout.strip() if res.ok else None

    def read_tree(self, old: str, new: str, cwd: Path | None = None) -> None:
        """Bring the index and the files at `cwd` from tree `old` to tree `new` (a two-tree
        merge, `read-tree -m -u`: refused when it would lose a local change)."""
        self._run("read-tree", "-m", "-u", old, new, cwd=cwd, files=True)


# fsck's findings about paths in a tree are the gate's to judge and name (its boundary step:
# `path_refused`, a rejection with its reason); every other finding refuses the import.
PATH_CHECKS = ",".join(f"{m}=warn" for m in ("hasDot", "hasDotdot", "hasDotgit", "fullPathname",
                                               "gitmodulesSymlink"))


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


# git's words for the two refusals of a ref update that are not failures of git itself.
_LOCKED = re.compile(r"Unable to create '(?P<lock>[^']+\.lock)': File exists")
_MOVED = re.compile(r"is at [0-9a-f]+ but expected|reference already exists"
                    r"|unable to resolve reference")


def _ref_update_error(ref: str, res: _Result) -> GitError:
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
