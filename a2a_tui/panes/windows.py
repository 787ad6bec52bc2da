"""Each agent's tmux window says whose it is and how it is: `w1·worker·busy·q2`.

Seen from inside any pane (tmux's status line, `prefix + w`), not only from the workbench:
the session's id and role, its state from the same signals that move it (idle, busy, waiting,
unknown, exited), `⏸` while paused, and the prompts queued for it. Named by the orchestrator's
caller thread (panes/calls.py) after each change of the store; a window whose name is already
right is left alone, so a burst of signals costs one rename per change of state.
"""

from __future__ import annotations

import logging

from a2a_tui.errors import A2AError
from a2a_tui.panes.views import SessionView, sessions
from a2a_tui.tmux import SESSION_TAG

log = logging.getLogger(__name__)

SEP = "·"


def window_name(v: SessionView) -> str:
    """`w1·worker·busy·q2`, `exec1·executive·waiting`, `w1·worker·idle·⏸`."""
    parts = [v.id, v.role, v.state]
    if v.queue:
        parts.append(f"q{v.queue}")
    if v.paused:
        parts.append("⏸")
    return SEP.join(parts)


class WindowNames:
    """Names the windows of the sessions on one tmux server; remembers what it named."""

    def __init__(self, tmux) -> None:
        self.tmux = tmux
        self.shown: dict[str, str] = {}     # pane id -> the name given

    def show(self, db) -> None:
        """Rename each agent window whose name is not its session's now: only a pane tagged
        with that session (a pane id a session once had may be another window now, tmux
        counting pane ids from %0 again after a restart: the user's own shell, say)."""
        tags: dict[str, str] | None = None
        for v in sessions(db):
            if not v.pane_id or v.tmux_socket != self.tmux.socket:
                continue
            name = window_name(v)
            if self.shown.get(v.pane_id) == name:
                continue
            if tags is None:   # read once, and only when something is to be renamed
                tags = self.tmux.panes_tagged(SESSION_TAG, dead=True)
            if tags.get(v.pane_id) != v.id:
                continue
            try:
                self.tmux.name_window(v.pane_id, name)
            except A2AError as err:   # the pane is gone: nothing to name (exits say the rest)
                log.debug("not naming %s: %s", v.pane_id, err.message)
                self.shown.pop(v.pane_id, None)
                continue
            self.shown[v.pane_id] = name
