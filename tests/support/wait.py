"""Waiting on conditions: poll until true, or check that something stays true for a while."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_until(pred: Callable[[], Any], timeout: float = 10.0, interval: float = 0.05,
               what: str = "condition") -> Any:
    """Poll `pred` until it returns something truthy; fail with `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        last = pred()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what} (last: {last!r})")


def holds_for(pred: Callable[[], Any], seconds: float, what: str = "condition") -> None:
    """Assert `pred` stays true for a whole window (a negative check: nothing more happens).

    Fails as soon as it turns false; used only where the behaviour under test is that an
    event does NOT come within a stated time.
    """
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert pred(), f"{what} stopped holding"
        time.sleep(0.05)
    assert pred(), f"{what} stopped holding"
