"""Fixtures for the collaboration tests: shells in panes registered as sessions, cards."""

from __future__ import annotations

import pytest

from tests.collab.collab_support import Panes
from tests.support import add_ready_card


@pytest.fixture
def panes(repo, tmux_socket, tmp_path) -> Panes:
    scratch = tmp_path / "pane-io"
    scratch.mkdir()
    return Panes(repo, tmux_socket, scratch)


@pytest.fixture
def auth_card(repo) -> str:
    """A ready card T-1 that needs the user's authorization."""
    return add_ready_card(repo, "T-1", "needs_user_authorization = true")


@pytest.fixture
def plain_card(repo) -> str:
    """A ready card T-2 that does not need the user's authorization."""
    return add_ready_card(repo, "T-2")
