"""The pane state machine. Pure: it decides, the callers record.

States: unknown | idle | busy | waiting | exited, plus the user's `paused` flag.
- Only structured signals move the state (and the user's explicit release).
- Delivery is allowed only to an idle, unpaused pane with nothing in flight.
- The orchestrator marks a pane busy at the instant it writes Enter (`sent`); only a Stop
  timestamped later releases it. Esc interrupts produce no signal: the pane stays busy until the
  user releases it; a hint ("probably idle — release?") is shown, never acted on.
- `exited` is final: the process is gone; the queue is kept.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, replace

from a2a_tui.panes.signals import Signal

STATES = ("unknown", "idle", "busy", "waiting", "exited")
PROBABLY_IDLE = "probably idle — release?"
# SessionStart sources after which the CLI sits at an empty prompt. `compact` may come mid-turn.
# `fork`: Claude Code's `--resume ID --fork-session` (2.1.214 and later; measured on 2.1.332).
_FRESH_STARTS = ("startup", "resume", "clear", "fork", None)
# SessionEnd reasons after which the same process goes on (a SessionStart follows).
_CONTINUING_ENDS = ("clear", "resume")


@dataclass(frozen=True)
class Pane:
    """What the orchestrator knows about one pane."""

    state: str = "unknown"
    paused: bool = False
    busy_since_ns: int | None = None
    in_flight: int | None = None
    hint: str | None = None
    needs_clear: bool = False
    thread_id: str | None = None
    # When we last began writing to the pane (a paste). A Stop or start timestamped before it
    # says nothing about what that write did, whatever happened since (a release, a crash).
    last_write_ns: int | None = None


@dataclass(frozen=True)
class Outcome:
    """The result of one signal: the new pane, and what the caller must record."""

    pane: Pane
    ignored: str | None = None        # why the signal moved nothing
    confirmed: int | None = None      # a dispatch whose marker came back in a submitted prompt
    finished: int | None = None       # the in-flight dispatch whose turn ended (Stop)
    ended: int | None = None          # the in-flight dispatch whose process died
    user_input: str | None = None     # a prompt nobody injected: the user typed it


def can_deliver(p: Pane) -> bool:
    """True only for an idle, unpaused pane with nothing in flight."""
    return p.state == "idle" and not p.paused and p.in_flight is None


def apply(p: Pane, sig: Signal, ours: Container[int], *,
          prompts_signalled: bool = False) -> Outcome:
    """Apply one signal. `ours` holds the dispatch numbers injected into this pane.
    `prompts_signalled`: the session's CLI signals each submitted prompt (its launch record), so
    a turn's end that repeats the prompt (Codex's notify) is not a second user input."""
    if p.state == "exited":
        return Outcome(p, ignored="the pane has exited")
    kind = sig.kind
    if sig.event == "agent-turn-complete":
        if p.thread_id is None:
            if sig.is_codex_title_turn:
                return Outcome(p, ignored="codex title-generation turn")
            if sig.thread_id:
                p = replace(p, thread_id=sig.thread_id)
        elif sig.thread_id != p.thread_id:
            return Outcome(p, ignored=f"another codex thread ({sig.thread_id})")
    if kind == "exited":
        return Outcome(exited(p), ended=p.in_flight)
    if kind == "end":
        if sig.detail.get("reason") in _CONTINUING_ENDS:
            return Outcome(p, ignored="the session goes on in the same process")
        return Outcome(exited(p), ended=p.in_flight)
    if kind == "start":
        if sig.detail.get("source") not in _FRESH_STARTS:
            return Outcome(p, ignored=f"SessionStart source {sig.detail.get('source')!r}")
        if _before_enter(p, sig):
            return Outcome(p, ignored="older than the last Enter")
        return Outcome(_to_idle(p), finished=p.in_flight)
    if kind == "prompt":
        return _submitted(p, sig, ours)
    if kind == "tool":
        return Outcome(_to_busy(p, sig.ts_ns))
    if kind == "waiting":
        return Outcome(replace(p, state="waiting", hint=None,
                               busy_since_ns=p.busy_since_ns or sig.ts_ns))
    if kind == "stop":
        if p.state == "idle" and sig.inputs is None:
            return Outcome(p, ignored="already idle")
        if _before_enter(p, sig):
            return Outcome(p, ignored="Stop older than the last Enter")
        out = Outcome(_to_idle(p), finished=p.in_flight)
        if sig.inputs is not None:  # Codex: the notify is all we hear of the turn's prompt
            mine = [n for n in sig.markers() if n in ours]
            if mine:
                out = replace(out, confirmed=mine[0])
            elif sig.inputs and not prompts_signalled:
                out = replace(out, user_input=sig.submitted_text)
        return out
    if kind == "idle_hint":
        if p.state != "busy":
            return Outcome(p, ignored=f"hint while {p.state}")
        return Outcome(replace(p, hint=PROBABLY_IDLE))
    return Outcome(p, ignored=f"{sig.event} carries no state")


def sent(p: Pane, n: int, enter_ns: int) -> Pane:
    """Enter was written for dispatch n: busy from that instant."""
    return replace(p, state="busy", busy_since_ns=enter_ns, in_flight=n, hint=None,
                   needs_clear=False)


def exited(p: Pane) -> Pane:
    """The process is gone (it exited, or the user ended the session): final."""
    return replace(p, state="exited", in_flight=None, busy_since_ns=None, hint=None)


def release(p: Pane) -> Pane:
    """The user says the pane is idle (after an Esc interrupt, a hint, an unknown dispatch).

    The input box may hold the interrupted prompt: the next paste clears it first.
    """
    return replace(p, state="idle", in_flight=None, busy_since_ns=None, hint=None,
                   needs_clear=True)


def crashed_while_sending(p: Pane) -> Pane:
    """The orchestrator died between `sending` and `sent`: whether text or Enter reached the pane
    is unknown, so the pane is too, until a signal or the user says otherwise."""
    return replace(p, state="unknown", hint=None)


def unconfirmed(p: Pane, hint: str | None) -> Pane:
    """Enter was written and the CLI never said it took the prompt (`confirm.py`): whether the
    text waits in the box or went in is unknown, so the pane is too, until a signal or the user
    says otherwise. The next paste clears the box first: the text may still be there."""
    return replace(p, state="unknown", hint=hint, needs_clear=True)


def _before_enter(p: Pane, sig: Signal) -> bool:
    barrier = max(p.busy_since_ns or 0, p.last_write_ns or 0)
    return barrier > 0 and sig.ts_ns <= barrier


def _to_idle(p: Pane) -> Pane:
    return replace(p, state="idle", in_flight=None, busy_since_ns=None, hint=None)


def _to_busy(p: Pane, ts_ns: int) -> Pane:
    since = p.busy_since_ns if p.state in ("busy", "waiting") and p.busy_since_ns else ts_ns
    return replace(p, state="busy", busy_since_ns=since, hint=None)


def _submitted(p: Pane, sig: Signal, ours: Container[int]) -> Outcome:
    mine = [n for n in sig.markers() if n in ours]
    busy = _to_busy(p, sig.ts_ns)
    if mine:
        n = mine[0]
        return Outcome(replace(busy, in_flight=p.in_flight or n), confirmed=n)
    return Outcome(busy, user_input=sig.prompt or "")
