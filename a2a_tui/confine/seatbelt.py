"""A `Policy` as a Seatbelt profile (macOS: `sandbox-exec -p PROFILE -- CLI ...`).

Seatbelt has no mount namespace: nothing can be made to vanish, only refused. So the profile
allows by default (a CLI needs dozens of Mach services no list keeps up with), then takes away,
and in Seatbelt the last matching rule wins:

- writes: refused everywhere but the session's write paths, its private tmp folder and the
  terminal devices;
- reads: refused in `.a2a/`, in HOME and in the shared temporary folders, then allowed again
  for what the session reads (its installs, the repository, its CLI's state, its own folders)
  — and refused once more for the hidden folders inside those (`.a2a/` inside the repository);
- processes: no information about, and no signal to, a process outside this sandbox;
- tmux: no connection to a Unix socket in tmux's socket folder (nor any read of it).

macOS has no PID namespace, so a session's processes are still in the machine's process
table; Seatbelt only stops them from looking at or signalling the others. The profile is not
run here (it cannot be off macOS): its text is tested (tests/boundary/test_seatbelt.py).
"""

from __future__ import annotations

import hashlib
import os

from a2a_tui.confine.policy import Policy

# Shared temporary folders a session must not read (another process's files, tmux's socket).
SHARED_TMP = ("/tmp", "/private/tmp", "/var/tmp", "/private/var/tmp", "/var/folders",
              "/private/var/folders")
DEVICES = ("/dev/null", "/dev/zero", "/dev/tty", "/dev/dtracehelper", "/dev/random",
           "/dev/urandom")


def quote(path: str) -> str:
    """A string literal in SBPL (the same escapes as a C string)."""
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _subpaths(paths) -> str:
    return " ".join(f"(subpath {quote(p)})" for p in paths)


def _sockets(paths) -> str:
    """Unix sockets under `paths` (a socket is reached by connect, not by a file read)."""
    return " ".join(f'(remote unix-socket (path-regex #"^{_regex(p)}(/|$)"))' for p in paths)


def _regex(path: str) -> str:
    return "".join("\\" + c if c in set(r"\.^$*+?()[]{}|") else c for c in path).replace(
        '"', '\\"')


def _nested(paths, parents) -> list[str]:
    """The `paths` that lie strictly inside one of `parents`."""
    return [p for p in paths
            if any(p != q and p.startswith(q.rstrip("/") + "/") for q in parents)]


def _rule(head: str, paths: list[str], render=_subpaths) -> str:
    """`head` over `paths`, or no rule when there are none."""
    return f"{head} {render(paths)})" if paths else ""


def profile(policy: Policy, private_tmp: str) -> str:
    """The profile text for `policy`; `private_tmp` replaces /tmp (a folder of the session's
    own: on macOS there is no tmpfs to mount over the shared one)."""
    hidden = list(policy.hidden)
    denied = [*hidden, *[p for p in policy.private if p != "/tmp"], *SHARED_TMP]
    writes = [*policy.write, private_tmp]
    reads = [*policy.read, *policy.reopen, *writes, *(t for _, t in policy.symlinks)]
    lines = [
        "(version 1)",
        ";; a2a: one agent session. Later rules win.",
        "(allow default)",
        "(deny file-write*)",
        f"(allow file-write* {_subpaths(writes)})",
        "(allow file-write* " + " ".join(f"(literal {quote(d)})" for d in DEVICES)
        + ' (regex #"^/dev/ttys[0-9]+$") (regex #"^/dev/fd/"))',
        f"(deny file-read* {_subpaths(denied)})",
        f"(allow file-read* {_subpaths(reads)})",
        # The most specific path decides: a private folder inside a read one (a test's HOME
        # inside a2a's checkout) is refused again.
        _rule("(deny file-read*", _nested(denied, reads)),
        # Directories may be looked at on the way to an allowed path (realpath walks them).
        "(allow file-read-metadata (vnode-type DIRECTORY))",
        f"(deny file-read* file-write* {_subpaths(hidden)})",
        f"(allow file-read* {_subpaths(policy.reopen)})" if policy.reopen else "",
        f"(allow file-read* file-write* {_subpaths(writes)})",
        # ... and a hidden folder inside a writable one (tmux's socket folder) hidden again.
        _rule("(deny file-read* file-write*", _nested(hidden, writes)),
        f"(deny network-outbound {_sockets(denied)})",
        f"(allow network-outbound {_sockets(writes)})",
        _rule("(deny network-outbound", _nested(hidden, writes), _sockets),
        "(deny process-info*)",
        "(allow process-info* (target same-sandbox))",
        "(deny signal)",
        "(allow signal (target same-sandbox))",
    ]
    return "\n".join(line for line in lines if line) + "\n"


def argv(policy: Policy, private_tmp: str) -> tuple[list[str], str]:
    """(`sandbox-exec -p PROFILE` up to the CLI's argv, the profile's sha256)."""
    text = profile(policy, private_tmp)
    digest = "sha256:" + hashlib.sha256(text.encode()).hexdigest()
    return ["/usr/bin/sandbox-exec", "-p", text], digest


def tmp_env(private_tmp: str) -> dict[str, str]:
    """TMPDIR for the session: its private folder (Seatbelt cannot give it a /tmp of its own)."""
    return {"TMPDIR": private_tmp + os.sep}
