"""Throwaway checkouts of exactly one commit, made where nobody else reaches them, and compared in
full with what a2a put there.

Where: a fresh folder (mode 0700, an unguessable name) inside a folder of a2a's runtime directory
(`host.private_dir()`, outside every repository) whose mode is 0300: a2a enters it by name, but
no process can list it or watch it (inotify needs read permission), so a watcher polling for new
checkouts finds nothing. Nothing is registered in `.git/worktrees`.

What: the commit's tree, written by a2a itself from `git ls-tree` and `git cat-file --batch`
(the hardened git of a2a_tui/git/), each file streamed chunk by chunk, once the tree is known to
be within gate.toml's `[limits]` (tree_limits.py: `tree_too_large`, nothing written). No
`git checkout` runs, so no hook, filter, attribute or fsmonitor of the repository takes part:
the files are the commit's bytes. A path git itself would refuse (`..`, `.git`, a path through
a symlink) stops the checkout. A private `.git` of its own (HEAD at the commit, the
repository's objects borrowed read-only through its alternates, an index) lets a check run
`git rev-parse HEAD`, `git log` or `git diff` as in a clone; it cannot reach the repository's
config, hooks or refs.

Compared: `unexpected()` says what differs, file by file (untracked and ignored files, the private
`.git` and modes included), from the state a2a last saw: each entry as a2a wrote it (a file that
appeared meanwhile is not taken in), then after each run (`seen()`: a run's own output is
expected by the next). Each entry is compared by its type,
mode, size, inode, mtime and ctime (nobody but the kernel sets a ctime). `changed()` says which
of the commit's files a run changed (contents, type or executable bit).
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import secrets
import shutil
import stat
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from a2a_tui import host
from a2a_tui.errors import A2AError
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.verification.tree_limits import refuse_too_large
from a2a_tui.git import CHUNK, Change, GitError, TreeEntry

# Per-entry facts compared: type and mode, size, inode, mtime and ctime (a directory: its mode
# and inode; what it holds is compared entry by entry).
Facts = tuple[int, int, int, int, int, str]
LINK_BYTES = 4096   # the longest symlink target a file system takes (PATH_MAX)


def checkouts_dir() -> Path:
    """The folder all of a2a's checkouts are made in: enterable, not listable (0300)."""
    try:
        base = host.private_dir() / "checkouts"
    except PermissionError as exc:
        raise A2AError("unsafe_runtime_dir", str(exc)) from None
    try:
        base.mkdir(mode=0o300)
    except FileExistsError:
        os.chmod(base, 0o300)
    return base


class Tampered(Exception):
    """A checkout changed outside a2a since a2a last saw it: no run happens there."""

    def __init__(self, found: list[str]):
        super().__init__(", ".join(found[:20]))
        self.found = found


Overlay = Mapping[str, "TreeEntry | None"]   # path -> what to write there (None: no file)


def new_side(changes: Iterable[Change]) -> dict[str, TreeEntry | None]:
    """The changes' files as the later commit has them (laid over the earlier one)."""
    return {ch.path: None if ch.status == "D" else _entry(ch.new_mode, ch.new_blob, ch.path)
            for ch in changes}


def old_side(changes: Iterable[Change]) -> dict[str, TreeEntry | None]:
    """The changes' files as the earlier commit has them (laid over the later one)."""
    return {ch.path: None if ch.status == "A" else _entry(ch.old_mode, ch.old_blob, ch.path)
            for ch in changes}


def _entry(mode: str, oid: str, path: str) -> TreeEntry:
    return TreeEntry(mode, "commit" if mode == "160000" else "blob", oid, path)


class Checkout:
    """The commit at `sha` in a private folder: `with Checkout(g, sha, name) as path: ...`.
    `overlay`: files laid over it, from git's objects (`new_side`, `old_side`)."""

    def __init__(self, g: GateContext, sha: str, name: str, overlay: Overlay | None = None):
        self.g, self.sha, self.name = g, sha, name
        self.overlay = dict(overlay or {})
        self.path = checkouts_dir() / f"{secrets.token_hex(16)}"
        self.tracked: dict[str, TreeEntry] = {}
        self.written: dict[str, Facts] = {}
        self.expected: dict[str, Facts] = {}
        self._now: dict[str, Facts] | None = None   # the scan `changed` made, for `seen`

    def __enter__(self) -> Path:
        try:
            self.path.mkdir(mode=0o700)
            self._fill()
        except BaseException:
            self.close()
            raise
        return self.path

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        _remove(self.path)

    def ready(self) -> Path:
        """The folder, right before a run in it: `Tampered` when anything there differs from
        what a2a last saw (someone else wrote there)."""
        found = self.unexpected()
        if found:
            raise Tampered(found)
        return self.path

    # --- filling ----------------------------------------------------------------------------
    def _fill(self) -> None:
        git = self.g.git
        from a2a_tui.gate.cards import gate_rules  # pydantic: only a checkout's fill

        refuse_too_large(git, self.sha, gate_rules.in_force(self.g.repo).limits)
        entries = {e.path: e for e in git.tree_entries(self.sha)}
        for path, entry in self.overlay.items():
            entries.pop(path, None)
            if entry is not None:
                entries[path] = entry
        ordered = sorted(entries.values(), key=lambda e: e.path)
        links: set[str] = set()
        for e in ordered:
            _check_path(e.path, links)
            if e.is_symlink:
                links.add(e.path)
        contents = git.blobs([e.oid for e in ordered if e.kind == "blob"])
        made: dict[str, Facts] = {}
        written: dict[str, Facts] = {}
        try:
            for e in ordered:
                try:
                    written[e.path] = _write(self.path, e, None if e.kind == "commit"
                                             else next(contents), made)
                except OSError as exc:      # a name or a path the file system refuses
                    raise _Refused(e.path, exc.strerror or str(exc)) from exc
        finally:
            contents.close()
        self.tracked = entries
        git.init_private(self.path / ".git", Path(git.git_path("objects")), self.sha)
        # What is expected here is what a2a made, each entry's facts taken as it was written
        # (not a scan afterwards, which would take in a file planted meanwhile), and the
        # private .git as init_private left it.
        dot_git = self.path / ".git"
        self.expected = {**made, **written, ".git": _facts(os.lstat(dot_git), dot_git),
                         **{f".git/{p}": f for p, f in scan(dot_git).items()}}
        self.written = written

    # --- comparing --------------------------------------------------------------------------
    def unexpected(self) -> list[str]:
        """Every path that differs from what a2a last saw here (new, gone or changed)."""
        now = scan(self.path)
        return sorted(p for p in now.keys() | self.expected.keys()
                      if now.get(p) != self.expected.get(p))

    def seen(self) -> None:
        """What is here now is expected (a run's own output, after the run ended)."""
        self.expected = self._now if self._now is not None else scan(self.path)
        self._now = None

    def changed(self) -> list[str]:
        """The commit's files that are no longer as the commit has them."""
        now = self._now = scan(self.path)
        algo = None
        out = []
        for path, e in self.tracked.items():
            facts = now.get(path)
            if facts is None:
                out.append(path)
            elif facts != self.written.get(path):
                algo = algo or self.g.git.object_format()
                if not _same(e, os.path.join(self.path, path), algo):
                    out.append(path)
        return sorted(out)


class Workspace:
    """The candidate's checkout the chain's run steps share, in order: build outputs (untracked
    files) stay for the next step; after a step that changed a tracked file, the next one gets a
    fresh checkout."""

    def __init__(self, g: GateContext, sha: str, name: str):
        self.g, self.sha, self.name = g, sha, name
        self.n = 0
        self.current: Checkout | None = None

    def path(self) -> Path:
        return self.checkout().path

    def checkout(self) -> Checkout:
        """The current checkout, made when there is none (GitError when it cannot be)."""
        if self.current is None:
            self.n += 1
            co = Checkout(self.g, self.sha, f"{self.name}-{self.n}")
            co.__enter__()
            self.current = co
        return self.current

    def ready(self) -> Path:
        """The current checkout's folder right before a run (`Checkout.ready`); a tampered
        checkout is dropped (the next step gets a new one)."""
        try:
            return self.checkout().ready()
        except Tampered:
            self.close()
            raise

    def changed(self) -> list[str]:
        """Compare with the SHA's tree after a run; a changed checkout is dropped (the next step
        gets a new one), an unchanged one's new files are expected from now on."""
        if self.current is None:
            return []
        changed = self.current.changed()
        if changed:
            self.close()
        else:
            self.current.seen()
        return changed

    def close(self) -> None:
        if self.current is not None:
            self.current.close()
            self.current = None


def scan(root: Path) -> dict[str, Facts]:
    """Every entry below `root` (symlinks not followed): relative path -> its facts."""
    out: dict[str, Facts] = {}
    stack: list[tuple[str | Path, str]] = [(root, "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            with os.scandir(folder) as it:
                for entry in it:
                    rel = prefix + entry.name
                    st = entry.stat(follow_symlinks=False)
                    out[rel] = _facts(st, entry.path)
                    if stat.S_ISDIR(st.st_mode):
                        stack.append((entry.path, rel + "/"))
        except OSError as exc:   # a folder a run made unreadable: a fact like any other
            out[(prefix or "./") + " (cannot be read)"] = (0, 0, 0, 0, 0, exc.strerror or "")
    return out


def _facts(st: os.stat_result, path: str | Path) -> Facts:
    if stat.S_ISDIR(st.st_mode):
        return (st.st_mode, st.st_ino, 0, 0, 0, "")
    try:
        link = os.readlink(path) if stat.S_ISLNK(st.st_mode) else ""
    except OSError:
        link = " (cannot be read)"
    return (st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, link)


def _same(e: TreeEntry, target: str, algo: str) -> bool:
    """Whether the file at `target` is still the commit's entry `e`."""
    try:
        st = os.lstat(target)
    except OSError:
        return False
    if e.kind == "commit":
        return stat.S_ISDIR(st.st_mode)
    if e.is_symlink:
        return stat.S_ISLNK(st.st_mode) and _blob_id(os.fsencode(os.readlink(target)),
                                                     algo) == e.oid
    if not stat.S_ISREG(st.st_mode) or bool(st.st_mode & stat.S_IXUSR) != e.executable:
        return False
    h = hashlib.new(algo)
    h.update(f"blob {st.st_size}\0".encode())
    try:
        with open(target, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    except OSError:
        return False
    return h.hexdigest() == e.oid


def _blob_id(data: bytes, algo: str) -> str:
    return hashlib.new(algo, f"blob {len(data)}\0".encode() + data).hexdigest()


class _Refused(GitError):
    """The tree holds a path a2a will not write (the chain reports `checkout_failed`)."""

    def __init__(self, path: str, why: str):
        # git's own operation name, not a code of a2a's (the code stays `git_failed`)
        super().__init__(operation="checkout", stderr=f"{path!r}: {why}")


def _check_path(path: str, links: set[str]) -> None:
    """Refuse a path git itself would not check out: empty, `.`, `..` or `.git` parts, or one
    that goes through a symlink of the same tree."""
    parts = path.split("/")
    if any(p in ("", ".", "..") or p.lower().rstrip(". ") == ".git" for p in parts):
        raise _Refused(path, "a path git refuses to check out")
    for i in range(1, len(parts)):
        if "/".join(parts[:i]) in links:
            raise _Refused(path, "beyond a symbolic link in the tree")


def _write(root: Path, e: TreeEntry, data: Iterator[bytes] | None,
           made: dict[str, Facts]) -> Facts:
    """Write one entry of the tree (never through a symlink, never over something there),
    its contents streamed chunk by chunk; its facts as written. `made`: the folders made so
    far, with theirs."""
    target = os.path.join(root, e.path)
    _make_parents(root, e.path, made)
    if data is None:                     # a submodule: git leaves an empty folder
        os.mkdir(target, 0o755)
        made[e.path] = _facts(os.lstat(target), target)
        return made[e.path]
    if e.is_symlink:
        link = b"".join(itertools.islice(data, 1 + LINK_BYTES // CHUNK))
        if len(link) > LINK_BYTES:
            raise _Refused(e.path, f"a symlink's target longer than {LINK_BYTES} bytes")
        os.symlink(os.fsdecode(link), target)
        return _facts(os.lstat(target), target)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                 0o755 if e.executable else 0o644)
    try:
        for chunk in data:
            view = memoryview(chunk)
            while view:
                view = view[os.write(fd, view):]
        return _facts(os.fstat(fd), target)
    finally:
        os.close(fd)


def _make_parents(root: Path, path: str, made: dict[str, Facts]) -> None:
    parts = path.split("/")[:-1]
    for i in range(1, len(parts) + 1):
        folder = "/".join(parts[:i])
        if folder in made:
            continue
        where = os.path.join(root, folder)
        try:
            os.mkdir(where, 0o755)
        except FileExistsError:
            if not stat.S_ISDIR(os.lstat(where).st_mode):
                raise _Refused(path, "a file of the tree is in its way") from None
        made[folder] = _facts(os.lstat(where), where)


def _remove(path: Path) -> None:
    """Remove a checkout, whatever a run left in it (a folder it made read-only too)."""
    def writable(func, p, _exc) -> None:
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(p), 0o700)
            os.chmod(p, 0o700)
            func(p)

    if path.is_symlink():
        path.unlink()
    elif path.exists():
        shutil.rmtree(path, onerror=writable)
