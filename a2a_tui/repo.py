"""Where a repository's a2a state lives, and its validated config (`.a2a/config.toml`).

Rule files (`.a2a/gate.toml`, `.a2a/config.toml`) are files any process of the user can write,
an agent's shell included. What they say is in force only once the user accepted it (`a2a
gate-rules accept`, recorded as a `rules_accepted` event holding the accepted text): `rule_file`
gives the text in force, which is the file only when it is what was accepted. Until then the
last accepted text stands (before any acceptance: gate.toml's defaults, config.toml's target
branch as `a2a init` recorded it).
"""

# Imports inside functions: tomllib, tomli_w, pydantic and the store load only for a command
# that needs them (a2a's start-up: tests/test_startup.py).

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a2a_tui import identity
from a2a_tui.config import Config, read_plain, validate
from a2a_tui.errors import A2AError
from a2a_tui.git import Git
from a2a_tui.payloads.rules import RulesAccepted

A2A_DIR = ".a2a"
SPOOL = "spool"
BROKER_SOCKET = "a2a.sock"
SESSION_OUT = "out"
DEMO_MARKER = "demo.json"
# Not a session's folder: where the spool's refused files go (`spool/quarantine/`).
QUARANTINE = "quarantine"
GATE_TOML = "gate.toml"
CONFIG_TOML = "config.toml"
RULE_FILES = (GATE_TOML, CONFIG_TOML)


@dataclass(frozen=True)
class RuleFile:
    """A rule file: what is in force (`text`) and what the file says now (`disk`)."""

    name: str                   # gate.toml | config.toml
    path: Path
    text: str                   # in force
    disk: str | None            # the file as it is now; None when there is none
    accepted_seq: int | None    # the acceptance in force (None: none yet, or no store)
    unreadable: str | None = None   # why the file cannot be read (a folder, say): not accepted

    @property
    def label(self) -> str:
        return f"{A2A_DIR}/{self.name}"

    @property
    def digest(self) -> str:
        return text_digest(self.text)

    @property
    def disk_digest(self) -> str:
        return text_digest(self.disk or "")

    @property
    def pending(self) -> bool:
        """Whether the file says something that is not in force."""
        return self.unreadable is not None or (self.disk or "") != self.text


def text_digest(text: str) -> str:
    import hashlib

    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


@dataclass(frozen=True)
class Repo:
    """A git repository's main worktree and the `.a2a/` folder inside it."""

    root: Path

    @property
    def a2a_dir(self) -> Path:
        return self.root / A2A_DIR

    @property
    def db_path(self) -> Path:
        return self.a2a_dir / "a2a.db"

    @property
    def config_path(self) -> Path:
        return self.a2a_dir / "config.toml"

    @property
    def spool_dir(self) -> Path:
        """The spool: a folder per session (`session_spool_dir`), the wake files a command
        drops after committing, and `quarantine/`."""
        return self.a2a_dir / SPOOL

    def session_spool_dir(self, session: str) -> Path:
        """The one folder the session's hooks write into: the orchestrator takes a signal's
        session from it, never from the file (panes/spool.py)."""
        return self.spool_dir / _session_folder(session)

    @property
    def broker_dir(self) -> Path:
        return self.a2a_dir / "broker"

    def session_broker_dir(self, session: str) -> Path:
        """The folder (mode 0700) holding the session's broker socket: the folder, not the
        socket, is what a sandbox binds, so the socket can be made again behind it."""
        return self.broker_dir / _session_folder(session)

    def broker_socket(self, session: str) -> Path:
        """The socket through which the session, and only it, reaches a2a (a2a_tui/broker)."""
        return self.session_broker_dir(session) / BROKER_SOCKET

    @property
    def worktrees_dir(self) -> Path:
        return self.a2a_dir / "worktrees"

    @property
    def locks_dir(self) -> Path:
        return self.a2a_dir / "locks"

    @property
    def runs_dir(self) -> Path:
        """Per-session generated files (settings, role cards, logs)."""
        return self.a2a_dir / "run"

    def session_run_dir(self, session: str) -> Path:
        """The session's run folder (its launch script, settings, git hooks, `a2a` shim): read
        only to the session, inside its confinement."""
        return self.runs_dir / _session_folder(session)

    def session_out_dir(self, session: str) -> Path:
        """Where the session writes its own results (a review report, a card draft): the one
        part of its run folder it may write, seen at the same path by a2a and the session."""
        return self.session_run_dir(session) / SESSION_OUT

    @property
    def demo_marker(self) -> Path:
        """What `a2a demo` writes in the sample repository it builds (a2a_tui/demo/start.py):
        under `.a2a/`, so no agent can write it."""
        return self.a2a_dir / DEMO_MARKER

    def demo(self) -> dict[str, Any] | None:
        """What `a2a demo` recorded about this repository, or None for any other."""
        try:
            data = json.loads(self.demo_marker.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and data.get("root") == str(self.root) else None

    @property
    def git(self) -> Git:
        return Git(self.root)

    @property
    def initialized(self) -> bool:
        return self.config_path.is_file()

    def config(self) -> Config:
        """The repository's config in force (`rule_file`: what the user accepted)."""
        # The standard library reads the file as `write_config` leaves it; tomllib and pydantic
        # only what that cannot read, for the exact error (see `a2a_tui.config`).
        if not self.config_path.is_file():
            raise A2AError("not_initialized", f"{self.root} has no a2a state; run `a2a init`")
        text = self.rule_file(CONFIG_TOML).text
        cfg = read_plain(text) or self._validated(text)
        if not cfg.tmux_session:
            cfg.tmux_session = default_tmux_session(self.root)
        return cfg

    def _validated(self, text: str) -> Config:
        return validate_config_text(text, self.config_path)

    def write_config(self, cfg: Config) -> None:
        """Write the config as a2a does for the user (`a2a init`, the demo): what it writes is
        accepted at once (recorded when the store exists)."""
        import tomli_w

        data = validate(cfg.as_dict()).as_dict()  # pydantic in, tomli-w out
        tmp = self.config_path.with_suffix(".toml.tmp")
        data = {k: v for k, v in data.items() if v is not None}
        text = tomli_w.dumps(data)
        tmp.write_text(text, encoding="utf-8")
        before = self.rule_file(CONFIG_TOML).text if self.config_path.is_file() else ""
        os.replace(tmp, self.config_path)
        if self.db_path.exists() and text != before:
            with self.store() as store, store.write() as tx:
                record_acceptance(tx, self.rule_file(CONFIG_TOML), before, actor="user",
                                  how="written by a2a for the user")

    # --- rule files: in force only once the user accepted them ----------------------------
    def rule_path(self, name: str) -> Path:
        return self.a2a_dir / name

    def rule_file(self, name: str) -> RuleFile:
        """The rule file `name` (gate.toml, config.toml): the text in force and the file's."""
        path = self.rule_path(name)
        unreadable = None
        try:
            disk: str | None = path.read_text(encoding="utf-8", errors="surrogateescape")
        except FileNotFoundError:
            disk = None
        except OSError as exc:   # whatever is there stays out of force; the user is told
            disk, unreadable = None, exc.strerror or str(exc)
        if not self.db_path.exists():   # before `a2a init` made the store: the user's own
            if unreadable:
                raise A2AError("bad_config", f"{path}: cannot read: {unreadable}")
            return RuleFile(name, path, disk or "", disk, None)
        accepted = self._accepted(name)
        if accepted is not None:
            return RuleFile(name, path, accepted[1], disk, accepted[0], unreadable)
        return RuleFile(name, path, self._before_acceptance(name), disk, None, unreadable)

    def _accepted(self, name: str) -> tuple[int, str] | None:
        import sqlite3

        try:
            con = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=15)
            try:
                row = con.execute(
                    "SELECT seq, json_extract(payload, '$.text') FROM events"
                    " WHERE kind = 'rules_accepted' AND json_extract(payload, '$.file') = ?"
                    " ORDER BY seq DESC LIMIT 1", (f"{A2A_DIR}/{name}",)).fetchone()
            finally:
                con.close()
        except sqlite3.Error as exc:
            if "no such table" in str(exc):
                return None
            raise A2AError("store_unavailable", f"{self.db_path}: {exc}") from exc
        return (row[0], row[1]) if row else None

    def _before_acceptance(self, name: str) -> str:
        """What is in force before any acceptance: gate.toml's defaults; for config.toml the
        target branch `a2a init` recorded (a store from before rules were accepted)."""
        if name != CONFIG_TOML:
            return ""
        import sqlite3

        con = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=15)
        try:
            row = con.execute("SELECT json_extract(payload, '$.target_branch') FROM events"
                              " WHERE kind = 'initialized' ORDER BY seq LIMIT 1").fetchone()
        except sqlite3.Error:
            row = None
        finally:
            con.close()
        if not row or not row[0]:   # a store that recorded nothing yet: `a2a init` will
            try:
                return self.rule_path(name).read_text(encoding="utf-8",
                                                      errors="surrogateescape")
            except OSError as exc:
                raise A2AError("bad_config", f"{self.rule_path(name)}: cannot read: {exc}"
                               ) from exc
        return f'target_branch = "{row[0]}"\n'

    def store(self):  # -> Store (import kept lazy: tiny CLIs that never touch the store stay fast)
        """The repository's store, checked to be its own (store/owner.py); never made here:
        only `init` makes one."""
        from a2a_tui.store.owner import open_store

        if not self.initialized:
            raise A2AError("not_initialized", f"{self.root} has no a2a state; run `a2a init`")
        return open_store(self.root, self.db_path)


def init(repo: Repo, target: str | None = None, *, adopt_namespace: bool = False,
         new_store: bool = False) -> dict[str, Any]:
    """Create `.a2a/` (store, spool, worktrees, config) in the repository, listed in
    `.git/info/exclude`; idempotent. `target` is the branch the gate integrates into (default:
    the one checked out). Returns root, a2a_dir, target_branch, whether the store was created
    now and a2a's PID namespace (`pid_namespace`, see identity.py).

    The only place a store is made (store/owner.py). Where the repository had one (its config,
    or its git directory's record of a store) and it is gone, init refuses (`store_missing`)
    unless `new_store`: then a new, empty record starts, naming the one it replaces.

    The store records the PID namespace of the process that creates it: a2a's own, the one
    in which a caller can be the user. A store from before that is given it by `a2a init` run
    again from a terminal; `adopt_namespace` replaces a recorded one (the machine's namespace
    changed, e.g. a restarted container). Both are recorded as events."""
    git = repo.git
    target = _target(git, repo.root, target)
    from a2a_tui.store import owner  # lazy: see the top of the module

    existed = repo.initialized
    present = repo.db_path.exists()
    recorded = owner.read_marker(owner.marker_path(repo.root))
    if new_store and present:
        raise A2AError("usage", f"--new-store makes a store only where none is: {repo.db_path}"
                       " exists (move it away first)", exit_code=2)
    if not present and (existed or recorded is not None) and not new_store:
        raise owner.missing(repo.db_path, recorded)
    _make_folders(repo)
    if not existed:
        repo.write_config(Config(target_branch=target))
    cfg = repo.config()
    here = identity.pid_namespace()
    if present:
        store = repo.store()
    else:
        # target_head: the gate's view of its target before its first advance.
        store = owner.create_store(
            repo.root, repo.db_path,
            {"target_branch": cfg.target_branch, "pid_namespace": here,
             "target_head": git.resolve_commit(f"refs/heads/{cfg.target_branch}")},
            replaces=recorded.store_id if recorded else None)
    try:
        if not present:
            _accept_rule_files(repo, store)
        namespace = _record_namespace(store, here, adopt_namespace)
    finally:
        store.close()
    return {"root": str(repo.root), "a2a_dir": str(repo.a2a_dir),
            "target_branch": cfg.target_branch, "created": not present,
            "pid_namespace": namespace, "this_pid_namespace": here}


def _target(git: Git, root: Path, target: str | None) -> str:
    """The branch `init` integrates into: `target`, else the one checked out at `root`; it must
    have a commit."""
    target = target or git.current_branch(root)
    if not target:
        raise A2AError("no_target", "HEAD is detached: name the target branch with --target BRANCH")
    if git.resolve_commit(f"refs/heads/{target}") is None:
        raise A2AError("no_target", f"branch {target!r} has no commit yet: commit once, then init")
    return target


def _make_folders(repo: Repo) -> None:
    """`.a2a/` and its folders (the broker's open to the user alone), listed in the repository's
    `info/exclude`."""
    repo.a2a_dir.mkdir(exist_ok=True)
    for d in (repo.spool_dir, repo.spool_dir / QUARANTINE, repo.worktrees_dir, repo.locks_dir,
              repo.runs_dir, repo.broker_dir):
        d.mkdir(parents=True, exist_ok=True)
    os.chmod(repo.broker_dir, 0o700)
    _exclude(repo.git.git_path("info/exclude"))


def _accept_rule_files(repo: Repo, store) -> None:
    """A new store's first record of the rule files: the user's `init` accepts them as they are
    now."""
    with store.write() as tx:
        for name in RULE_FILES:
            path = repo.rule_path(name)
            if path.is_file():
                text = path.read_text(encoding="utf-8", errors="surrogateescape")
                record_acceptance(tx, RuleFile(name, path, "", text, None), "",
                                  actor="user", how="a2a init")


def validate_config_text(text: str, path: Path) -> Config:
    """`.a2a/config.toml`'s text read by tomllib and the model; one `bad_config` error."""
    import tomllib

    from pydantic import ValidationError

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise A2AError("bad_config", f"{path}: {exc}") from exc
    try:
        return validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"])
        raise A2AError("bad_config", f"{path}: {field}: {err['msg']}") from exc


def record_acceptance(tx, rule: RuleFile, before: str, *, actor: str, how: str,
                      user_input: str | None = None, weakens: list[str] | None = None) -> int:
    """Record that the file as it is now (`rule.disk`) is in force, accepted by `actor`;
    `weakens`: what the change relaxes (gate.toml's thresholds), said in the record."""
    import difflib

    text = rule.disk or ""
    diff = "".join(difflib.unified_diff(before.splitlines(keepends=True),
                                        text.splitlines(keepends=True),
                                        fromfile="in force", tofile=rule.label))
    return tx.append("rules_accepted", actor=actor,
                     payload=RulesAccepted(file=rule.label, digest=text_digest(text),
                                           previous=text_digest(before), text=text, diff=diff,
                                           how=how, user_input=user_input, weakens=weakens))


def _record_namespace(store, here: str | None, adopt: bool) -> str | None:
    """Record this process's PID namespace as a2a's when the store has none (or `adopt`), and
    only from a terminal: a sandboxed command without one cannot make its namespace a2a's."""
    recorded = identity.recorded_pid_namespace(store)
    if here is None or recorded == here or (recorded is not None and not adopt):
        return recorded
    if not identity.controlling_tty():
        raise A2AError("caller_unidentified", "recording a2a's PID namespace needs a terminal:"
                       " run `a2a init` from yours")
    with store.write() as tx:
        tx.append("pid_namespace_recorded", actor="user",
                  payload={"pid_namespace": here, "previous": recorded})
    return here


def _exclude(exclude: Path) -> None:
    """List `/.a2a/` in the repository's own exclude file (never in .gitignore)."""
    exclude.parent.mkdir(parents=True, exist_ok=True)
    lines = exclude.read_text().splitlines() if exclude.exists() else []
    if "/.a2a/" not in lines and ".a2a/" not in lines:
        with open(exclude, "a") as f:
            if lines and lines[-1] != "":
                f.write("\n")
            f.write("/.a2a/\n")


def _session_folder(session: str) -> str:
    """A session id as a folder name: one path component, never the quarantine's."""
    if (not session or session == QUARANTINE or "/" in session or "\0" in session
            or session.startswith(".")):
        raise A2AError("bad_session_id", f"session id {session!r} cannot name a session's"
                       " folder", exit_code=2)
    return session


def default_tmux_session(root: Path) -> str:
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in root.name)
    return f"a2a-{safe}"


def find_repo(start: Path | str | None = None) -> Repo:
    """The main worktree of the repository containing `start` (also from a linked worktree)."""
    start = Path(start or os.getcwd())
    if not start.exists():
        raise A2AError("not_a_repo", f"{start} does not exist")
    found = Git(start).common_dir_and_bare()
    if found is None:
        raise A2AError("not_a_repo", f"{start} is not inside a git repository")
    common, bare = found
    if bare or common.name != ".git":
        raise A2AError("not_a_repo", f"{start}: a2a needs a repository with a main worktree")
    root = common.parent.resolve()
    return clone_owner(root) or Repo(root)


def clone_owner(root: Path) -> Repo | None:
    """The repository whose gate made the attempt's clone at `root` (`.a2a/worktrees/ID`),
    if it is one: a command typed in the clone (the `w` shell opens there, and a task prompt
    ends with `a2a submit`) acts on that repository, not on the clone as one of its own.
    Who is calling is decided apart (a2a_tui/identity.py); a confined agent sees no `.a2a/`
    but its clone, so its direct call still finds no state."""
    worktrees = root.parent
    owner = Repo(worktrees.parent.parent)
    if worktrees != owner.worktrees_dir or not (owner.root / ".git").is_dir():
        return None
    return owner if owner.initialized else None
