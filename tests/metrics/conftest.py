"""Fixtures for the metrics tests. The panes and workbench helpers (a real `a2a serve`, spawn,
inject; the app under Pilot) live in tests/panes and tests/tui; they are imported from there
rather than copied (tests/support will hold them)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

for _folder in ("panes", "tui"):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / _folder))

from panes_helpers import Served  # noqa: E402


@pytest.fixture
def serve(repo, tmux_socket):
    """Start `a2a serve` on the test's private tmux server; killed afterwards."""
    started: list[Served] = []

    def start() -> Served:
        started.append(Served(repo, tmux_socket))
        return started[-1]

    yield start
    for s in started:
        s.kill()


@pytest.fixture
def utc(monkeypatch):
    """Days and times in UTC, so that what the screen shows does not depend on the machine."""
    import time

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()
