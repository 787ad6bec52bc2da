"""A `Policy` as bubblewrap's argv (Linux).

The order of the options is the order bwrap applies them, and it matters: the private tmpfs
(HOME, /tmp) first, then the read-only binds (the repository and installs may sit inside
either), then an empty tmpfs over each hidden folder (`.a2a/`), the session's own folders bound
back under it, and last the hidden tmpfs made read-only, so nothing written there vanishes
unnoticed. Namespaces: user, mount, PID, IPC, UTS and cgroup (where the kernel has it); the
network stays the host's. `--die-with-parent` ends the sandbox when the pane's process does,
and bwrap's own PID 1 ends every process of the sandbox when the CLI exits. Capabilities are
dropped inside (bwrap's default), and mounts inherited into a namespace are locked by the
kernel: a nested user namespace (Codex's own sandbox) cannot unmount the tmpfs to see below.

Not `--new-session`: the CLI is an interactive program that needs the pane as its controlling
terminal (job control, Ctrl-C). A TIOCSTI from inside can only type into the pane's own
terminal, which nothing but the session reads; the pane is closed with its CLI.
"""

from __future__ import annotations

from a2a_tui.confine.policy import Policy

NAMESPACES = ("--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
              "--unshare-cgroup-try")


def argv(binary: str, policy: Policy) -> list[str]:
    """bwrap's argv up to and including `--`; the CLI's argv follows it."""
    out = [binary, *NAMESPACES, "--die-with-parent"]
    for path, target in policy.symlinks:
        if path.count("/") == 1:          # /bin -> usr/bin: a name at the root
            out += ["--symlink", target, path]
    for path in policy.private:
        out += ["--tmpfs", path]
    for path in policy.read:
        out += ["--ro-bind-try", path, path]
    for path, target in policy.symlinks:
        if path.count("/") > 1:           # a CLI's name on the PATH, pointing at its install
            out += ["--symlink", target, path]
    first, *others = policy.hidden
    out += ["--tmpfs", first]
    for path in policy.reopen:
        out += ["--ro-bind-try", path, path]
    for path in policy.write:
        out += ["--bind-try", path, path]
    for path in others:
        out += ["--tmpfs", path, "--remount-ro", path]
    out += ["--remount-ro", first, "--dev", "/dev", "--proc", "/proc"]
    for name in policy.unset_env:
        out += ["--unsetenv", name]
    for name, value in policy.set_env:
        out += ["--setenv", name, value]
    return [*out, "--"]
