"""Fault switches for crash-safety tests: the gate and the panes both die on request here."""

from __future__ import annotations

import os
import signal

CRASH_ENV = "A2A_CRASH_AT"


def crashpoint(name: str) -> None:
    """Die here, as kill -9 would, when `$A2A_CRASH_AT` names this point."""
    if os.environ.get(CRASH_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)
