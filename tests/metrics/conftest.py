"""Fixtures for the metrics tests. The panes helpers (a real `a2a serve`, spawn, inject) live in
tests/panes; they are imported from there rather than copied (tests/support will hold them)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "panes"))

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
