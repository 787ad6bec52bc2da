"""The work a metric view does per event, at each size of the events curve's logs (issue 30):
wall time of one cold computation, Python calls (cProfile) and SQLite VM steps per event. The
same work per event at every size says a steeper step in the curve's medians is the machine's
caches (a small log read again stays in them), not the view's code.

    .venv/bin/python bench/view_work.py [--cache /work/.cache/bench-scale] [--view usage]

It reads the logs `bench_scale.py events --cache DIR` generated (generation 2).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from pathlib import Path

import benchlib  # noqa: F401  (puts the repository root on sys.path)

# isort: split
from a2a_tui import metrics
from a2a_tui.store import Store

SIZES = (100_000, 1_000_000, 10_000_000)


def work(path: Path, view: str, n: int) -> str:
    s = Store(path, create=False)
    try:
        steps = [0]

        def tick() -> int:
            steps[0] += 1
            return 0

        metrics._CACHE.clear()
        t0 = time.perf_counter()
        metrics.compute_json(s, view)
        wall = time.perf_counter() - t0
        metrics._CACHE.clear()
        s.conn.set_progress_handler(tick, 1000)
        prof = cProfile.Profile()
        prof.enable()
        metrics.compute_json(s, view)
        prof.disable()
        s.conn.set_progress_handler(None, 0)
        calls = pstats.Stats(prof).total_calls
    finally:
        s.close()
    return (f"{n:>10,} events: one cold computation {wall * 1e3:8.0f} ms ="
            f" {wall / n * 1e6:.2f} µs per event; Python calls per event {calls / n:.2f};"
            f" SQLite steps per event {steps[0] * 1000 / n:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", type=Path, default=Path("/work/.cache/bench-scale"))
    ap.add_argument("--view", default="usage", choices=metrics.VIEWS)
    args = ap.parse_args()
    for n in SIZES:
        path = args.cache / f"events-{n}-g2.db"
        if not path.exists():
            print(f"{n:>10,} events: no log at {path} (bench_scale.py events --cache)")
            continue
        print(work(path, args.view, n), flush=True)


if __name__ == "__main__":
    main()
