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
import sys

OVERRIDE = "A2A_PLATFORM"


def linux() -> bool:
    """Whether the Linux-only facilities (prctl, pidfd, inotify) may be used."""
    return sys.platform.startswith("linux") and os.environ.get(OVERRIDE) != "darwin"
