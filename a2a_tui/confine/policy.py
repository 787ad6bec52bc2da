"""What one session may read and write: a `Policy`, the same for every engine.

Paths are the same inside the sandbox and outside (each is bound at its own host path), so a
cwd, a hook's `--spool` or an error message means the same thing on both sides.

A session writes: its working folder when it is an attempt's clone (a worker's), its own output
folder (`.a2a/run/<s>/out`: a review report, a card draft), a private /tmp, its CLI's own state
folders, its spool folder and its broker folder. It reads: the system, its CLI's install, a2a's
install, the repository with `.a2a/` hidden (only its own folders are bound back), its run
folder (settings, git hooks) and what the user's settings add. It does not see the rest of
`.a2a/`, tmux's socket folder, the rest of HOME, or other processes.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

# The system, read-only. A name that is a symlink here (/bin -> usr/bin on a merged /usr) is
# made the same symlink inside.
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
          "/nix", "/sys")
@dataclass(frozen=True)
class Policy:
    """Everything an engine needs, in absolute, normalised paths.

    `read` and `write` are bound at their own paths; `private` get an empty, writable tmpfs
    (HOME, /tmp) before them; `hidden` are covered by an empty read-only tmpfs after the
    `read` binds and before `write` and `reopen` (so `.a2a/` is hidden and the session's own
    folders under it come back); `symlinks` maps a path to what it points at."""

    read: tuple[str, ...]
    write: tuple[str, ...]
    private: tuple[str, ...]
    hidden: tuple[str, ...]
    reopen: tuple[str, ...] = ()          # read-only again under a hidden path (run folder)
    symlinks: tuple[tuple[str, str], ...] = ()
    unset_env: tuple[str, ...] = ("TMUX", "TMUX_TMPDIR", "A2A_TMUX_SOCKET")
    set_env: tuple[tuple[str, str], ...] = (("TMPDIR", "/tmp"),)
    notes: tuple[str, ...] = field(default=(), compare=False)
    # A check's run (confine/checks.py): a terminal session of its own (no controlling
    # terminal, so no TIOCSTI and no terminal to be taken for the user's), the network only
    # when the card asks, and every private tmpfs sized.
    new_session: bool = False
    network: bool = True
    tmpfs_mb: int = 0

    def to_json(self) -> dict:
        return {"read": list(self.read), "write": list(self.write),
                "private": list(self.private), "hidden": list(self.hidden),
                "reopen": list(self.reopen), "symlinks": [list(s) for s in self.symlinks],
                "unset_env": list(self.unset_env), "new_session": self.new_session,
                "network": self.network, "tmpfs_mb": self.tmpfs_mb}


def norm(p: str | Path) -> str:
    """`p` absolute and normalised (`~` expanded)."""
    return os.path.normpath(os.path.abspath(os.path.expanduser(str(p))))


def under(path: str, roots: Iterable[str]) -> bool:
    """`path` is one of `roots` or inside one."""
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def dedup(paths: Iterable[str]) -> tuple[str, ...]:
    """`paths` in their order, each once."""
    out: list[str] = []
    for p in paths:
        if p not in out:
            out.append(p)
    return tuple(out)


def needed(reads: Iterable[str], others: Iterable[str]) -> tuple[str, ...]:
    """The read paths, without those bound already by an outer read path with nothing of
    another kind (`others`: private, hidden, writable) between the two."""
    ps, others = dedup(reads), dedup(others)

    def covered(p: str) -> bool:
        outer = [q for q in ps if q != p and under(p, [q])]
        if not outer:
            return False
        nearest = max(outer, key=len)
        return not any(under(p, [r]) and r != nearest and under(r, [nearest])
                       for r in others)
    return tuple(p for p in ps if not covered(p))


def install_prefix(path: str | Path) -> str:
    """The folder that holds an installed program and what it loads, from its real path:
    above `node_modules` for an npm package (with `lib/` that is the npm prefix, which holds
    node too), above `bin/` for a prefix-style install, else the folder it is in."""
    real = Path(os.path.realpath(path))
    parts = real.parts
    if "node_modules" in parts:
        top = Path(*parts[:parts.index("node_modules")])
        return str(top.parent if top.name == "lib" else top)
    if real.parent.name == "bin":
        return str(real.parent.parent)
    return str(real.parent)


def interpreter(path: str | Path, search_path: str) -> str | None:
    """The interpreter a script names on its `#!` line (`env NAME` resolved on the PATH)."""
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    words = head[2:].split(b"\n", 1)[0].decode(errors="replace").split()
    if not words:
        return None
    if os.path.basename(words[0]) == "env":
        rest = [w for w in words[1:] if not w.startswith("-")]
        return _which(rest[0], search_path) if rest else None
    return words[0]


def _which(name: str, search_path: str) -> str | None:
    import shutil  # only a launch resolves programs

    return shutil.which(name, path=search_path)


def program_reads(binary: str, search_path: str) -> tuple[tuple[str, ...],
                                                          tuple[tuple[str, str], ...]]:
    """What running `binary` needs to read (its install prefix, its interpreter's), and the
    symlink that keeps its name on the PATH when that folder is not bound."""
    found = binary if os.sep in binary else _which(binary, search_path)
    if found is None:
        return (), ()
    found = norm(found)
    reads = [install_prefix(found)]
    interp = interpreter(os.path.realpath(found), search_path)
    if interp:
        reads.append(install_prefix(interp))
    links: list[tuple[str, str]] = []
    real = os.path.realpath(found)
    if real != found:
        links.append((found, real))
    return dedup(reads), tuple(links)


def a2a_install() -> tuple[str, ...]:
    """a2a's own install, read-only: the interpreter and venv, and the package's folder (the
    source checkout of an editable install, with hooks/ and rolecards/)."""
    here = Path(__file__).resolve().parents[2]   # the folder that holds a2a_tui/
    return dedup(norm(p) for p in (sys.prefix, sys.base_prefix, install_prefix(
        sys.executable), here))


@dataclass(frozen=True)
class Request:
    """What `build` needs to know about one launch."""

    repo_root: Path
    a2a_dir: Path
    # The session's own folders under `.a2a/`, as `Repo` names them (a2a_tui/repo.py):
    run_dir: Path                         # read-only: launch script, settings, its `a2a`
    out_dir: Path                         # its results (review.md, drafts)
    spool_dir: Path                       # where its hooks write
    broker_dir: Path                      # its broker socket's folder (the orchestrator may
                                          # make the socket again: bound read-write)
    cwd: Path
    write_cwd: bool                       # an attempt's clone, for its writer
    binary: str                           # the CLI's program (a name on PATH or a path)
    search_path: str                      # the pane's PATH
    state: tuple[Path, ...] = ()          # the CLI's own state folders and files
    home: Path | None = None
    extra_read: tuple[str, ...] = ()      # from the user's settings
    extra_write: tuple[str, ...] = ()
    hooks_dir: Path | None = None         # the repository's own git hooks, when outside it
    tmux_dir: Path | None = None          # the tmux server's socket folder
    environ: Mapping[str, str] = field(default_factory=dict)


def system_reads() -> tuple[list[str], list[tuple[str, str]]]:
    """The system's folders to bind read-only, and its root names that are symlinks (/bin ->
    usr/bin on a merged /usr), made the same symlinks inside."""
    sysreads, links = [], []
    for p in SYSTEM:
        if os.path.islink(p):
            links.append((p, os.readlink(p)))
        else:
            sysreads.append(p)
    resolv = os.path.realpath("/etc/resolv.conf")
    if not under(resolv, SYSTEM):
        sysreads.append(os.path.dirname(resolv))   # systemd-resolved's stub, in /run
    return sysreads, links


def build(req: Request) -> Policy:
    """The policy of one session."""
    a2a = norm(req.a2a_dir)
    repo = norm(req.repo_root)
    cwd = norm(req.cwd)
    sysreads, links = system_reads()
    prog, prog_links = program_reads(req.binary, req.search_path)
    links += prog_links
    private = ["/tmp"]
    home = norm(req.home) if req.home else None
    if home and not under(home, SYSTEM) and home != "/":
        private.append(home)
    reads = [*sysreads, *prog, *a2a_install(), repo]
    if req.hooks_dir is not None and not under(norm(req.hooks_dir), [repo]):
        reads.append(norm(req.hooks_dir))
    if not req.write_cwd and not under(cwd, [repo]):
        reads.append(cwd)                 # a reviewer's checkout outside the repository
    reads += [norm(p) for p in req.extra_read]
    writes = [norm(p) for p in req.state]
    writes += [norm(req.out_dir), norm(req.spool_dir), norm(req.broker_dir)]
    if req.write_cwd:
        writes.append(cwd)
    writes += [norm(p) for p in req.extra_write]
    reopen = [norm(req.run_dir)]
    if not req.write_cwd and under(cwd, [a2a]):
        reopen.append(cwd)                # a reviewer's read-only checkout under .a2a/
    hidden = [a2a]
    # A missing state path is not bound (bwrap's `--bind-try`): what the CLI writes there
    # lands in the private HOME and is gone when the session ends.
    notes = [f"{p} does not exist: what the CLI keeps there lasts only as long as the session"
             for p in req.state if not os.path.lexists(p)]
    if req.tmux_dir is not None:
        tdir = norm(req.tmux_dir)
        # Hidden wherever a bound path would show it, even inside a private one (HOME):
        # a read or write path between the two would bring it back.
        if under(tdir, [*reads, *writes]):
            hidden.append(tdir)
            notes.append(f"tmux's socket folder {tdir} is inside a bound path: hidden")
    reads = needed(reads, [*private, *hidden, *writes])
    # A program's name on the PATH is made a link to it only where its folder is not bound.
    # Its folder is judged by its real path: /bin/sh lies in /usr/bin when /bin -> usr/bin.
    links = [(p, t) for p, t in links if p.count("/") == 1 or not under(
        os.path.join(os.path.realpath(os.path.dirname(p)), os.path.basename(p)), reads)]
    return Policy(read=reads, write=dedup(writes), private=dedup(private),
                  hidden=dedup(hidden), reopen=dedup(reopen), symlinks=tuple(links),
                  notes=tuple(notes))
