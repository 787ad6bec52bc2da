from __future__ import annotations

import pytest

from panes_helpers import Served


@pytest.fixture
def serve(repo, tmux_socket):
    """Start `a2a serve` on the test's private tmux server; stopped afterwards."""
    started: list[Served] = []

    def start(env: dict[str, str] | None = None) -> Served:
        s = Served(repo, tmux_socket, env)
        started.append(s)
        return s

    yield start
    for s in started:
        s.kill()
