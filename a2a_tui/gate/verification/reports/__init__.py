"""Test reports: which tests a check's run ran and how each ended, whatever the runner.

A format is an adapter: JUnit XML in its runners' dialects (junit.py), TAP (tap.py); outcomes
are normalised (model.py: passed, failed, error, skipped, xfail, xpass). a2a asks pytest and
`node --test` for a report itself; any other runner's report is named on the card (auto.py).
The runner's own closing summary and exit code are held against the report (summary.py).
"""

from a2a_tui.gate.verification.reports.auto import Declared, env_for, read, read_auto
from a2a_tui.gate.verification.reports.model import (
    FAILING,
    MASKED,
    RAN,
    Outcome,
    TestCase,
    TestReport,
)

__all__ = ["Declared", "FAILING", "MASKED", "Outcome", "RAN", "TestCase", "TestReport",
           "env_for", "read", "read_auto"]
