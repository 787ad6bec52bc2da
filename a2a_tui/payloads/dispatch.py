"""The payloads of a dispatch's way to its pane (queue.py, panes/delivery.py, confirm.py,
spool.py, recovery.py, lifecycle.py): queued, typed, sent, confirmed by the CLI's signal, done
or ended; or not sent, or unknown. Each names the dispatch (`n`)."""

from __future__ import annotations

from a2a_tui.kinds import EventKind as K
from a2a_tui.payloads.base import Payload, key, payload


@payload(K.DISPATCH_QUEUED)
class DispatchQueued(Payload):
    n: int
    source: str | None = None
    text: str | None = None   # as pasted: its marker, then the text


@payload("dispatch_sending")
class DispatchSending(Payload):
    n: int
    pane: str | None = None
    clear_first: bool | None = None


@payload(K.DISPATCH_SENT)
class DispatchSent(Payload):
    n: int
    pane: str | None = None
    enter_ns: int | None = None
    from_: str | None = key("from", default=None)


@payload("dispatch_confirmed")
class DispatchConfirmed(Payload):
    n: int
    was: str | None = None   # the dispatch's state the signal found
    ts_ns: int | None = None


@payload("dispatch_done")
class DispatchDone(Payload):
    n: int
    ts_ns: int | None = None


@payload("dispatch_ended")
class DispatchEnded(Payload):
    """A prompt in flight that ended with its turn's end signal (`ts_ns`) or its session
    (`why`)."""

    n: int
    ts_ns: int | None = None
    why: str | None = None


@payload("dispatch_not_sent")
class DispatchNotSent(Payload):
    n: int
    why: str | None = None


@payload("dispatch_unknown")
class DispatchUnknown(Payload):
    """A delivery whose arrival cannot be proven: why; from the confirmation, the pane and
    how many Enters were written."""

    n: int
    why: str | None = None
    pane: str | None = None
    enters: int | None = None


@payload(K.DISPATCH_ENTER_RESENT)
class DispatchEnterResent(Payload):
    n: int
    pane: str | None = None
    enter: int | None = None          # which Enter this is (2: the first written again)
    enter_ns: int | None = None
    after_s: float | None = None
    first_enter_ns: int | None = None


TYPES: tuple[type[Payload], ...] = (
    DispatchQueued, DispatchSending, DispatchSent, DispatchConfirmed, DispatchDone, DispatchEnded,
    DispatchNotSent, DispatchUnknown, DispatchEnterResent,
)
