"""Where an orchestrator cycle's time goes, per number of live panes (issue 30: does a signal's
path do work over every session?). An in-process orchestrator on a private tmux server, N demo
agents spawned, then 40 signals driven into one more session, as `bench_scale.py panes` does;
each step of the cycle is timed by a wrapper (the code itself is unchanged).

    .venv/bin/python bench/cycle_steps.py [--panes 5,50,100]

Prints signal → state committed (p50, max) and, per step, its calls and median ms. The steps
after `ingest` run after the signal's commit: they delay only a signal that lands meanwhile.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

import bench_panes

# isort: split
from a2a_tui.panes import broker_host, confirm, cycle, delivery, exits, hints, spool, stalls
from a2a_tui.panes import orchestrator as orch
from a2a_tui.repo import Repo
from tests.support import World

TIMES: dict[str, list[float]] = defaultdict(list)
STEPS = [(spool, "ingest", "ingest (the signal's commit)"), (spool, "pending", "spool.pending"),
         (delivery, "deliver_ready", "deliver_ready"), (cycle, "ingest_and_deliver", "cycle"),
         (orch.Orchestrator, "_watch_exits", "after: the sweep over sessions"),
         (orch.Orchestrator, "_reload_settings", "after: settings stamp"),
         (hints, "silent_starts", "after: hints"), (confirm, "unconfirmed", "after: confirm"),
         (stalls, "silent_panes", "after: stalls"), (exits.ExitWatcher, "watch", "after: exits"),
         (broker_host.BrokerHost, "serve", "after: broker sockets")]


def timed(owner, name: str, label: str) -> None:
    f = getattr(owner, name)

    def wrapper(*a, **k):
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            TIMES[label].append(time.perf_counter() - t)
    setattr(owner, name, wrapper)


def run(panes: int) -> None:
    with World() as w:
        o = orch.Orchestrator(Repo(w.repo), w.sock)
        o.start()
        try:
            for i in range(panes):
                bench_panes.spawn(w, f"p{i}")
            time.sleep(1.0)
            TIMES.clear()
            sig = sorted(x / 1e6 for x in bench_panes.driven_signals(w, 40, sid=f"drv{panes}"))
        finally:
            o.stop()
    print(f"{panes} panes: signal → state committed p50 {sig[len(sig) // 2]:.2f} ms,"
          f" max {sig[-1]:.2f} ms")
    for label, xs in TIMES.items():
        print(f"   {label:32} {len(xs):4} calls, median {statistics.median(xs) * 1e3:6.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--panes", default="5,50,100")
    args = ap.parse_args()
    for owner, name, label in STEPS:
        timed(owner, name, label)
    for n in (int(x) for x in args.panes.split(",")):
        run(n)


if __name__ == "__main__":
    main()
