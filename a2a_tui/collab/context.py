"""What every collaboration operation works with: the repository, its store and the caller."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from a2a_tui.errors import A2AError
from a2a_tui.identity import Caller
from a2a_tui.payloads.collab import CollabRefused
from a2a_tui.repo import Repo
from a2a_tui.store import Store

F = TypeVar("F", bound=Callable[..., Any])


class Refused(A2AError):
    """A caller asked for something its role does not allow (not a typo: a right)."""

    def __init__(self, code: str, message: str, about: dict[str, str]):
        super().__init__(code, message)
        self.about = about   # CollabRefused's item, kind, ref, status or what


@dataclass
class Collab:
    """The CLI builds one from its context; the workbench builds one with `Caller()` (the user)."""

    repo: Repo
    store: Store
    caller: Caller = field(default_factory=Caller)

    @property
    def role(self) -> str | None:
        """The caller's launch role; None for the user."""
        return None if self.caller.is_user else self.caller.role

    def refuse(self, code: str, message: str, **about: str) -> Refused:
        """The error for a refused right; `records_refusals` writes it down once raised, with
        what it was `about` (CollabRefused's item, kind, ref, status or what)."""
        return Refused(code, message, about)


def records_refusals(fn: F) -> F:
    """Record every `Refused` raised by an operation as a diagnostic event, after its rollback.

    The event says which session tried what: where an agent tried to step outside its role.
    """
    @functools.wraps(fn)
    def wrapper(c: Collab, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(c, *args, **kwargs)
        except Refused as r:
            with c.store.write() as tx:
                tx.append("collab_refused", actor=c.caller.actor, session=c.caller.session,
                          payload=CollabRefused(code=r.code, message=r.message, role=c.role,
                                                operation=fn.__name__, **r.about))
            raise

    return wrapper  # type: ignore[return-value]


def require_text(value: str | None, what: str) -> str:
    """A non-blank text argument, stripped of surrounding blank lines."""
    if value is None or not value.strip():
        raise A2AError("empty_text", f"{what} must not be empty", exit_code=2)
    return value.strip("\n")
