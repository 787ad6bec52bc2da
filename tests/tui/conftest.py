"""Fixtures for the workbench tests."""

from __future__ import annotations

import time

import pytest


@pytest.fixture
def utc(monkeypatch):
    """Times shown in UTC, so that screenshots do not depend on the machine's zone."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def as_(repo):
    """`as_(session, role)`: the collaboration API acting as that managed session (no args: the
    user), for seeding questions, findings and inbox entries the way agents post them."""
    from a2a_tui.collab.context import Collab
    from a2a_tui.identity import Caller
    from a2a_tui.repo import Repo

    made = []

    def make(session=None, role=None):
        r = Repo(repo)
        made.append(Collab(r, r.store(), Caller(session=session, role=role)))
        return made[-1]

    yield make
    for c in made:
        c.store.close()
