"""The scenarios' switches: `scenario(mechanism)` marks a scenario with the mechanism it proves;
registry.py says how each is switched off; sitecustomize.py does it in the a2a subprocesses."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
OFF_ENV = "A2A_SCENARIO_OFF"


def scenario(mechanism: str) -> pytest.MarkDecorator:
    """Mark a scenario test with the mechanism it proves (a key of registry.SWITCHES)."""
    return pytest.mark.scenario(mechanism)
