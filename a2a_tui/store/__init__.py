"""The SQLite store: an append-only event log plus projections, one file per repository."""

from a2a_tui.store.db import Event, Store, Tx

__all__ = ["Event", "Store", "Tx"]
