"""Messages the workers post to the app: past-tense events, named like the store's event kinds.

Workers only post these; `@on` handlers on the app own every state change. The store reader
gathers a burst of writes and reads once (store/watch.py), so a burst costs one `StoreRead`; each
snapshot carries only what is new since the previous one, so none may replace another.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.message import Message

from a2a_tui.tui.queries import Snapshot

if TYPE_CHECKING:
    from a2a_tui.tui.services import Done, Workbench


class StoreRead(Message):
    """The store was read after it changed: the panels named in the snapshot get new rows."""

    def __init__(self, snapshot: Snapshot) -> None:
        super().__init__()
        self.snapshot = snapshot


class SearchWanted(Message):
    """A panel's `/` filter is to be looked for in its whole record, in the store."""

    def __init__(self, scope: str, text: str) -> None:
        super().__init__()
        self.scope = scope
        self.text = text


class StoreSearched(Message):
    """What the store-side search of a panel's record found for a filter."""

    def __init__(self, scope: str, text: str, rows: list) -> None:
        super().__init__()
        self.scope = scope
        self.text = text
        self.rows = rows


class OrchestratorStarted(Message):
    """The app now hosts this repository's orchestrator."""

    def __init__(self, pid: int) -> None:
        super().__init__()
        self.pid = pid


class OrchestratorUnavailable(Message):
    """The app could not host the orchestrator (another one serves the repository, no tmux...)."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class OrchestratorStopped(Message):
    """The hosted orchestrator's worker ended; `error` says why if it failed."""

    def __init__(self, error: str | None) -> None:
        super().__init__()
        self.error = error


class OrchestratorSeen(Message):
    """The repository's orchestrator, run by another process (`a2a serve`, the tmux window
    `a2a up` starts): its pid, or None when none runs."""

    def __init__(self, pid: int | None) -> None:
        super().__init__()
        self.pid = pid


class UserActed(Message):
    """A user action was carried out and recorded as a user input; subclasses name the effect
    after the store event it produced."""

    kind = "user_input"

    def __init__(self, summary: str, data: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.summary = summary
        self.data = data or {}


class InjectionQueued(UserActed):
    """The user's prompt was queued for a pane (dispatch_queued)."""

    kind = "dispatch_queued"


class PanesPaused(UserActed):
    """Injection into one or more panes was paused or resumed (pane_paused / pane_resumed)."""

    kind = "pane_paused"


class PaneReleased(UserActed):
    """The user declared a pane idle (pane_released)."""

    kind = "pane_released"


class PaneJumped(UserActed):
    """tmux now shows the session's pane."""

    kind = "pane_jumped"


class BoardItemAnswered(UserActed):
    """An answer was recorded; it went out at once or waits in the batch (board_item_answered)."""

    kind = "board_item_answered"


class BoardAnswersSent(UserActed):
    """Held answers went out, one prompt per asking session (records_delivered)."""

    kind = "records_delivered"


class UserSaid(UserActed):
    """A message, approval or refusal to the ideation controller was recorded (user_input)."""

    kind = "user_input"


class VerifyFinished(UserActed):
    """A verify the user started from the workbench finished (verify_passed / rejected)."""

    kind = "verify_finished"


class AttemptIntegrated(UserActed):
    """The user integrated an attempt from the workbench (integrated)."""

    kind = "integrated"


class AttemptAbandoned(UserActed):
    """The user abandoned an attempt from the workbench (abandoned)."""

    kind = "abandoned"


class WorktreeOpened(UserActed):
    """A tmux window with a shell in an attempt's worktree was opened."""

    kind = "worktree_opened"


class SessionStarted(UserActed):
    """A session the user asked for was launched (session_launched)."""

    kind = "session_launched"


class SessionRestarted(UserActed):
    """An exited session was launched again (session_launched, `restarts` in its record)."""

    kind = "session_launched"


class SessionEnded(UserActed):
    """The user ended a session (session_ended)."""

    kind = "session_ended"


class SessionRevived(UserActed):
    """An exited session was launched again on its own conversation (session_launched,
    `revives` in its record)."""

    kind = "session_launched"


class SessionForked(UserActed):
    """A new session was launched on a copy of another's conversation (`forks`)."""

    kind = "session_launched"


class CommentsChanged(UserActed):
    """A line comment on a diff was held, edited or removed, or the held ones were sent."""

    kind = "review_comment"


class WaitingSeen(UserActed):
    """The user looked at what waits for them (attention_seen)."""

    kind = "attention_seen"



class ReviewStarted(UserActed):
    """A reviewer session was launched on the attempt's SHA (review_started)."""

    kind = "review_started"


class ReviewIssueDisposed(UserActed):
    """You accepted, rejected or deferred a blocking issue (review_disposition)."""

    kind = "review_disposition"


class ReviewOverridden(UserActed):
    """You set a SHA's review aside (review_overridden)."""

    kind = "review_overridden"


class IntegrationApproved(UserActed):
    """You approved integrating a verified SHA (integration_approved)."""

    kind = "integration_approved"


class CardAdded(UserActed):
    """A card written in the editor was added, or its new version stored (card_added,
    card_versioned, card_revised)."""

    kind = "card_added"


class CardReady(UserActed):
    """You confirmed a card's current version ready to be claimed (card_ready)."""

    kind = "card_ready"


class CardClaimed(UserActed):
    """You claimed a ready card: an attempt, its fence and worktree (claimed)."""

    kind = "claimed"


ACTED = (InjectionQueued, PanesPaused, PaneReleased, PaneJumped, BoardItemAnswered,
         BoardAnswersSent, UserSaid, VerifyFinished, AttemptIntegrated, AttemptAbandoned,
         WorktreeOpened, SessionStarted, SessionRestarted, SessionEnded, WaitingSeen,
         SessionRevived, SessionForked, CommentsChanged, ReviewStarted, ReviewIssueDisposed,
         ReviewOverridden, IntegrationApproved, CardAdded, CardReady, CardClaimed)


class UserActionRefused(Message):
    """A user action was refused (by the gate, the queue, the board...): nothing changed."""

    def __init__(self, what: str, code: str, message: str) -> None:
        super().__init__()
        self.what = what
        self.code = code
        self.message = message


class ActionRequested(Message):
    """A panel asks the app to carry out a user action; the app runs `call` in a worker and posts
    `done` (a UserActed) or UserActionRefused. `slow` actions (a verify) get their own worker;
    the others run one at a time, in the order they were asked for."""

    def __init__(self, what: str, call: Callable[[Workbench], Done], done: type[UserActed],
                 *, slow: bool = False) -> None:
        super().__init__()
        self.what = what
        self.call = call
        self.done = done
        self.slow = slow
