"""What the benchmark scripts share: a percentile, the CPU a process uses while left alone, and
the rows bench/run_all.py reports (a measure beside its physical limit; `Skipped` for a
benchmark that cannot run on this machine).

Importing it also makes `tests.support` importable (a script run as `python bench/<name>.py`
has only bench/ on its path): a benchmark builds its World the way the tests do. Import it
before `tests` (isort keeps it first: it is not a package of this project).
"""

from __future__ import annotations

import os
import statistics
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


# --- rows for bench/run_all.py: a measure beside its physical limit, from one run ------------
def summary(values: list[float]) -> dict[str, float]:
    """n, median and p99 (nearest rank) of `values`."""
    return {"n": len(values), "median": statistics.median(values), "p99": pct(values, 0.99)}


def row(measure: str, unit: str, values: list[float], *,
        limits: list[tuple[str, list[float]]] = (), aim: float | None = 1.5,
        higher: bool = False, note: str = "") -> dict:
    """One line of the report: what was measured (`values`, in `unit`) and, for each physical
    limit measured in the same run, its name and samples. `aim`: the ratio to the first limit
    it should stay within (None: a comparison, not a limit). `higher`: more is better (a rate),
    so the ratio is the limit's over the measure's."""
    return {"measure": measure, "unit": unit, **summary(values),
            "limits": [{"name": name, **summary(v)} for name, v in limits if v],
            "aim": aim, "higher": higher, "note": note}


def ratio(r: dict, limit: dict) -> float | None:
    """How far the measure is from `limit`, at the median: 1.0 is at the limit."""
    a, b = (limit["median"], r["median"]) if r["higher"] else (r["median"], limit["median"])
    return a / b if b else None


def timed(fn, n: int) -> list[float]:
    """Seconds each of `n` calls of `fn` takes."""
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


class Skipped(Exception):
    """A benchmark that cannot run on this machine; the message says why, in one line."""
