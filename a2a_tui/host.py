"""Which of the operating system's own facilities a2a may use: Linux's, or only portable ones.

Linux offers three that a2a prefers: a child subreaper (`prctl`, the launch: a command the agent
detaches stays in its pane's process tree), pidfds (`panes/exits.py`: a pane process's exit
without polling) and inotify (`dirwatch.py`: a file landing without polling). Elsewhere — macOS,
the machine this is most often run on — a2a takes the portable branch of each: attribution by
session leader and terminal (`identity.py`), a psutil liveness check every half second, and
watchfiles.

`A2A_PLATFORM=darwin` makes a Linux machine take the portable branches too, so that CI, which
runs on Linux, runs them. It can only turn Linux facilities off, never on; any other value
changes nothing. Identity has no branch of its own: whoever sets the variable only weakens the
containment of a session they launch themselves, and the launch records which one it got.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

OVERRIDE = "A2A_PLATFORM"


def linux() -> bool:
    """Whether the Linux-only facilities (prctl, pidfd, inotify) may be used."""
    return sys.platform.startswith("linux") and os.environ.get(OVERRIDE) != "darwin"


def private_dir() -> Path:
    """a2a's own runtime folder for this user, outside every repository: `$XDG_RUNTIME_DIR/a2a`
    when the session has one, else `<temp>/a2a-<uid>`. Made with mode 0700; one that is a
    symlink, belongs to someone else or is open to others is refused (PermissionError: someone
    put it there)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR") or ""
    if os.path.isabs(runtime) and os.path.isdir(runtime):
        base = Path(runtime) / "a2a"
    else:
        base = Path(tempfile.gettempdir()) / f"a2a-{os.getuid()}"
    try:
        base.mkdir(mode=0o700)
    except FileExistsError:
        pass
    st = base.lstat()
    if (not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid()
            or stat.S_IMODE(st.st_mode) & 0o077):
        raise PermissionError(f"{base} is not a folder only you can use (a symlink, someone"
                              " else's, or open to others): a2a will not put its private files"
                              " there; remove it")
    return base


def path_with_a2a(path: str | None = None) -> str:
    """`path` (this process's PATH by default) with this a2a's own bin folder first, where its
    `a2a` is: a pane, or the shell the workbench opens, finds the a2a that started it even when
    the user ran it as `.venv/bin/a2a` without that folder on their PATH."""
    path = os.environ.get("PATH", "/usr/bin:/bin") if path is None else path
    here = str(Path(sys.executable).parent)
    if here not in path.split(os.pathsep):
        path = here + os.pathsep + path
    return path
