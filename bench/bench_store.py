"""Benchmark the store's append under contention: 8 processes appending at once (one run).

Each writer appends its events one transaction each (as a gate command or the orchestrator
does: BEGIN IMMEDIATE, the hash-chained append, COMMIT with WAL and synchronous=FULL). Prints
events/s over all writers and the per-append latency (median, p99), beside the same load on a
bare SQLite table with the same settings (no chain, no a2a): the cost of the durable commit
itself, which is the limit. `python bench/bench_store.py [--writers 8] [--events 200]`
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from benchlib import pct, row

# isort: split
from a2a_tui.store import Store
from a2a_tui.store.db import BUSY_TIMEOUT_MS


def _a2a_writer(path: str, n: int, start: float, out) -> None:
    s = Store(path)
    while time.time() < start:
        time.sleep(0.001)
    lat = []
    for i in range(n):
        t0 = time.perf_counter()
        with s.write() as tx:
            tx.append("bench", actor="user", payload={"i": i, "note": "contended append"})
        lat.append(time.perf_counter() - t0)
    s.close()
    out.put(lat)


def _bare_writer(path: str, n: int, start: float, out) -> None:
    conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    while time.time() < start:
        time.sleep(0.001)
    lat = []
    for i in range(n):
        t0 = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t(payload) VALUES (?)", (f'{{"i":{i}}}',))
        conn.execute("COMMIT")
        lat.append(time.perf_counter() - t0)
    conn.close()
    out.put(lat)


def contended(target, path: Path, writers: int, n: int) -> tuple[list[float], float]:
    """Every append's seconds, and events per second over all writers (first start to last
    end), with `writers` processes running `target` at once."""
    out = mp.get_context("spawn").Queue()
    start = time.time() + 1.0 + 0.2 * writers  # every process is up and waiting by then
    procs = [mp.get_context("spawn").Process(target=target, args=(str(path), n, start, out))
             for _ in range(writers)]
    for p in procs:
        p.start()
    lat = [x for _ in procs for x in out.get(timeout=600)]
    end = time.time()
    for p in procs:
        p.join(timeout=60)
    return lat, writers * n / (end - start)


def measure(writers: int, n: int) -> dict[str, tuple[list[float], float]]:
    with tempfile.TemporaryDirectory() as d:
        a2a_db = Path(d) / "a2a.db"
        Store(a2a_db).close()  # migrated once, before the clock
        bare_db = Path(d) / "bare.db"
        with sqlite3.connect(bare_db) as c:
            c.execute("PRAGMA journal_mode = WAL")
            c.execute("CREATE TABLE t (seq INTEGER PRIMARY KEY, payload TEXT NOT NULL)")
        return {"a2a": contended(_a2a_writer, a2a_db, writers, n),
                "bare": contended(_bare_writer, bare_db, writers, n)}


def rows(quick: bool) -> list[dict]:
    writers, n = (8, 20) if quick else (8, 200)
    m = measure(writers, n)
    (lat, rate), (bare_lat, bare_rate) = m["a2a"], m["bare"]
    ms = lambda xs: [x * 1e3 for x in xs]  # noqa: E731
    return [
        row(f"store append, {writers} writers at once: latency", "ms", ms(lat),
            limits=[("bare SQLite INSERT, same settings and writers", ms(bare_lat))]),
        row(f"store append, {writers} writers at once: throughput", "events/s", [rate],
            limits=[("bare SQLite INSERT, same settings and writers", [bare_rate])],
            higher=True),
    ]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--writers", type=int, default=8)
    ap.add_argument("--events", type=int, default=200, help="per writer")
    args = ap.parse_args()
    m = measure(args.writers, args.events)
    for name, (lat, rate) in m.items():
        print(f"{name:>5}: {rate:8.0f} events/s with {args.writers} writers; append latency"
              f" median {statistics.median(lat) * 1e3:.2f} ms, p99 {pct(lat, .99) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
