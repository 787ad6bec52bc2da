"""Fixtures for the collaboration tests: panes on a private tmux server, cards."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from collab_support import Panes, collab_as
from helpers import a2a, write_card

# The end-to-end tests drive `a2a serve` and spawned demo agents with the panes area's helpers.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "panes"))


@pytest.fixture
def panes(repo, tmux_socket, tmp_path) -> Panes:
    scratch = tmp_path / "pane-io"
    scratch.mkdir()
    return Panes(repo, tmux_socket, scratch)


def _ready_card(repo, card_id: str, extra: str = "") -> str:
    card = write_card(repo, card_id=card_id, extra=extra)
    assert a2a("card", "add", str(card), cwd=repo).code == 0
    assert a2a("card", "ready", card_id, cwd=repo).code == 0
    return card_id


@pytest.fixture
def auth_card(repo) -> str:
    """A ready card T-1 that needs the user's authorization."""
    return _ready_card(repo, "T-1", "needs_user_authorization = true")


@pytest.fixture
def plain_card(repo) -> str:
    """A ready card T-2 that does not need the user's authorization."""
    return _ready_card(repo, "T-2")


@pytest.fixture
def as_(repo):
    """`as_(session, role)`: a Collab acting as that caller, in-process (no args: the user)."""
    made = []

    def make(session=None, role=None):
        made.append(collab_as(repo, session, role))
        return made[-1]

    yield make
    for c in made:
        c.store.close()


@pytest.fixture
def serve(repo, tmux_socket):
    """`serve()` starts `a2a serve` on the test's private tmux server; killed afterwards."""
    from panes_helpers import Served

    started = []
    yield lambda: started.append(Served(repo, tmux_socket)) or started[-1]
    for s in started:
        s.kill()


@pytest.fixture
def ready_card(repo) -> str:
    """A ready card T-1."""
    return _ready_card(repo, "T-1")
