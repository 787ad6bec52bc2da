"""Benchmark the pane orchestrator against real tmux and the demo agent (one run, one machine).

Prints: hook-script cost per call (and a Python hook for comparison); signal-to-state latency
p50/p99 (hook start to state committed in the store); Stop-to-next-delivery latency p50/p99;
idle CPU of `a2a serve` with 20 panes; and the same Stop-to-idle latency for a baseline that
polls `capture-pane` every 500 ms, as a ratio. capture-pane appears only here, in the baseline.

    .venv/bin/python bench/bench_panes.py [--turns 30] [--panes 20]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from itertools import pairwise
from pathlib import Path

from benchlib import ROOT, cpu_percent, pct

# isort: split
from tests.support import Served, World, wait_until

PY = sys.executable


def ms(ns: float) -> str:
    return f"{ns / 1e6:8.2f} ms"


def a2a(w: World, *args: str) -> dict:
    """`a2a ARGS --json` (before any `--`); its JSON, or the benchmark stops with the error."""
    args_l = list(args)
    args_l.insert(args_l.index("--") if "--" in args_l else len(args_l), "--json")
    r = w.a2a(*args_l)
    if r.code != 0:
        raise SystemExit(f"a2a {' '.join(args)} failed: {r.out}{r.err}")
    return r.json if r.out.strip() else {}


def wait(pred, timeout: float = 60.0) -> None:
    wait_until(pred, timeout=timeout, interval=0.02, what="the benchmark's condition")


def spawn(w: World, sid: str, *agent_args: str) -> dict:
    r = a2a(w, "spawn", "worker", "--cli", "demo", "--session", sid, "--tmux-socket", w.sock,
            "--", "--idle-notify", "0", *agent_args)
    wait(lambda: w.session(sid)["state"] == "idle")
    return r


def hook_cost(n: int) -> tuple[list[float], list[float]]:
    spool = Path(tempfile.mkdtemp(prefix="a2a-bench-spool-"))
    payload = json.dumps({"hook_event_name": "Stop", "session_id": "x" * 36, "cwd": "/tmp",
                          "transcript_path": "/tmp/t.jsonl", "stop_hook_active": False,
                          "last_assistant_message": "done " * 40}).encode()
    hook = str(ROOT / "hooks" / "a2a-hook")
    sh, py = [], []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        subprocess.run(["sh", hook, "--spool", str(spool), "--session", "w1", "claude"],
                       input=payload, check=True)
        sh.append(time.perf_counter_ns() - t0)
        t0 = time.perf_counter_ns()
        subprocess.run([PY, "-c", "import sys, json, time, os; json.load(sys.stdin)"],
                       input=payload, check=True)
        py.append(time.perf_counter_ns() - t0)
    files = list(spool.glob("*.json"))
    assert len(files) == n, "the hook lost files"
    return sh, py


def turns(w: World, sid: str, n: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """Queue n prompts while paused, resume; measure from the store's own timestamps."""
    a2a(w, "pause", sid)
    for i in range(n):
        a2a(w, "inject", sid, f"turn {i}")
    a2a(w, "resume", sid)
    with w.store() as s:
        wait(lambda: s.one("SELECT COUNT(*) FROM dispatches WHERE session=? AND state='done'",
                             (sid,))[0] >= n, timeout=30 + n * 3)
        sig = [e for e in s.events(kinds=["signal"], session=sid)]
        ds = s.all("SELECT * FROM dispatches WHERE session=? ORDER BY n", (sid,))
    to_state = [e.ts_ns - e.payload["ts_ns"] for e in sig]
    stops = [e for e in sig if e.payload["kind"] == "stop"]
    stop_to_idle = [e.ts_ns - e.payload["ts_ns"] for e in stops]
    to_paste, to_enter = [], []
    for prev, nxt in pairwise(ds):
        stop = next((e for e in stops if e.payload["ts_ns"] > prev["enter_ns"]), None)
        if stop is not None and nxt["sending_ns"]:
            to_paste.append(nxt["sending_ns"] - stop.payload["ts_ns"])
            to_enter.append(nxt["enter_ns"] - stop.payload["ts_ns"])
    return to_state, stop_to_idle, to_paste, to_enter


def polling_baseline(w: World, sid: str, pane: str, n: int) -> list[int]:
    """A poller that reads the screen every 500 ms and calls the pane idle when the reply to
    the latest prompt is on it. Latency: the agent's Stop hook to the poller's verdict."""
    found: dict[int, int] = {}
    stop = threading.Event()
    want: list[str] = []

    def poll() -> None:
        while not stop.is_set():
            screen = w.tmux("capture-pane", "-p", "-t", pane)
            now = time.time_ns()
            for i, marker in enumerate(want):
                if i not in found and marker in screen:
                    found[i] = now
            stop.wait(0.5)

    t = threading.Thread(target=poll, daemon=True)
    t.start()
    lat = []
    try:
        for i in range(n):
            with w.store() as s:
                before = s.last_seq()
            text = "p" * (200 + i)  # a length no earlier reply on the screen has
            r = a2a(w, "inject", sid, text)
            with w.store() as s:
                sent = s.one("SELECT text FROM dispatches WHERE n=?", (r["dispatch"],))[0]
            want.append(f"demo: got {len(sent)} chars, 1 line")
            wait(lambda i=i: i in found, timeout=20)
            with w.store() as s:
                stop_ev = next(e for e in s.events(after=before, kinds=["signal"], session=sid)
                               if e.payload["kind"] == "stop")
            lat.append(found[i] - stop_ev.payload["ts_ns"])
    finally:
        stop.set()
        t.join()
    return lat


def idle_cpu(w: World, served: Served, panes: int, seconds: float) -> float:
    for i in range(panes):
        spawn(w, f"idle{i}")
    time.sleep(2.0)  # let start-up settle
    return cpu_percent(served.proc.pid, seconds)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=30)
    ap.add_argument("--panes", type=int, default=20)
    ap.add_argument("--hook-calls", type=int, default=200)
    ap.add_argument("--idle-seconds", type=float, default=10.0)
    args = ap.parse_args()

    sh, py = hook_cost(args.hook_calls)
    print(f"hook script cost per call (n={len(sh)}): median {ms(statistics.median(sh))}"
          f"  p99 {ms(pct(sh, .99))}")
    print(f"  a bare Python hook instead:  median {ms(statistics.median(py))}"
          f"  ratio {statistics.median(py) / statistics.median(sh):.1f}x slower")

    with World() as w:
        served = w.serve()
        s = spawn(w, "bench", "--delay", "0.05")
        to_state, stop_idle, to_paste, to_enter = turns(w, "bench", args.turns)
        print(f"signal -> state committed (n={len(to_state)}): p50 {ms(pct(to_state, .5))}"
              f"  p99 {ms(pct(to_state, .99))}")
        print(f"Stop hook -> pane idle in store (n={len(stop_idle)}): p50"
              f" {ms(pct(stop_idle, .5))}  p99 {ms(pct(stop_idle, .99))}")
        print(f"Stop hook -> next paste begins (n={len(to_paste)}): p50 {ms(pct(to_paste, .5))}"
              f"  p99 {ms(pct(to_paste, .99))}")
        print(f"Stop hook -> next Enter written (n={len(to_enter)}): p50 {ms(pct(to_enter, .5))}"
              f"  p99 {ms(pct(to_enter, .99))}")
        base = polling_baseline(w, "bench", s["pane"], max(10, args.turns // 3))
        print(f"baseline: capture-pane every 500 ms, Stop -> seen idle (n={len(base)}): p50"
              f" {ms(pct(base, .5))}  p99 {ms(pct(base, .99))}")
        print(f"  ratio baseline/signals at p50: {pct(base, .5) / pct(stop_idle, .5):.1f}x,"
              f" at p99: {pct(base, .99) / pct(stop_idle, .99):.1f}x")
        cpu = idle_cpu(w, served, args.panes, args.idle_seconds)
        print(f"orchestrator idle CPU with {args.panes + 1} panes over {args.idle_seconds:.0f} s:"
              f" {cpu:.2f}% of one core")


if __name__ == "__main__":
    main()
