"""Benchmark: does every pasted prompt arrive, once, whole? Real CLIs, loopback fake model.

    python bench/bench_delivery.py sweep --cli claude --pauses 0,0.05,0.1,0.3 --n 60 [--load]
    python bench/bench_delivery.py first --cli claude --settles 0,1 --pauses 0.3 --n 10 --load
    python bench/bench_delivery.py harmless --cli claude,codex,gemini --n 10 [--load]
    python bench/bench_delivery.py deliver --cli claude,codex,gemini --n 1000 --load \
        --save /tmp/delivery.jsonl
    python bench/bench_delivery.py report --results /tmp/delivery.jsonl[,...]

sweep     the pause between a bracketed paste and Enter, probed directly (delivery_probe.py: no
          a2a delivery, the CLI's own signals read from the spool): per pause, how many Enters
          were lost (the prompt stayed in the box: a second Enter submitted it), pastes lost
          (the box stayed empty), prompts merged (submitted with other text) or taken twice.
first     the same for the first paste of a launch, `settle` seconds after the CLI's start
          signal (Codex: its first turn's end), one fresh launch per delivery.
harmless  whether a second Enter is harmless: Enter on the empty box of an idle CLI, and while
          a turn runs, must give no signal and no model request.
deliver   N prompts queued with `a2a inject` and delivered by `a2a serve` as it delivers
          (profile pause, confirmation by the CLI's prompt signal, a second Enter where
          allowed): zero lost (each dispatch's prompt reached the model), zero merged (each
          request holds exactly its dispatch's text), zero sent twice (one request per marker).
report    the results saved with `--save` as the delivery section of bench/REPORT.md (run_all.py
          keeps that section when it rewrites the rest).

`--load` runs one busy loop per core (`python -c 'while 1: pass'`) for the whole run, as a
loaded laptop or a CI machine running the suite in parallel would. Needs what the real-CLI
suite needs (npm, unshare, nsenter, ip, tmux, root).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from benchlib import ROOT, pct

# isort: split
import delivery_probe
import delivery_queue
import delivery_report

from tests.real_cli.fakemodel import Reply
from tests.real_cli.harness import World
from tests.real_cli.install import ensure_installed
from tests.real_cli.isolation import unavailable

HOG = "while 1: pass"


@contextlib.contextmanager
def load(on: bool) -> Iterator[int]:
    """One busy loop per core while the block runs (none when `on` is false)."""
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(os.cpu_count() or 1)
            ] if on else []
    try:
        yield len(hogs)
    finally:
        for h in hogs:
            h.kill()
            h.wait()


def loadavg() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())


def _record(mode: str, cli: str, loaded: bool, **facts) -> dict:
    return {"mode": mode, "cli": cli, "load": loaded, "loadavg": loadavg(),
            "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), **facts}


def _point(outcomes: list) -> dict:
    c = Counter(o.result for o in outcomes)
    # Of the prompts the first Enter submitted (a recovered one waited for the probe's second).
    lat = [o.enter_to_signal_ms for o in outcomes if o.result == "ok"]
    return {"n": len(outcomes), **{k: c.get(k, 0) for k in RESULTS},
            "p50_ms": pct(lat, .5) if lat else None, "p99_ms": pct(lat, .99) if lat else None}


def sweep(bin_dir, cli: str, pauses: list[float], n: int, loaded: bool) -> list[dict]:
    """Per pause, n probed deliveries in one pane (a fresh world per pause)."""
    out = []
    for pause in pauses:
        with World(bin_dir) as w:
            # Settled well past start-up: these are the pastes after a turn (`first` probes the
            # first paste of a launch).
            probe = delivery_probe.Probe(w, cli).start(settle=3.0)
            for i in range(n):
                probe.deliver(i, pause)
            out.append(_record("sweep", cli, loaded, pause=pause, **_point(probe.outcomes)))
        _print(out[-1])
    return out


def first(bin_dir, cli: str, pauses: list[float], settles: list[float], n: int,
          loaded: bool) -> list[dict]:
    """Per (settle, pause), n fresh launches, each given one prompt `settle` seconds after its
    start signal was seen (the first paste of a launch: a queue kept for a new session, or the
    task a worker is spawned with), Enter `pause` after the paste."""
    points = [(s, p) for s in settles for p in pauses]
    got: dict[tuple[float, float], list] = {pt: [] for pt in points}
    with World(bin_dir) as w:
        for i in range(n):
            for settle, pause in points:
                probe = delivery_probe.Probe(w, cli).start(settle=settle)
                got[settle, pause].append(probe.deliver(i, pause))
                w.kill_pane(probe.pane)
    out = [_record("first", cli, loaded, settle=s, pause=p, **_point(got[s, p]))
           for s, p in points]
    for r in out:
        _print(r)
    return out


RESULTS = ("ok", "enter_lost", "enter_in_paste", "paste_lost", "merged", "twice")


def _print(r: dict) -> None:
    where = f"first paste {r['settle']:.1f} s after start, " if r["mode"] == "first" else ""
    print(f"  {r['cli']} {where}pause {r['pause']:.2f} s: n={r['n']} "
          + " ".join(f"{k}={r[k]}" for k in RESULTS)
          + (f"  enter->signal p50 {r['p50_ms']:.0f} ms p99 {r['p99_ms']:.0f} ms"
             if r["p50_ms"] is not None else "") + f"  (load {r['loadavg']})", flush=True)


def harmless(bin_dir, cli: str, n: int, loaded: bool) -> dict:
    """n Enters on an idle CLI's empty box, and n while a turn runs: the signals they gave."""
    with World(bin_dir) as w:
        probe = delivery_probe.Probe(w, cli).start()
        idle_signals = 0
        for i in range(n):
            probe.deliver(i, 0.5)
            idle_signals += len(probe.enter_on_empty_box())
        busy_extra = 0
        for i in range(n, 2 * n):
            busy_extra += probe.enter_while_busy(
                i, lambda m: w.fm.on_text(m, Reply(delay_s=3.0)))
    r = _record("harmless", cli, loaded, idle_enters=n, idle_signals=idle_signals,
                busy_enters=n, busy_extra=busy_extra)
    print(f"  {cli}: {r}", flush=True)
    return r


def deliver(bin_dir, cli: str, n: int, loaded: bool) -> dict:
    """n prompts through a2a (delivery_queue.py)."""
    r = _record("deliver", cli, loaded, **delivery_queue.run(bin_dir, cli, n).row())
    print(f"  {cli}: {r}", flush=True)
    return r


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("sweep", "first", "harmless", "deliver", "report"))
    ap.add_argument("--cli", default="claude,codex,gemini")
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--pauses", default="0,0.05,0.1,0.2,0.3")
    ap.add_argument("--settles", default="0")
    ap.add_argument("--load", action="store_true")
    ap.add_argument("--save", type=Path, help="append each result as a JSON line to this file")
    ap.add_argument("--results", help="report: the JSON-lines files to report, comma-separated")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "REPORT.md",
                    help="report: the report whose delivery section is (re)written")
    args = ap.parse_args()
    if args.mode == "report":
        records = [json.loads(line) for f in args.results.split(",")
                   for line in Path(f).read_text().splitlines() if line.strip()]
        delivery_report.write(args.out, records)
        print(f"wrote the delivery section of {args.out}")
        return 0
    why = unavailable()
    if why is not None:
        print(f"bench_delivery: cannot run here: {why}", file=sys.stderr)
        return 2
    bin_dir = ensure_installed()
    pauses = [float(p) for p in args.pauses.split(",")]
    with load(args.load) as hogs:
        print(f"{args.mode}: {hogs} busy loop(s); load {loadavg()}", flush=True)
        t0 = time.monotonic()
        for cli in args.cli.split(","):
            if args.mode == "sweep":
                got = sweep(bin_dir, cli, pauses, args.n, args.load)
            elif args.mode == "first":
                got = first(bin_dir, cli, pauses, [float(s) for s in args.settles.split(",")],
                            args.n, args.load)
            elif args.mode == "harmless":
                got = [harmless(bin_dir, cli, args.n, args.load)]
            else:
                got = [deliver(bin_dir, cli, args.n, args.load)]
            if args.save:
                with args.save.open("a") as f:
                    f.writelines(json.dumps(r) + "\n" for r in got)
        print(f"done in {time.monotonic() - t0:.0f} s; load {loadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
