"""Benchmark the gate through the real CLI in a real temporary repository (one run).

Prints the median wall time of each gate command over N cards (claim, submit, verify with one
trivial check, integrate, reclaim), what verify adds over running the check itself, and the
store's append rate. `python bench/bench_gate.py [--cards 10]`
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import benchlib  # noqa: F401  (first: it makes `tests` importable)

# isort: split
from tests.support import World, commit_in, write_card


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=10)
    args = ap.parse_args()
    with World() as w:
        run(w, args.cards)


def run(w: World, cards: int) -> None:
    def a2a(*a: str) -> tuple[float, dict]:
        t0 = time.perf_counter()
        r = w.a2a(*a, "--json")
        dt = time.perf_counter() - t0
        if r.code != 0:
            raise SystemExit(f"a2a {' '.join(a)}: {r.out}{r.err}")
        return dt, r.json

    times: dict[str, list[float]] = {k: [] for k in
                                     ("status", "card add", "claim", "submit", "verify",
                                      "integrate", "reclaim")}
    for i in range(cards):
        card = write_card(w.repo, f"T-{i}")
        times["status"].append(a2a("status")[0])
        times["card add"].append(a2a("card", "add", str(card))[0])
        a2a("card", "ready", f"T-{i}")
        dt, c = a2a("claim", f"T-{i}")
        times["claim"].append(dt)
        sha = commit_in(Path(c["worktree"]), {"src/app.py": f"x = {i + 1}\n"}, env=w.env)
        times["submit"].append(a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1",
                                   "--fence", str(c["fence"]))[0])
        dt, v = a2a("verify", c["attempt"])
        assert v["passed"]
        times["verify"].append(dt)
        times["integrate"].append(a2a("integrate", c["attempt"], "--score", "boundary=3:a",
                                      "--score", "taste=3:b")[0])
        times["reclaim"].append(a2a("reclaim", c["attempt"])[0])
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    bare = time.perf_counter() - t0
    print(f"gate commands through the CLI, median of {cards} (a bare `python -c pass`:"
          f" {bare * 1000:.0f} ms):")
    for k, v in times.items():
        print(f"  {k:<10} median {statistics.median(v) * 1000:7.0f} ms"
              f"   max {max(v) * 1000:7.0f} ms")

    s = w.store()
    n = 20_000
    t0 = time.perf_counter()
    with s.write() as tx:
        for j in range(n):
            tx.append("bench", actor="user", payload={"j": j})
    bulk = time.perf_counter() - t0
    t0 = time.perf_counter()
    for j in range(500):
        with s.write() as tx:
            tx.append("bench", actor="user", payload={"j": j})
    single = (time.perf_counter() - t0) / 500
    print(f"store: {n / bulk:,.0f} events/s in one transaction;"
          f" {single * 1000:.2f} ms per single-event transaction (WAL, synchronous=FULL)")


if __name__ == "__main__":
    main()
