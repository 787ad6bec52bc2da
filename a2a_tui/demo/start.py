"""`a2a demo`: build the sample repository, open the workbench in tmux, start the director.

The orchestrator runs in one window, the workbench in another, the director in a third; the
demo agents the director starts get their own windows. `--no-attach` returns once all of it
runs, for scripts; otherwise this terminal attaches to the workbench. `a2a down` ends it and
removes the sample repository (the demo leaves `.a2a/demo.json` to say it is one).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from a2a_tui.demo import sample
from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.repo import DemoMarker, Repo
from a2a_tui.tmux import Tmux
from a2a_tui.tui.up import (
    attach_to,
    elsewhere,
    ensure_orchestrator,
    ensure_workbench,
    running,
    way_back,
)

DIRECTOR_WINDOW = "demo"


def director_command(root: str, tmux_socket: str | None) -> list[str]:
    """The director, then a prompt that keeps its narration on screen."""
    argv = [sys.executable, "-m", "a2a_tui", "demo-director", "--repo", root,
            *(["--tmux-socket", tmux_socket] if tmux_socket else [])]
    script = (f"{shlex.join(argv)}; echo; echo '(the demo director is done:"
              " press Enter to close this window)'; read _")
    return ["/bin/sh", "-c", script]


@dataclass(frozen=True)
class DemoStarted:
    """Where the demo runs: its sample repository, tmux session and panes, how to attach and
    how to end it, and what the user is told (`text`)."""

    root: str
    session: str
    workbench_pane: str
    director_pane: str
    tmux_socket: str | None
    attach: str
    down: str
    text: str

    def to_json(self) -> JsonObject:
        return {"root": self.root, "session": self.session,
                "workbench_pane": self.workbench_pane, "director_pane": self.director_pane,
                "tmux_socket": self.tmux_socket, "attach": self.attach, "down": self.down,
                "text": self.text}


def start(tmux_socket: str | None, *, attach: bool = True, where: str | None = None
          ) -> DemoStarted:
    """Set the demo up; returns where everything is (and attaches unless told not to)."""
    tmux = Tmux(tmux_socket)  # no tmux: one clear error before anything is built
    made = where is None or not Path(where).exists()
    root = sample.new_folder(where)
    session = root.name if root.name.startswith("a2a-") else f"a2a-demo-{root.name}"
    repo = sample.build(root, session)
    repo.demo_marker.write_text(json.dumps(DemoMarker(
        str(root), made_folder=made, tmux_socket=tmux_socket, started_in=os.getcwd()).to_json()),
        encoding="utf-8")
    ensure_orchestrator(repo, tmux, tmux_socket)
    pane, _ = ensure_workbench(repo, tmux, tmux_socket)
    way_back(tmux, session, pane)
    director = tmux.new_pane(session, director_command(str(root), tmux_socket), str(root))
    tmux.name_window(director.pane_id, DIRECTOR_WINDOW)
    attach_cmd = shlex.join(tmux.attach_argv(session))
    down = shlex.join(["a2a", "down", "--repo", str(root),
                       *(["--tmux-socket", tmux_socket] if tmux_socket else [])])
    result = DemoStarted(
        root=str(root), session=session, workbench_pane=pane, director_pane=director.pane_id,
        tmux_socket=tmux_socket, attach=attach_cmd, down=down,
        text=(f"demo repository: {root}\nworkbench: tmux session {session}"
              f" (pane {pane}); the director narrates in window '{DIRECTOR_WINDOW}'\n"
              f"attach with: {attach_cmd}\n"
              f"q in the workbench detaches, and the demo goes on; end it (agents,"
              f" tmux session, sample repository) with `a2a down` here, or from"
              f" anywhere with: {down}"))
    if attach:
        result = replace(result, text=attach_to(tmux, session, pane, str(root)))
    return result


def started_here(err: A2AError, tmux: Tmux) -> Repo:
    """`a2a down` where there is no a2a repository: the demo that `a2a demo`, typed in this
    folder, runs on this tmux server (its marker, under `.a2a/`, says where it was typed);
    else the error, with each running session's exact `a2a down --repo …`."""
    if err.code in ("not_a_repo", "not_initialized"):
        here = os.path.realpath(os.getcwd())
        demos = [repo for r in running(tmux) if (demo := (repo := Repo(Path(r["root"]))).demo())
                 and os.path.realpath(demo.started_in or "/nonexistent") == here]
        if len(demos) == 1:
            return demos[0]
    raise elsewhere(err, tmux, "down")


def demo_of(repo: Repo) -> DemoMarker | None:
    """What `a2a demo` recorded about the repository it built, or None for any other."""
    return repo.demo()


def remove_demo(repo: Repo, demo: DemoMarker) -> str:
    """Remove the sample repository `a2a demo` built (the folder itself when the demo made it,
    else what the demo put in it); returns its path."""
    root = repo.root
    if demo.made_folder:
        shutil.rmtree(root, ignore_errors=True)
    else:
        for child in root.iterdir():
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child, ignore_errors=True)
            else:
                child.unlink(missing_ok=True)
    return str(root)
