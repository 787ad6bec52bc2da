"""What the benchmark scripts share: a percentile, and the CPU a process uses while left alone.

Importing it also makes `tests.support` importable (a script run as `python bench/<name>.py`
has only bench/ on its path): a benchmark builds its World the way the tests do. Import it
before `tests` (isort keeps it first: it is not a package of this project).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


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
