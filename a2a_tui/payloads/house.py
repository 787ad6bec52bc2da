"""The payloads of the orchestrator's life and the settings it takes in (panes/orchestrator.py),
the workbench's tmux server (tui/up.py) and the demo's narration (demo/director.py)."""

from __future__ import annotations

from a2a_tui.kinds import HouseEvent as H
from a2a_tui.payloads.base import Payload, payload


@payload(H.ORCHESTRATOR_STARTED)
class OrchestratorStarted(Payload):
    pid: int
    tmux_socket: str | None = None


@payload(H.ORCHESTRATOR_STOPPED)
class OrchestratorStopped(Payload):
    """`error`: what stopped it, as its repr (None: a clean stop)."""

    pid: int
    error: str | None = None


@payload(H.SETTINGS_LOADED)
class SettingsLoaded(Payload):
    """The settings taken in: each file read, by where it counts (user, repository)."""

    files: dict[str, str] | None = None


@payload(H.SETTINGS_REFUSED)
class SettingsRefused(Payload):
    """An edit of the settings refused: the settings in force are kept."""

    code: str
    message: str


@payload(H.WORKBENCH_UP)
class WorkbenchUp(Payload):
    """The tmux server, session and pane the workbench runs in (`a2a down` finds it there)."""

    tmux_socket: str | None = None
    tmux_session: str | None = None
    pane: str | None = None


@payload(H.DEMO_STEP)
class DemoStep(Payload):
    step: int
    text: str


TYPES: tuple[type[Payload], ...] = (
    OrchestratorStarted, OrchestratorStopped, SettingsLoaded, SettingsRefused, WorkbenchUp,
    DemoStep)
