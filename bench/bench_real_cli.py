"""Benchmark: from a real CLI's turn-end signal to a2a acting on it, over N queued turns.

    python bench/bench_real_cli.py [--turns 30] [--cli claude,codex,gemini]

For each CLI, in the real-CLI test world (network namespace, fake model server, throwaway HOME,
`a2a serve`, see tests/real_cli/harness.py), N prompts are queued at once with `a2a inject`; a2a
delivers them one at a time, each after the previous turn's end. Per turn k (k < N):

  stop->idle    the CLI's Stop hook (Codex: notify; Gemini: AfterAgent) ran -> the pane is idle
                in the store
                (hook timestamp -> the `signal` event's timestamp, written in the same transaction
                as the new state)
  stop->paste   the same Stop -> the paste of prompt k+1 starts (`sending` committed, tmux next)
  stop->enter   the same Stop -> Enter of prompt k+1 written (includes the profile's pause
                between paste and Enter)
  enter->prompt Enter of prompt k -> the CLI's prompt hook (Claude UserPromptSubmit, Gemini
                BeforeAgent; Codex its UserPromptSubmit hook): the CLI's own time
  enter->stop   Enter of prompt k -> its Stop (the whole turn, against an instant fake model)

Prints p50 / p90 / p99 / max in milliseconds, from one run. Needs what the suite needs (npm,
unshare, nsenter, ip, tmux, root); installs the pinned CLIs into the cache on first use.
"""

from __future__ import annotations

import argparse
import sys
import time

from benchlib import Skipped, pct, row

# isort: split
from tests.real_cli.harness import World
from tests.real_cli.install import ensure_installed
from tests.real_cli.isolation import unavailable
from tests.support import wait_until


def start(world: World, cli: str) -> str:
    """Spawn the CLI and wait until a signal made its pane idle."""
    # Codex signals nothing before a turn ends: a first prompt on its command line gives that
    # turn's notify (tests/real_cli/FINDINGS.md).
    args = ("say ready",) if cli == "codex" else ()
    return world.start([], cli, *args, timeout=60)["session"]


def measure(world: World, cli: str, turns: int) -> dict[str, list[float]]:
    sid = start(world, cli)
    ns = [world.inject(sid, f"bench turn {k}") for k in range(turns)]
    wait_until(lambda: world.dispatch(ns[-1])["state"] == "done", timeout=30 + 3 * turns,
               interval=0.1, what="the last bench turn to end")
    stops = {e.payload["finished"]: e for e in world.events("signal", session=sid)
             if e.payload.get("kind") == "stop" and "finished" in e.payload}
    prompts = {}
    for e in world.events("signal", session=sid):
        if e.payload.get("kind") == "prompt" and "confirmed" in e.payload:
            prompts[e.payload["confirmed"]] = e.payload["ts_ns"]
    out: dict[str, list[float]] = {k: [] for k in
                                   ("stop->idle", "stop->paste", "stop->enter", "enter->prompt",
                                    "enter->stop")}
    ms = 1e-6
    for k, n in enumerate(ns):
        d = world.dispatch(n)
        stop = stops[n]
        out["enter->stop"].append((stop.payload["ts_ns"] - d["enter_ns"]) * ms)
        if n in prompts:
            out["enter->prompt"].append((prompts[n] - d["enter_ns"]) * ms)
        if k + 1 == len(ns):
            continue
        nxt = world.dispatch(ns[k + 1])
        hook_ns = stop.payload["ts_ns"]
        out["stop->idle"].append((stop.ts_ns - hook_ns) * ms)
        out["stop->paste"].append((nxt["sending_ns"] - hook_ns) * ms)
        out["stop->enter"].append((nxt["enter_ns"] - hook_ns) * ms)
    return {k: v for k, v in out.items() if v}


def run(clis: list[str], turns: int) -> dict[str, dict[str, list[float]]]:
    """measure() for each CLI, each in a world of its own; Skipped where the real CLIs cannot
    run here (no npm, tmux, network namespace, or the pinned install)."""
    why = unavailable()
    if why is not None:
        raise Skipped(why)
    try:
        bin_dir = ensure_installed()
    except Exception as exc:  # an install that cannot complete here (offline, no npm cache)
        raise Skipped(f"the pinned CLIs could not be installed: {exc}") from exc
    out = {}
    for cli in clis:
        world = World(bin_dir)
        try:
            world.serve()
            out[cli] = measure(world, cli, turns)
        finally:
            world.close()
    return out


def rows(quick: bool) -> list[dict]:
    res = run(["claude", "codex"], 3 if quick else 30)
    return [row(f"{cli}: {name.replace('->', ' → ')}", "ms", vals, aim=None,
                note="instant fake model; " + ("a2a's part" if name.startswith("stop")
                                               else "the CLI's own time"))
            for cli, by in res.items() for name, vals in by.items()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=30)
    ap.add_argument("--cli", default="claude,codex,gemini")
    args = ap.parse_args()
    why = unavailable()
    if why is not None:
        print(f"bench_real_cli: cannot run here: {why}", file=sys.stderr)
        return 2
    t0 = time.monotonic()
    bin_dir = ensure_installed()
    print(f"pinned CLIs ready in {time.monotonic() - t0:.1f} s ({bin_dir})")
    for cli in args.cli.split(","):
        world = World(bin_dir)
        try:
            world.serve()
            t1 = time.monotonic()
            res = measure(world, cli, args.turns)
            wall = time.monotonic() - t1
        finally:
            world.close()
        print(f"\n{cli}: {args.turns} queued turns in {wall:.1f} s (instant fake model)")
        print(f"  {'ms':<14}{'n':>4}{'p50':>9}{'p90':>9}{'p99':>9}{'max':>9}")
        for name, vals in res.items():
            print(f"  {name:<14}{len(vals):>4}" + "".join(
                f"{pct(vals, q):>9.1f}" for q in (0.5, 0.9, 0.99)) + f"{max(vals):>9.1f}")
        if res.get("stop->idle") and res.get("stop->paste"):
            share = pct(res["stop->idle"], 0.5) / pct(res["stop->paste"], 0.5)
            print(f"  stop->idle is {share:.0%} of stop->paste at the median")
    return 0


if __name__ == "__main__":
    sys.exit(main())
