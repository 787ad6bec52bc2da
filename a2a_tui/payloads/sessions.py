"""The payloads of sessions and their panes (spawn.py, lifecycle.py, panes/): a launch and its
pane, a pane's exit, pause, release and hints, the signals its CLI sends and the spool files
refused, the turns a2a reminds of or stops, and what the gate asks of the user about them. A
field marked "older" is one an older a2a wrote, read and never written."""

from __future__ import annotations

from typing import Any

from a2a_tui.kinds import EventKind as K
from a2a_tui.payloads.base import Payload, key, payload


@payload(K.SESSION_LAUNCHING)
class SessionLaunching(Payload):
    """A launch's record (spawn.py `_launch_record`): the role, the CLI and how it runs, the
    launch it brings back (`revives`, `restarts`), the original it `forks`, and the facts of
    the launch (argv, environment names, role card, confinement, channels)."""

    role: str | None = None
    model: str | None = None
    effort: str | None = None
    cwd: str | None = None
    thread_id: str | None = None
    prompt_signal: bool | None = None
    permissions: dict[str, Any] | None = None
    extra: list[str] | None = None      # None: a launch from before options were kept
    spool: str | None = None
    continues: str | None = None
    fork: bool | None = None
    revives: int | None = None
    restarts: int | None = None
    cli: str | None = None
    cli_version: str | None = None
    argv: list[str] | None = None
    env: list[str] | None = None
    role_card: str | None = None
    role_card_digest: str | None = None
    repo_commit: str | None = None
    tmux_socket: str | None = None
    tmux_session: str | None = None
    env_passed: list[str] | None = None
    confinement: dict[str, Any] | None = None
    broker_socket: str | None = None
    forks: str | None = None
    forks_launch: int | None = None
    revive_refused: str | None = None
    project_profile: int | None = None
    user_input: str | None = None


@payload("session_launched")
class SessionLaunched(Payload):
    """What tmux reported of the started pane: its id, process (and its start), tty, session
    leader, and whether a subreaper keeps its descendants."""

    pane: str | None = None
    pid: int | None = None
    pid_start: int | None = None
    tty: str | None = None
    sid: int | None = None
    subreaper: bool | None = None
    launch_seq: int | None = None


@payload("session_ended")
class SessionEnded(Payload):
    ended_by: str | None = None
    user_input: str | None = None
    pane: str | None = None
    pane_closed: bool | None = None
    process_gone: bool | None = None
    from_: str | None = key("from", default=None)
    in_flight: int | None = None


@payload(K.PANE_EXITED)
class PaneExited(Payload):
    """A pane found gone (`why`, `found_at`), or a CLI that exited as it launched (`reason`)."""

    pane: str | None = None
    why: str | None = None
    found_at: str | None = None
    reason: str | None = None


@payload(K.SIGNAL)
class Signal(Payload):
    """A hook's or notify's signal (panes/signals.py) and the pane state it moved; what the
    state machine made of it (`ignored`, the dispatch `confirmed`, `finished` or `ended`) and
    a new hint, when it did."""

    file: str | None = None
    source: str | None = None
    event: str | None = None
    kind: str | None = None
    ts_ns: int | None = None
    pane: str | None = None
    from_: str | None = key("from", default=None)
    to: str | None = None
    detail: dict[str, Any] | None = None
    raw: Any = None
    ignored: str | None = None
    confirmed: int | None = None
    finished: int | None = None
    ended: int | None = None
    hint: str | None = None


@payload("signal_quarantined")
class SignalQuarantined(Payload):
    file: str
    reason: str
    bytes: int | None = None
    moved_to: str | None = None


@payload("spool_flooded")
class SpoolFlooded(Payload):
    limit: int
    window_s: float
    first_dropped: str
    reason: str


@payload(K.HUMAN_INTERVENTION)
class HumanIntervention(Payload):
    """A person's hand: a prompt typed into a pane (the user input it was kept as: `kind`
    typed_in_pane), or a commit of their own on an attempt (`via` commit, its `sha`)."""

    via: str | None = None
    sha: str | None = None
    user_input: str | None = None
    kind: str | None = None
    ts_ns: int | None = None


@payload("pane_hint")
class PaneHint(Payload):
    """A hint on a pane, and why (panes/hints.py): silent since its launch or while busy, or
    no prompt signal after a dispatch (`n`)."""

    hint: str
    why: str | None = None
    after_s: float | None = None
    since_ns: int | None = None
    n: int | None = None


@payload(K.PANE_STALLED)
class PaneStalled(Payload):
    since_ns: int | None = None
    after_s: float | None = None
    item: str | None = None
    pane: str | None = None


@payload(K.TURN_REMINDED)
class TurnReminded(Payload):
    since_ns: int | None = None
    after_s: float | None = None
    turn_s: float | None = None
    item: str | None = None


@payload(K.TURN_STOPPED)
class TurnStopped(Payload):
    """A turn stopped with its CLI's interrupt key: why (silent, cap), the limit, how long it
    ran and was silent, the keys (sent, or the error), the conversation to resume, the item."""

    since_ns: int | None = None
    why: str | None = None
    limit_s: float | None = None
    turn_s: float | None = None
    silent_s: float | None = None
    keys: list[str] = ()   # type: ignore[assignment]
    sent: bool | None = None
    error: str | None = None
    ended: Any = None
    pane: str | None = None
    thread_id: str | None = None
    resume: str | None = None
    item: str | None = None


@payload(K.MODEL_STOPPED_EARLY)
class ModelStoppedEarly(Payload):
    """A writer's Stop (`signal`) with its work owed, the turn it ended, and who ran it."""

    signal: int | None = None
    turn_began: int | None = None
    state: str | None = None
    cli: str | None = None
    model: str | None = None
    effort: str | None = None


@payload(K.SPOT_CHECK_REQUESTED)
class SpotCheckRequested(Payload):
    item: str | None = None
    integration: int | None = None
    every: int | None = None
    drawn_from: int | None = None


@payload(K.SPOT_CHECK_DONE)
class SpotCheckDone(Payload):
    verdict: str | None = None
    reason: str | None = None
    user_input: str | None = None
    asked: int | None = None


@payload("pane_paused")
class PanePaused(Payload):
    state: str | None = None   # the pane's state when it was paused


@payload("pane_resumed")
class PaneResumed(PanePaused):
    pass


@payload(K.PANE_RELEASED)
class PaneReleased(Payload):
    from_: str | None = key("from", default=None)
    in_flight: int | None = None
    hint: str | None = None


@payload("user_called")
class UserCalled(Payload):
    """What started waiting for the user (each: key, kind, ref, text), how many wait, and
    every key called so far."""

    new: list[dict[str, Any]] = ()      # type: ignore[assignment]
    count: int | None = None
    called: list[str] = ()              # type: ignore[assignment]


@payload("attention_seen")
class AttentionSeen(Payload):
    upto: int


TYPES: tuple[type[Payload], ...] = (
    SessionLaunching, SessionLaunched, SessionEnded, PaneExited, Signal, SignalQuarantined,
    SpoolFlooded, HumanIntervention, PaneHint, PaneStalled, TurnReminded, TurnStopped,
    ModelStoppedEarly, SpotCheckRequested, SpotCheckDone, PanePaused, PaneResumed, PaneReleased,
    UserCalled, AttentionSeen,
)
