"""Proof that the real-CLI suite notices broken signal handling (never used by a normal run).

    PYTHONPATH=$PWD/tests/real_cli/break_signals A2A_BREAK_STOP=1 \
        .venv/bin/python -m pytest tests/real_cli

switches off a2a's turn-end handling (Stop, StopFailure, AfterAgent, Codex notify) inside
`a2a serve` only: every "stop" signal is ingested as "other" (recorded, moves nothing). The
suite must then fail. A2A_BREAK_TITLE=1 instead switches off the recognition of Codex's
hidden title-generation turn. Without either variable this file does nothing.
"""

from __future__ import annotations

import os
import sys

if os.environ.get("A2A_BREAK_STOP") and "serve" in sys.argv:
    import dataclasses

    from a2a_tui.panes import signals

    _orig = signals.normalize

    def normalize(*args, **kw):
        sig = _orig(*args, **kw)
        return dataclasses.replace(sig, kind="other") if sig.kind == "stop" else sig

    signals.normalize = normalize
    print("A2A_BREAK_STOP: stop handling switched off", file=sys.stderr, flush=True)

if os.environ.get("A2A_BREAK_TITLE") and "serve" in sys.argv:
    from a2a_tui.panes import signals

    signals.Signal.is_codex_title_turn = property(lambda self: False)
    print("A2A_BREAK_TITLE: title-turn recognition switched off", file=sys.stderr, flush=True)
