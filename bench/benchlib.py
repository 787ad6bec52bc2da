"""What the benchmark scripts share: a percentile, and the CPU a process uses while left alone."""

from __future__ import annotations

import os
import time
from pathlib import Path


def pct(values: list[float], q: float) -> float:
    """The value at quantile `q` (0..1) of `values`, by nearest rank on the sorted values."""
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def cpu_ticks(pid: int) -> int:
    """User + system clock ticks the process has used so far (/proc/<pid>/stat, fields 14-15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def cpu_percent(pid: int, seconds: float) -> float:
    """Percent of one core the process uses over the next `seconds` (sleeps that long)."""
    c0, t0 = cpu_ticks(pid), time.monotonic()
    time.sleep(seconds)
    c1, t1 = cpu_ticks(pid), time.monotonic()
    return (c1 - c0) / os.sysconf("SC_CLK_TCK") / (t1 - t0) * 100
