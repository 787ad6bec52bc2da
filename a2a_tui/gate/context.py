"""What every gate command works with: the repository, its store, its config, and the caller."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from a2a_tui.errors import A2AError
from a2a_tui.gate.model import ATTEMPT_ID
from a2a_tui.git import Git
from a2a_tui.identity import Caller
from a2a_tui.repo import Repo
from a2a_tui.store import Store

if TYPE_CHECKING:
    from a2a_tui.config import Config
    from a2a_tui.gate.ledger.records import AttemptRecord, CardRecord


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

    def card(self, card_id: str) -> CardRecord:
        """The card as the event log gives it (gate/ledger/), not as its table says."""
        from a2a_tui.gate.ledger.records import CardRecord  # lazy: with the ledger, below

        row = self._log(card_id).get("cards", card_id)
        if row is None:
            raise A2AError("unknown_card", f"no card {card_id!r} (see `a2a card list`)")
        return CardRecord.of(row)

    def attempt(self, attempt_id: str) -> AttemptRecord:
        """The attempt as the event log gives it (gate/ledger/)."""
        from a2a_tui.gate.ledger.records import AttemptRecord  # lazy: with the ledger, below

        m = ATTEMPT_ID.match(attempt_id)
        row = self._log(m["card"]).attempt(attempt_id) if m else None
        if row is None:
            raise A2AError("unknown_attempt", f"no attempt {attempt_id!r} (see `a2a status`)")
        return AttemptRecord.of(row)

    def _log(self, card_id: str):
        from a2a_tui.gate import ledger  # lazy: it brings the board in; most commands need neither

        return ledger.load(self.store, card_id)

    def target_ref(self) -> str:
        return f"refs/heads/{self.config.target_branch}"
