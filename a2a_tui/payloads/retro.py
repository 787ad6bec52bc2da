"""The payloads of retrospectives (metrics/retro.py; read by metrics/handlers.py)."""

from __future__ import annotations

from a2a_tui.kinds import EventKind as K
from a2a_tui.payloads.base import Payload, payload


@payload(K.RETRO_STARTED)
class RetroStarted(Payload):
    """A retro session was given its prompt: the figures of the period since `since_ns`, in
    `prompt` (digest `prompt_digest`), and told to write to `output`."""

    id: str
    since_ns: int | None = None
    prompt: str
    output: str
    prompt_digest: str


@payload(K.RETRO_SAVED)
class RetroSaved(Payload):
    """A retrospective's text, kept (the user's, or its retro session's)."""

    id: str
    text: str
    file: str
    since_ns: int | None = None
    digest: str


@payload(K.RETRO_PROPOSED)
class RetroProposed(Payload):
    """`retro_every` came round: the board's question (`question`) asks whether to run one."""

    question: str
    every: str
    since_ns: int


TYPES = (RetroStarted, RetroSaved, RetroProposed)
