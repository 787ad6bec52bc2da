"""Benchmark the gate through the real CLI in a real temporary repository (one run).

Prints the median wall time of each gate command over N cards (claim, submit, verify with one
trivial check, integrate, reclaim), what verify adds over running the check itself, and the
store's append rate. `python bench/bench_gate.py [--cards 10]`
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from a2a_tui.store import Store  # noqa: E402

from helpers import CARD_TOML  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=10)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="a2a-bench-gate-"))
    home = tmp / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = B\n\temail = b@example.com\n")
    env = dict(os.environ, HOME=str(home), GIT_CONFIG_GLOBAL=str(home / ".gitconfig"),
               GIT_CONFIG_NOSYSTEM="1")
    repo = tmp / "repo"
    repo.mkdir()

    def sh(*cmd: str, cwd: Path = repo) -> str:
        return subprocess.run(cmd, cwd=cwd, env=env, check=True, capture_output=True,
                              text=True).stdout.strip()

    def a2a(*a: str) -> tuple[float, dict]:
        t0 = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "a2a_tui", *a, "--json"], cwd=repo, env=env,
                             capture_output=True, text=True)
        dt = time.perf_counter() - t0
        if out.returncode != 0:
            raise SystemExit(f"a2a {' '.join(a)}: {out.stdout}{out.stderr}")
        return dt, json.loads(out.stdout)

    sh("git", "init", "-q", "-b", "main")
    (repo / "src").mkdir()
    (repo / "src/app.py").write_text("x = 0\n")
    sh("git", "add", "-A")
    sh("git", "commit", "-q", "-m", "init")
    a2a("init")
    times: dict[str, list[float]] = {k: [] for k in
                                     ("status", "card add", "claim", "submit", "verify",
                                      "integrate", "reclaim")}
    for i in range(args.cards):
        card = tmp / f"T-{i}.toml"
        card.write_text(CARD_TOML.format(id=f"T-{i}", check="true", extra=""))
        times["status"].append(a2a("status")[0])
        times["card add"].append(a2a("card", "add", str(card))[0])
        a2a("card", "ready", f"T-{i}")
        dt, c = a2a("claim", f"T-{i}")
        times["claim"].append(dt)
        wt = Path(c["worktree"])
        (wt / "src/app.py").write_text(f"x = {i + 1}\n")
        sh("git", "commit", "-q", "-am", "work", cwd=wt)
        sha = sh("git", "rev-parse", "HEAD", cwd=wt)
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
    print(f"gate commands through the CLI, median of {args.cards} (a bare `python -c pass`:"
          f" {bare * 1000:.0f} ms):")
    for k, v in times.items():
        print(f"  {k:<10} median {statistics.median(v) * 1000:7.0f} ms"
              f"   max {max(v) * 1000:7.0f} ms")

    s = Store(repo / ".a2a/a2a.db")
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
