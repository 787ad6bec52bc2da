"""The payloads of the collaboration (a2a_tui/collab/): the user's words, the board's items and
their answers and closures, the inbox's entries, the project's profile, and a refused right.
The tables (`board_items`, `inbox`, `user_inputs`) hold the rest of each record; collab/items.py
and entries.py are the records as read back."""

from __future__ import annotations

from typing import Any

from a2a_tui.kinds import CollabEvent as C
from a2a_tui.kinds import EventKind as K
from a2a_tui.payloads.base import Payload, payload


@payload(C.USER_INPUT)
class UserInput(Payload):
    """A user input record (U-<n>): its words, where they came from (cli, tui, pane) and what
    they answer. The rest are the details a caller adds (the pane typed in, the review comments
    sent, the rule file accepted, the input it confirms, the profile confirmed)."""

    id: str
    kind: str
    text: str
    source: str
    ref: str | None = None
    option: str | None = None
    via: str | None = None          # typed in a pane (panes/spool.py)
    pane: str | None = None
    ts_ns: int | None = None
    sha: str | None = None          # review comments sent (gate/reviews/comments.py)
    comments: list[str] | None = None
    older: list[str] | None = None
    file: str | None = None         # a rule file accepted (gate/cards/gate_rules.py)
    digest: str | None = None
    confirms: str | None = None     # an input confirmed as the user's words
    profile: dict[str, str] | None = None   # the project profile confirmed (cli/profile_cmds.py)
    edits: list[str] | None = None


@payload(C.INBOX_POSTED)
class InboxPosted(Payload):
    """An inbox entry (I-<n>); its text is in the `inbox` table."""

    id: str
    kind: str
    recipient: str
    status: str | None = None
    ref: str | None = None
    authorized: int | None = None
    note: str | None = None
    user_input: str | None = None


@payload(K.BOARD_ITEM_POSTED)
class BoardItemPosted(Payload):
    """A question (Q-<n>) or a finding (F-<n>); `options`: a question's, each {key, text}."""

    id: str
    kind: str
    title: str
    body: str = ""
    category: str = "other"
    blocking: bool = False
    protected: bool = False
    options: list[dict[str, str]] = ()   # type: ignore[assignment]
    recommend: str | None = None
    why: str | None = None


@payload(K.BOARD_ITEM_ANSWERED)
class BoardItemAnswered(Payload):
    """The user's answer to an item: the user input that is the answer, the option picked."""

    id: str
    user_input: str
    option: str | None = None
    adopted: bool = False


@payload(K.BOARD_ITEM_CLOSED)
class BoardItemClosed(Payload):
    id: str
    reason: str
    role: str = "user"


@payload(K.PROJECT_PROFILE_CONFIRMED)
class ProjectProfileConfirmed(Payload):
    """The profile the user confirmed, what was detected and the `--set` edits beside it."""

    profile: dict[str, Any]
    detected: dict[str, Any] | None = None
    edits: list[str] = ()   # type: ignore[assignment]
    user_input: str | None = None


@payload(C.COLLAB_REFUSED)
class CollabRefused(Payload):
    """A right refused to a caller (collab/context.py `records_refusals`): what it tried, and
    the item, kind, ref, status or act it was about."""

    code: str
    message: str
    role: str | None = None
    operation: str | None = None
    item: str | None = None
    kind: str | None = None
    ref: str | None = None
    status: str | None = None
    what: str | None = None


@payload("records_delivered")
class RecordsDelivered(Payload):
    """Board answers or inbox entries (`records`) went to a session as one prompt (`dispatch`,
    its number in the session's queue); `source`: what sent them."""

    records: list[str]
    dispatch: int
    source: str | None = None


TYPES: tuple[type[Payload], ...] = (
    UserInput, InboxPosted, BoardItemPosted, BoardItemAnswered, BoardItemClosed,
    ProjectProfileConfirmed, CollabRefused, RecordsDelivered)
