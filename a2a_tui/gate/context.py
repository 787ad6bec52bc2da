"""What every gate command works with: the repository, its store, its config, and the caller."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from a2a_tui.errors import A2AError
from a2a_tui.git import Git
from a2a_tui.identity import Caller
from a2a_tui.repo import Repo
from a2a_tui.store import Store

if TYPE_CHECKING:
    from a2a_tui.config import Config


@dataclass
class GateContext:
    repo: Repo
    store: Store
    caller: Caller = field(default_factory=Caller)

    @property
    def git(self) -> Git:
        return self.repo.git

    @property
    def config(self) -> Config:
        return self.repo.config()

    def card(self, card_id: str):
        row = self.store.one("SELECT * FROM cards WHERE id = ?", (card_id,))
        if row is None:
            raise A2AError("unknown_card", f"no card {card_id!r} (see `a2a card list`)")
        return row

    def attempt(self, attempt_id: str):
        row = self.store.one("SELECT * FROM attempts WHERE id = ?", (attempt_id,))
        if row is None:
            raise A2AError("unknown_attempt", f"no attempt {attempt_id!r} (see `a2a status`)")
        return row

    def target_ref(self) -> str:
        return f"refs/heads/{self.config.target_branch}"
