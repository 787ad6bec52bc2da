"""The workbench's services: each user action carried out through the core and recorded as a user
input (U-<n>), and what the screens read. No textual here; the app calls these from worker
threads.

`Workbench` holds one part per thing served: `sessions` (panes and their sessions), `board` (the
board and the user's own words), `gate` (cards, attempts, comments, reviews) and `reads` (what a
screen shows). Also here: the orchestrator the workbench hosts, and leaving tmux.
"""

# Imports inside functions: the core areas (collab, panes, gate, tmux), in the methods that use
# them; the workbench's first frame needs none of them (the gate alone, with pydantic, costs
# ~0.1 s).

from __future__ import annotations

import os

from a2a_tui.repo import Repo
from a2a_tui.tui.services.base import SOURCE, USER, Done, Part
from a2a_tui.tui.services.board import Board
from a2a_tui.tui.services.gate import Gate
from a2a_tui.tui.services.reads import Reads
from a2a_tui.tui.services.sessions import Sessions

__all__ = ["SOURCE", "USER", "Done", "OrchestratorHost", "Workbench", "leave_tmux"]


class Workbench(Part):
    """One repository's workbench services, by what they serve; the app factory receives one."""

    def __init__(self, repo: Repo, tmux_socket: str | None = None):
        super().__init__(repo, tmux_socket)
        self.sessions = Sessions(repo, tmux_socket)
        self.board = Board(repo, tmux_socket)
        self.gate = Gate(repo, tmux_socket)
        self.reads = Reads(repo, tmux_socket)


class OrchestratorHost:
    """The repository's orchestrator, hosted by the workbench (`a2a serve` runs the same one)."""

    def __init__(self, repo: Repo, tmux_socket: str | None):
        self.repo = repo
        self.tmux_socket = tmux_socket
        self.orch = None

    def start(self) -> int:
        """Take the repository's orchestrator lock and start ingesting and delivering; returns
        our pid. Raises A2AError `orchestrator_running` when another process serves it."""
        from a2a_tui.gate.attempts.behaviour import on_signal
        from a2a_tui.gate.attempts.leases import sweeper
        from a2a_tui.metrics.retro import propose_if_due
        from a2a_tui.panes.orchestrator import Orchestrator

        orch = Orchestrator(self.repo, self.tmux_socket, sweeps=(sweeper(self.repo),),
                            observers=(on_signal,))
        orch.start()
        self.orch = orch
        propose_if_due(self.repo, orch.store)   # a board question once per retro_every, if set
        return os.getpid()

    def wait(self) -> str | None:
        """Block until the orchestrator's worker ends; returns its error, if it failed."""
        orch = self.orch
        # The Orchestrator has no public join; its worker thread is what we wait for.
        thread = getattr(orch, "_thread", None)
        if thread is not None:
            thread.join()
        err = getattr(orch, "error", None)
        return None if err is None else repr(err)

    def stop(self) -> None:
        """Stop it and release the lock (idempotent)."""
        orch, self.orch = self.orch, None
        if orch is not None:
            orch.stop()

    @staticmethod
    def holder(repo: Repo) -> int | None:
        from a2a_tui.panes.orchestrator import lock_holder

        return lock_holder(repo)


def leave_tmux(repo: Repo, tmux_socket: str | None) -> bool:
    """When the app runs in the repository's `a2a up` session, detach the clients attached to it
    (the agents keep running). Returns whether it did."""
    pane = os.environ.get("TMUX_PANE")
    if not os.environ.get("TMUX") or not pane:
        return False
    from a2a_tui.tmux import Tmux

    tmux = Tmux(tmux_socket)
    session = tmux.session_of(pane)
    if session is None or session != repo.config().tmux_session:
        return False
    tmux.detach_clients(session)
    return True
