"""What every part of the workbench's services shares: the repository and its tmux server, a
store connection per call (a Store connection is not shared across threads, and the app calls
these from worker threads), the user as the caller, and `Done`, what an action did. No textual
here."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from a2a_tui.identity import Caller
from a2a_tui.repo import Repo
from a2a_tui.store import Store

# Imports inside functions: the core areas (collab, panes, gate, tmux), in the methods that use
# them; the workbench's first frame needs none of them (the gate alone, with pydantic, costs
# ~0.1 s).

SOURCE = "tui"
USER = "user"


@dataclass
class Done:
    """What an action did: one line for the user and the facts behind it."""

    summary: str
    data: dict[str, Any] = field(default_factory=dict)


class Part:
    """The repository a part of the services acts on, and the tmux server its panes are on."""

    def __init__(self, repo: Repo, tmux_socket: str | None = None):
        self.repo = repo
        self.tmux_socket = tmux_socket

    @contextmanager
    def store(self) -> Iterator[Store]:
        """A connection for the calling thread, closed afterwards."""
        s = self.repo.store()
        try:
            yield s
        finally:
            s.close()

    def _collab(self, store: Store):
        from a2a_tui.collab.context import Collab

        return Collab(self.repo, store, Caller())

    def _record(self, store: Store, kind: str, text: str, *, to_session: str | None = None,
                ref: str | None = None, attempt: str | None = None) -> str:
        from a2a_tui.collab.user_input import record_user_input_in_tx

        with store.write() as tx:
            return record_user_input_in_tx(tx, kind, text, source=SOURCE, to_session=to_session,
                                           ref=ref, attempt=attempt)

    def _wake(self) -> None:
        from a2a_tui.queue import wake

        wake(self.repo)

    def _gate(self, store: Store):
        from a2a_tui.gate.context import GateContext

        return GateContext(self.repo, store, Caller())

    def settings(self):
        """The user's settings merged with the repository's (a bad file: one clear error)."""
        from a2a_tui import settings

        return settings.of_repo(self.repo)
