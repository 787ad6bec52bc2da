"""Fixtures for the metrics tests: days and times in UTC (the `utc` fixture of tests/tui)."""

from __future__ import annotations

from tests.tui.conftest import utc  # noqa: F401  (a fixture, used by name)
