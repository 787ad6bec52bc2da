"""Every test runs in its own World: a throwaway HOME, git configuration and tmux server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import World, add_ready_card, collab_as

# The slowest folders first (measured: `--durations`): xdist hands tests out in collection
# order, and a long test drawn last keeps one worker busy while the others have finished
# (the last tenth of a run took a third of its time with these at the end).
SLOW_FIRST = ("tests/real_cli/", "tests/scenarios/", "tests/tui/",
              "tests/panes/", "tests/loop/", "tests/walk/", "tests/store/")


def pytest_collection_modifyitems(config, items) -> None:
    def rank(item) -> int:
        return next((i for i, p in enumerate(SLOW_FIRST) if item.nodeid.startswith(p)),
                    len(SLOW_FIRST))
    items.sort(key=rank)   # stable: each file's tests keep their order


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory, monkeypatch) -> Iterator[World]:
    """The test's World, without a repository until `repo` asks for one; this process's
    environment points at it for the test's length."""
    with World(tmp_path_factory.mktemp("world"), repo=False) as w:
        w.enter(monkeypatch)
        yield w


@pytest.fixture
def world(isolated_env) -> World:
    """The test's World (the real-CLI modules have one of their own: tests/real_cli)."""
    return isolated_env


@pytest.fixture
def repo(world, tmp_path) -> Path:
    """A real git repository with a2a initialised in it."""
    return world.init_repo(tmp_path / "repo")


@pytest.fixture
def tmux_socket(world) -> str:
    """The test's private tmux server (tmux -L); killed when the test ends."""
    return world.sock


@pytest.fixture
def serve(world, repo):
    """`serve(env=None)` starts `a2a serve` on the test's private tmux server; killed when the
    test ends."""
    return world.serve


@pytest.fixture
def ready_card(repo) -> str:
    """A ready card T-1."""
    return add_ready_card(repo)


@pytest.fixture
def as_(repo):
    """`as_(session, role)`: the collaboration API acting as that caller, in-process (no args:
    the user), for seeding what agents post."""
    made = []

    def make(session=None, role=None):
        made.append(collab_as(repo, session, role))
        return made[-1]

    yield make
    for c in made:
        c.store.close()
