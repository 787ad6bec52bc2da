"""What each of the app's parts (away.py, cardflow.py, palette.py) needs of the app it is mixed
into, beyond Textual's `App`: a Protocol per part, so no part names `WorkbenchApp` (app.py), and
the app's other parts can change without being read from there (issue 39)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from a2a_tui.tui.panels.base import Panel
    from a2a_tui.tui.services import OrchestratorHost, Workbench


class PanelsNeed(Protocol):
    """The palette's need: the panel of a scope, to ask it why an action is disabled."""

    def panel(self, scope: str) -> Panel: ...


class AwayNeeds(PanelsNeed, Protocol):
    """Detaching, quitting and the waiting list: the services, the orchestrator (hosted here or
    not, and how it is) and what waits for the user (panes.calls.Waiting)."""

    services: Workbench
    host: OrchestratorHost | None
    orchestrator: str
    waiting: list


class CardFlowNeeds(Protocol):
    """A card's flows (edit, ready, claim, a worker for it): the services, and the row to show
    once one is done (away.py's `show_row`)."""

    services: Workbench

    def show_row(self, scope: str, key: str) -> None: ...
