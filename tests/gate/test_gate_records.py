"""Typed records out of the ledger's queries (issue 23): `GateContext.card` gives a frozen
`CardRecord` read from the log, not the table's row, with the card's fields already parsed."""

from __future__ import annotations

import dataclasses

import pytest

from a2a_tui.errors import A2AError
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.ledger.records import CardRecord
from a2a_tui.gate.model import CardState
from a2a_tui.identity import Caller
from a2a_tui.repo import Repo
from a2a_tui.store import Store
from tests.gate.gate_support import sqlite_outside
from tests.support import add_ready_card


def test_a_card_is_a_frozen_record_from_the_log(repo):
    add_ready_card(repo)
    # The table says otherwise (as an agent's sqlite3 could make it): the record is the log's.
    sqlite_outside(repo, "UPDATE cards SET state = 'draft', fence = 9 WHERE id = 'T-1'")
    with Store(repo / ".a2a/a2a.db") as store:
        g = GateContext(Repo(repo), store, Caller())
        card = g.card("T-1")
        assert isinstance(card, CardRecord)
        assert (card.id, card.version, card.state, card.fence) == ("T-1", 1, CardState.READY, 0)
        assert isinstance(card.body, dict) and card.body["id"] == "T-1"
        with pytest.raises(dataclasses.FrozenInstanceError):
            card.state = CardState.DRAFT   # type: ignore[misc]
        with pytest.raises(A2AError) as no:
            g.card("T-404")
        assert no.value.code == "unknown_card"


def test_a_table_row_and_the_fold_row_give_the_same_record():
    body = {"id": "T-1", "title": "t"}
    folded = {"id": "T-1", "version": 2, "digest": "d", "contract_digest": "c", "state": "ready",
              "fence": 1, "title": "t", "body": body, "source_path": None, "updated_seq": 7}
    stored = {**folded, "body": '{"id": "T-1", "title": "t"}'}   # JSON text in the table
    assert CardRecord.of(folded) == CardRecord.of(stored)
    assert CardRecord.of(stored).state is CardState.READY


def test_an_attempt_is_a_frozen_record_from_the_log(repo):
    from a2a_tui.gate.ledger.records import AttemptRecord
    from a2a_tui.states import AttemptState
    from tests.support import a2a

    add_ready_card(repo)
    claimed = a2a("claim", "T-1", "--json", cwd=repo).json
    # The table says otherwise (as an agent's sqlite3 could make it): the record is the log's.
    sqlite_outside(repo, "UPDATE attempts SET state = 'integrated' WHERE id = 'T-1-a1'")
    with Store(repo / ".a2a/a2a.db") as store:
        att = GateContext(Repo(repo), store, Caller()).attempt(claimed["attempt"])
        assert isinstance(att, AttemptRecord)
        assert (att.id, att.card_id, att.n, att.state) == ("T-1-a1", "T-1", 1, "claimed")
        assert att.state is AttemptState.CLAIMED and att.submitted_sha is None
        with pytest.raises(dataclasses.FrozenInstanceError):
            att.state = AttemptState.ABANDONED   # type: ignore[misc]
        with pytest.raises(AttributeError):
            _ = att.stat   # type: ignore[attr-defined]  # a misspelt field fails where it is read
        with pytest.raises(TypeError):   # read by attribute only: a key read is an error
            _ = att["state"]   # type: ignore[index]
