"""Benchmark SQLite's checks of the store's pages and a2a's rolling backups (issue 40; one run).

Per store size (events, as bench_store_chain.py builds them: a gate history, then signals),
the medians of: `PRAGMA quick_check` (what an open runs when the file changed, and the
orchestrator's start), `PRAGMA integrity_check` (`a2a store verify`, and each rolling backup's
check of its copy), an open of an unchanged store (the stamp's cost: one stat, one small read),
and a rolling backup (store/rolling.py: the online backup API, the integrity check of the copy,
fsync, rename). Then the orchestrator's signal latency (a spool file renamed to its state
committed, bench_panes.driven_signals) on a store of the largest size, with no backup running
and with backups taken back to back (`[backup] every_min` tiny): a backup reads in its own
connection and thread, so the two should not differ beyond noise.

    .venv/bin/python bench/bench_store_pages.py [--sizes 1000,10000,100000] [--runs 5]
        [--signals 60]
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from benchlib import pct, timed

# isort: split
from bench_panes import driven_signals
from bench_store_chain import build

from a2a_tui.payloads.sessions import Signal
from a2a_tui.repo import Repo
from a2a_tui.store import Store, pages, rolling
from tests.support import World
from tests.support.userconfig import write_user_config


def _pragma(path: Path, pragma: str) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.execute(f"PRAGMA {pragma}").fetchall()
    finally:
        conn.close()


def per_size(events: int, runs: int) -> dict[str, float]:
    """Medians (ms) of each measure on a store of `events` events; its size (MiB)."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "a2a.db"
        build(path, events, max(1, events // 2000))
        Store(path).close()   # checked and stamped; the log folded in
        out = {"MiB": path.stat().st_size / 2**20}
        out["quick_check"] = statistics.median(timed(lambda: _pragma(path, "quick_check"), runs))
        out["integrity_check"] = statistics.median(
            timed(lambda: _pragma(path, "integrity_check"), max(1, runs // 2)))
        out["open, unchanged"] = statistics.median(timed(lambda: Store(path).close(), runs))
        s = Store(path)
        try:
            out["rolling backup"] = statistics.median(
                timed(lambda: rolling.take(s.conn, path, keep=1), max(1, runs // 2)))
        finally:
            s.close()
        return {k: (v * 1e3 if k != "MiB" else v) for k, v in out.items()}


def signal_latency(events: int, signals: int, every_min: float) -> tuple[list[int], int]:
    """ns per signal (spool file renamed to its state committed) with `a2a serve` running on a
    store of `events` events and `[backup] every_min` (0: no backup); the backups taken."""
    with World() as w:
        write_user_config(w, f"[backup]\nevery_min = {every_min}\nkeep = 2\n")
        db = w.repo / ".a2a" / "a2a.db"
        with Repo(w.repo).store() as s, s.write() as tx:
            for i in range(events):
                tx.append("signal", actor="session:w1", session="w1",
                          payload=Signal(event="PostToolUse", raw={"n": i, "tool": "Bash"}))
        served = w.serve()
        try:
            if every_min:   # backups are being taken when the signals land
                deadline = time.monotonic() + 60
                while not pages.kept(db) and time.monotonic() < deadline:
                    time.sleep(0.05)
            lat = driven_signals(w, signals)
        finally:
            served.stop()
        with Store(db) as s:
            taken = len(s.events(kinds=["store_backed_up"]))
        return lat, taken


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--signals", type=int, default=60)
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    print(f"{'events':>9} {'MiB':>7} {'quick_check':>12} {'integrity':>12} {'open, same':>11}"
          f" {'backup':>10}   (medians, ms)")
    for n in sizes:
        m = per_size(n, args.runs)
        print(f"{n:>9,} {m['MiB']:>7.1f} {m['quick_check']:>12.1f} {m['integrity_check']:>12.1f}"
              f" {m['open, unchanged']:>11.2f} {m['rolling backup']:>10.1f}")
    for label, every in (("no backup", 0.0), ("backups back to back", 0.0005)):
        lat, taken = signal_latency(sizes[-1], args.signals, every)
        print(f"signal latency, {sizes[-1]:,} events, {label}: p50"
              f" {statistics.median(lat) / 1e6:.2f} ms, p99 {pct(lat, 0.99) / 1e6:.2f} ms"
              f" ({taken} backups taken during the run)")


if __name__ == "__main__":
    main()
