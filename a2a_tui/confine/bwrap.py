"""A `Policy` as bubblewrap's argv (Linux).

bwrap applies its options in order and a later mount covers an earlier one, so the order is
made from the paths alone: a parent before anything inside it (fewer path components first),
and for one path, private tmpfs < read-only < hidden < read-only again < writable. So the most
specific path decides whatever the order the lists come in: a CLI's state folder inside HOME,
HOME inside a folder bound read-only (a test's HOME inside a2a's checkout), a writable folder
inside a read-only one, tmux's socket folder inside a writable one. The hidden tmpfs (`.a2a/`)
is made read-only last, once the session's own folders are bound back under it, so nothing
written there vanishes unnoticed. Namespaces: user, mount, PID, IPC, UTS and cgroup (where the
kernel has it); the network stays the host's. `--die-with-parent` ends the sandbox when the
pane's process does, and bwrap's own PID 1 ends every process of the sandbox when the CLI
exits. Capabilities are dropped inside (bwrap's default), and mounts inherited into a
namespace are locked by the kernel: a nested user namespace (Codex's own sandbox) cannot
unmount the tmpfs to see below.

Not `--new-session`: the CLI is an interactive program that needs the pane as its controlling
terminal (job control, Ctrl-C). A TIOCSTI from inside can only type into the pane's own
terminal, which nothing but the session reads; the pane is closed with its CLI.
"""

from __future__ import annotations

from enum import IntEnum
from pathlib import PurePosixPath

from a2a_tui.confine.policy import Policy

NAMESPACES = ("--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
              "--unshare-cgroup-try")


class Kind(IntEnum):
    """What is mounted at a path; for one path, the later kind wins."""

    PRIVATE = 0
    READ = 1
    LINK = 2
    HIDDEN = 3
    REOPEN = 4
    WRITE = 5


def _words(kind: Kind, path: str, target: str = "", size_mb: int = 0) -> list[str]:
    if kind == Kind.PRIVATE and size_mb:
        return ["--size", str(size_mb * 1024 * 1024), "--tmpfs", path]
    if kind in (Kind.PRIVATE, Kind.HIDDEN):
        return ["--tmpfs", path]
    if kind == Kind.LINK:
        return ["--symlink", target, path]
    return ["--bind-try" if kind == Kind.WRITE else "--ro-bind-try", path, path]


def mounts(policy: Policy) -> list[list[str]]:
    """The policy's mounts in the order bwrap must apply them: each parent before what lies
    in it, and for one path the kinds in `Kind`'s order."""
    ops = [(p, Kind.PRIVATE, "") for p in policy.private]
    ops += [(p, Kind.READ, "") for p in policy.read]
    ops += [(p, Kind.LINK, t) for p, t in policy.symlinks if p.count("/") > 1]
    ops += [(p, Kind.HIDDEN, "") for p in policy.hidden]
    ops += [(p, Kind.REOPEN, "") for p in policy.reopen]
    ops += [(p, Kind.WRITE, "") for p in policy.write]
    ops.sort(key=lambda op: (len(PurePosixPath(op[0]).parts), op[1], op[0]))
    return [_words(kind, path, target, policy.tmpfs_mb) for path, kind, target in ops]


def argv(binary: str, policy: Policy) -> list[str]:
    """bwrap's argv up to and including `--`; the CLI's argv follows it."""
    out = [binary, *NAMESPACES, "--die-with-parent"]
    if not policy.network:
        out.append("--unshare-net")
    if policy.new_session:
        out.append("--new-session")
    for path, target in policy.symlinks:
        if path.count("/") == 1:          # /bin -> usr/bin: a name at the root, made first
            out += ["--symlink", target, path]
    for words in mounts(policy):
        out += words
    for path in policy.hidden:
        if path not in policy.write:      # else the writable bind on top would turn read-only
            out += ["--remount-ro", path]
    out += ["--dev", "/dev", "--proc", "/proc"]
    for name in policy.unset_env:
        out += ["--unsetenv", name]
    for name, value in policy.set_env:
        out += ["--setenv", name, value]
    return [*out, "--"]
