"""The gate: the only entry for claim, submit, verify, integrate, abandon and reclaim."""

from a2a_tui.gate.attempts import abandon, bind_writer, claim, submit
from a2a_tui.gate.cards_ops import add_card, list_cards, ready_card, show_card
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.integrate import integrate
from a2a_tui.gate.reclaim import reclaim
from a2a_tui.gate.recover import recover
from a2a_tui.gate.review import review
from a2a_tui.gate.verify import verify

__all__ = ["GateContext", "abandon", "add_card", "bind_writer", "claim", "integrate", "list_cards", "ready_card",
           "reclaim", "recover", "review", "show_card", "submit", "verify"]
