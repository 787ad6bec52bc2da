"""What the workbench says about its store in the status line: the file it reads replaced or
gone (a stat of the file, compared with the one its reader has open), or the orchestrator
taking no writes because the disk is full or failing (the hosted one's guard, or the lock file
of the one serving elsewhere: panes/storeguard.py). Looked at once a second; a stat and a read
of a small file, no SQLite and no tmux."""

from __future__ import annotations

from a2a_tui.errors import A2AError
from a2a_tui.store import Store

CHECK_S = 1.0


def problem(reading: Store | None, host, repo) -> str | None:
    """One line for the status line, or None when the store is well."""
    if reading is not None:
        try:
            reading.same_file()
        except A2AError as err:
            return f"{err.code}: {err.message}"
    orch = getattr(host, "orch", None) if host is not None else None
    if orch is not None:
        return orch.guard.text
    if host is None:
        from a2a_tui.panes.orchestrator import lock_state  # lazy: the first frame needs none
        from a2a_tui.panes.storeguard import lock_note

        pid, text = lock_state(repo)
        return lock_note(text) if pid is not None else None
    return None
