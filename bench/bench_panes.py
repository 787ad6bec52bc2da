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
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from a2a_tui.store import Store  # noqa: E402

from benchlib import cpu_percent, pct  # noqa: E402

PY = sys.executable


def ms(ns: float) -> str:
    return f"{ns / 1e6:8.2f} ms"


class World:
    """A temp HOME, a git repo with a2a initialised, a private tmux server, `a2a serve`."""

    def __init__(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="a2a-bench-"))
        self.sock = f"a2a-bench-{uuid.uuid4().hex[:8]}"
        home = self.tmp / "home"
        home.mkdir()
        (home / ".gitconfig").write_text("[user]\n\tname = Bench\n\temail = b@example.com\n")
        tmux_tmp = Path(f"/tmp/a2ab-{uuid.uuid4().hex[:6]}")
        tmux_tmp.mkdir()
        self.env = dict(os.environ, HOME=str(home), GIT_CONFIG_GLOBAL=str(home / ".gitconfig"),
                        GIT_CONFIG_NOSYSTEM="1", TMUX_TMPDIR=str(tmux_tmp))
        for var in ("TMUX", "TMUX_PANE"):
            self.env.pop(var, None)
        self.repo = self.tmp / "repo"
        self.repo.mkdir()
        for args in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "i"]):
            subprocess.run(["git", *args], cwd=self.repo, env=self.env, check=True)
        self.a2a("init")
        self.serve = subprocess.Popen([PY, "-m", "a2a_tui", "serve", "--tmux-socket", self.sock],
                                      cwd=self.repo, env=self.env, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(1.0)

    def a2a(self, *args: str) -> dict:
        args_l = list(args)
        args_l.insert(args_l.index("--") if "--" in args_l else len(args_l), "--json")
        out = subprocess.run([PY, "-m", "a2a_tui", *args_l], cwd=self.repo, env=self.env,
                             capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"a2a {' '.join(args)} failed: {out.stdout}{out.stderr}")
        return json.loads(out.stdout) if out.stdout.strip() else {}

    def store(self) -> Store:
        return Store(self.repo / ".a2a" / "a2a.db")

    def state(self, sid: str) -> str:
        with self.store() as s:
            return s.one("SELECT state FROM sessions WHERE id=?", (sid,))[0]

    def wait(self, pred, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if pred():
                return
            time.sleep(0.02)
        raise SystemExit("benchmark timed out waiting")

    def spawn(self, sid: str, *agent_args: str) -> dict:
        r = self.a2a("spawn", "worker", "--cli", "demo", "--session", sid, "--tmux-socket",
                     self.sock, "--", "--idle-notify", "0", *agent_args)
        self.wait(lambda: self.state(sid) == "idle")
        return r

    def close(self) -> None:
        self.serve.terminate()
        self.serve.wait(timeout=10)
        subprocess.run(["tmux", "-L", self.sock, "kill-server"], env=self.env, capture_output=True)


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
    w.a2a("pause", sid)
    for i in range(n):
        w.a2a("inject", sid, f"turn {i}")
    w.a2a("resume", sid)
    with w.store() as s:
        w.wait(lambda: s.one("SELECT COUNT(*) FROM dispatches WHERE session=? AND state='done'",
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
            screen = subprocess.run(["tmux", "-L", w.sock, "capture-pane", "-p", "-t", pane],
                                    env=w.env, capture_output=True, text=True).stdout
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
            r = w.a2a("inject", sid, text)
            with w.store() as s:
                sent = s.one("SELECT text FROM dispatches WHERE n=?", (r["dispatch"],))[0]
            want.append(f"demo: got {len(sent)} chars, 1 line")
            w.wait(lambda i=i: i in found, timeout=20)
            with w.store() as s:
                stop_ev = next(e for e in s.events(after=before, kinds=["signal"], session=sid)
                               if e.payload["kind"] == "stop")
            lat.append(found[i] - stop_ev.payload["ts_ns"])
    finally:
        stop.set()
        t.join()
    return lat


def idle_cpu(w: World, panes: int, seconds: float) -> float:
    for i in range(panes):
        w.spawn(f"idle{i}")
    time.sleep(2.0)  # let start-up settle
    return cpu_percent(w.serve.pid, seconds)


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

    w = World()
    try:
        s = w.spawn("bench", "--delay", "0.05")
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
        cpu = idle_cpu(w, args.panes, args.idle_seconds)
        print(f"orchestrator idle CPU with {args.panes + 1} panes over {args.idle_seconds:.0f} s:"
              f" {cpu:.2f}% of one core")
    finally:
        w.close()


if __name__ == "__main__":
    main()
