"""How many examples a fuzz test runs: a bounded budget in CI, a long run on demand.

`A2A_FUZZ` unset: each test's own CI count (all of tests/fuzz together take about a minute
here). `A2A_FUZZ=long`: 100 times as many; `A2A_FUZZ=<N>`: N times as many. The long run is

    A2A_FUZZ=long .venv/bin/python -m pytest -q -n 2 tests/fuzz

A failure prints the shrunk input and a `@reproduce_failure` line; Hypothesis keeps failing
examples in `.hypothesis/` and replays them first on the next run.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

LONG = 100


def scale() -> int:
    """The multiplier `A2A_FUZZ` asks for (1 when unset)."""
    raw = os.environ.get("A2A_FUZZ", "").strip()
    if not raw:
        return 1
    if raw == "long":
        return LONG
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    raise ValueError(f"A2A_FUZZ={raw!r}: 'long' or a positive multiplier")


def budget(examples: int) -> settings:
    """Settings for a fuzz test that runs `examples` inputs in CI. No deadline (the machine is
    shared: a slow example is not a bug); the fixture-made repository is shared by every
    example on purpose (a2a keeps running across bad inputs, as it must in use)."""
    return settings(max_examples=examples * scale(), deadline=None, derandomize=False,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much,
                                           HealthCheck.large_base_example])
