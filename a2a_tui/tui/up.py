"""`a2a up`: the repository's tmux session with the workbench in one window and the agents in
the others. Idempotent: a live workbench is reused, a missing one is started; then this terminal
attaches (or, inside tmux, switches) to it. No textual here: the workbench runs in its window.
"""

from __future__ import annotations

import os
import shlex
import sys
from typing import Any

from a2a_tui.repo import Repo
from a2a_tui.tmux import Tmux

WORKBENCH_TAG = "@a2a_workbench"   # pane option: the repository root the workbench serves
WINDOW_NAME = "workbench"


def workbench_argv(repo: Repo, tmux_socket: str | None) -> list[str]:
    """The command the workbench window runs."""
    return [sys.executable, "-m", "a2a_tui", "workbench", "--repo", str(repo.root),
            *(["--tmux-socket", tmux_socket] if tmux_socket else [])]


def ensure_workbench(repo: Repo, tmux: Tmux, tmux_socket: str | None) -> tuple[str, bool]:
    """The pane running this repository's workbench, started if none is alive; returns
    (pane id, whether it was started now)."""
    root = str(repo.root)
    for pane_id, value in tmux.panes_tagged(WORKBENCH_TAG).items():
        if value == root:
            return pane_id, False
    facts = tmux.new_pane(repo.config().tmux_session, workbench_argv(repo, tmux_socket), root)
    tmux.set_pane_option(facts.pane_id, WORKBENCH_TAG, root)
    tmux.name_window(facts.pane_id, WINDOW_NAME)
    return facts.pane_id, True


def up(repo: Repo, tmux_socket: str | None, *, attach: bool = True) -> dict[str, Any]:
    """Start what is missing, then attach this terminal to the workbench (unless `attach` is
    False). Attaching from outside tmux replaces this process with tmux."""
    repo.store().close()  # not initialised or unreadable: one clear error, nothing started
    session = repo.config().tmux_session
    tmux = Tmux(tmux_socket)
    pane, started = ensure_workbench(repo, tmux, tmux_socket)
    attach_cmd = shlex.join(tmux.attach_argv(session))
    result = {"session": session, "pane": pane, "started": started, "tmux_socket": tmux_socket,
              "attach": attach_cmd, "root": str(repo.root)}
    verb = "started" if started else "running"
    result["text"] = (f"workbench {verb} in tmux session {session} (pane {pane});"
                      f" attach with: {attach_cmd}")
    if not attach:
        return result
    return attach_to(tmux, session, pane, result)


def attach_to(tmux: Tmux, session: str, pane: str, result: dict[str, Any]) -> dict[str, Any]:
    """Show the workbench pane to this terminal: switch our client when we already run inside
    this tmux server, else attach (nested when inside another server). Attaching replaces this
    process with tmux."""
    inside = os.environ.get("TMUX", "")
    here = tmux.socket_path()
    if tmux.show_pane(pane) or (inside and here and inside.split(",")[0] == here):
        result["text"] = f"switched to the workbench in tmux session {session}"
        return result
    tmux.attach(session, nested=bool(inside))  # does not return
    return result
