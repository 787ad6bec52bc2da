"""The metrics fold like the gate's ledger: one handler per kind, keyed by the one registry of
event kinds (a2a_tui/kinds.py), which the events reference is generated from too."""

from __future__ import annotations

from a2a_tui.kinds import EventKind, GateEvent
from a2a_tui.metrics import handlers
from a2a_tui.metrics.history import READ_IN_SQL

REGISTRY = {*GateEvent, *EventKind}


def unregistered(kinds) -> set[str]:
    """Kinds the metrics name that the registry does not hold (a typo, a kind renamed in one
    place only): compared as the text the log holds."""
    return {str(k) for k in kinds} - {str(k) for k in REGISTRY}


def test_every_kind_the_metrics_fold_or_read_is_in_the_registry():
    assert unregistered(handlers.HANDLERS) == set()
    assert unregistered(READ_IN_SQL) == set()
    assert all(isinstance(k, (GateEvent, EventKind)) for k in handlers.HANDLERS)


def test_a_kind_spelled_by_hand_is_found():
    assert unregistered([*handlers.HANDLERS, "board_item_postd"]) == {"board_item_postd"}


def test_the_two_halves_of_the_registry_do_not_overlap():
    assert {str(k) for k in GateEvent} & {str(k) for k in EventKind} == set()
