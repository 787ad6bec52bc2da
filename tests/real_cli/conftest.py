"""Fixtures for the real-CLI conformance suite: the pinned CLIs, one isolated world per module."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.real_cli.harness import World
from tests.real_cli.install import InstallError, ensure_installed


@pytest.fixture(scope="session")
def bin_dir() -> Path:
    """The pinned CLIs, installed with npm into the cache on first use (~15 s, then reused)."""
    try:
        return ensure_installed()
    except InstallError as exc:
        pytest.fail(f"could not install the pinned agent CLIs: {exc}", pytrace=False)


@pytest.fixture(scope="module")
def world(bin_dir):
    """A namespace, a fake model, a throwaway HOME, a repository and `a2a serve` for the module."""
    with World(bin_dir) as w:
        w.serve()
        yield w


@pytest.fixture
def fresh_world(bin_dir):
    """A world for one test alone (e.g. one that decides how its tmux server starts)."""
    with World(bin_dir) as w:
        w.serve()
        yield w


@pytest.fixture
def panes(world):
    """Panes a test spawned: killed when it ends, so the next test starts with a quiet machine."""
    spawned: list[str] = []
    yield spawned
    for pane in spawned:
        world.kill_pane(pane)
