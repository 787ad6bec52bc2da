"""`a2a demo`: build the sample repository, open the workbench in tmux, start the director.

The workbench (which hosts the orchestrator) runs in one window, the director in another; the
demo agents the director starts get their own windows. `--no-attach` returns once all of it
runs, for scripts; otherwise this terminal attaches to the workbench.
"""

from __future__ import annotations

import shlex
import sys
from typing import Any

from a2a_tui.demo import sample
from a2a_tui.tmux import Tmux
from a2a_tui.tui.up import attach_to, ensure_workbench

DIRECTOR_WINDOW = "demo"


def director_command(root: str, tmux_socket: str | None) -> list[str]:
    """The director, then a prompt that keeps its narration on screen."""
    argv = [sys.executable, "-m", "a2a_tui", "demo-director", "--repo", root,
            *(["--tmux-socket", tmux_socket] if tmux_socket else [])]
    script = (f"{shlex.join(argv)}; echo; echo '(the demo director is done:"
              " press Enter to close this window)'; read _")
    return ["/bin/sh", "-c", script]


def start(tmux_socket: str | None, *, attach: bool = True, where: str | None = None
          ) -> dict[str, Any]:
    """Set the demo up; returns where everything is (and attaches unless told not to)."""
    tmux = Tmux(tmux_socket)  # no tmux: one clear error before anything is built
    root = sample.new_folder(where)
    session = root.name if root.name.startswith("a2a-") else f"a2a-demo-{root.name}"
    repo = sample.build(root, session)
    pane, _ = ensure_workbench(repo, tmux, tmux_socket)
    director = tmux.new_pane(session, director_command(str(root), tmux_socket), str(root))
    tmux.name_window(director.pane_id, DIRECTOR_WINDOW)
    result: dict[str, Any] = {
        "root": str(root), "session": session, "workbench_pane": pane,
        "director_pane": director.pane_id, "tmux_socket": tmux_socket,
        "attach": shlex.join(tmux.attach_argv(session)),
    }
    result["text"] = (f"demo repository: {root}\nworkbench: tmux session {session}"
                      f" (pane {pane}); the director narrates in window '{DIRECTOR_WINDOW}'\n"
                      f"attach with: {result['attach']}\n"
                      f"end it with: {shlex.join(tmux.kill_session_argv(session))}")
    if attach:
        attach_to(tmux, session, pane, result)
    return result
