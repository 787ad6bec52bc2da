"""The payloads of a caller refused at a2a's edge (the role table, an unidentified caller, the
broker) and of the broker's exits."""

from __future__ import annotations

from a2a_tui.kinds import BoundaryEvent as B
from a2a_tui.payloads.base import Payload, payload


@payload(B.ROLE_FORBIDDEN)
class RoleForbidden(Payload):
    """A command refused to the caller's role (gate/roles.py); `allowed`: who may run it."""

    command: str
    role: str
    allowed: list[str] = ()   # type: ignore[assignment]
    message: str = ""


@payload(B.CALLER_UNIDENTIFIED)
class CallerUnidentified(Payload):
    """A writing command from a caller a2a cannot name (cli/context.py)."""

    command: str | None = None
    why: str | None = None
    pid: int | None = None


@payload(B.BROKER_REFUSED)
class BrokerRefused(Payload):
    """A command a session may not run through its broker (broker/request.py)."""

    command: str | None = None
    why: str = ""


@payload(B.BROKER_PEER_MISMATCH)
class BrokerPeerMismatch(Payload):
    """A process on a session's socket that is not of the session's pane."""

    pid: int | None = None
    uid: int | None = None
    why: str = ""


@payload(B.BROKER_EXITED)
class BrokerExited(Payload):
    """The broker ended and is started again (panes/broker_host.py)."""

    code: int | None = None
    restarts: int = 0
    ended_ns: int | None = None


TYPES: tuple[type[Payload], ...] = (
    RoleForbidden, CallerUnidentified, BrokerRefused, BrokerPeerMismatch, BrokerExited)
