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
