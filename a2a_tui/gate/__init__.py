"""The gate: the only entry for claim, submit, verify, integrate, abandon and reclaim.

The names below are imported on first use (PEP 562): the card model needs pydantic, which costs
~0.2 s at start-up, and most commands (and the workbench's first frame) never touch it. No
subpackage shares a name with them (`verification/`, `integration/`, `reviews/`...), so importing
a part first never hides a function (tests/gate/test_gate_layout.py).
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

_WHERE = {
    "abandon": "attempts.ownership", "bind_writer": "attempts.ownership",
    "claim": "attempts.ownership", "submit": "attempts.ownership",
    "add_card": "cards.commands", "list_cards": "cards.commands", "ready_card": "cards.commands",
    "show_card": "cards.commands", "GateContext": "context", "integrate": "integration.advance",
    "reclaim": "attempts.cleanup", "recover": "integration.recovery",
    "resolve": "integration.resolution", "review": "reviews.verdict",
    "verify": "verification.command",
}
__all__ = ["GateContext", "abandon", "add_card", "bind_writer", "claim", "integrate", "list_cards",
           "ready_card", "reclaim", "recover", "resolve", "review", "show_card", "submit",
           "verify"]

if TYPE_CHECKING:
    from a2a_tui.gate.attempts.cleanup import reclaim
    from a2a_tui.gate.attempts.ownership import abandon, bind_writer, claim, submit
    from a2a_tui.gate.cards.commands import add_card, list_cards, ready_card, show_card
    from a2a_tui.gate.context import GateContext
    from a2a_tui.gate.integration.advance import integrate
    from a2a_tui.gate.integration.recovery import recover
    from a2a_tui.gate.integration.resolution import resolve
    from a2a_tui.gate.reviews.verdict import review
    from a2a_tui.gate.verification.command import verify


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    setattr(sys.modules[__name__], name, value)
    return value

