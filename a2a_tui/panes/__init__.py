"""Panes: native agent CLIs in tmux, their state from hook/notify signals only, and the
serialized injection queue. The orchestrator (`orchestrator.py`) ties ingestion and delivery
together; `machine.py` is the pure state machine every state change goes through."""
