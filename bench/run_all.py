"""Run every benchmark and write one report: `bench/REPORT.md`, medians, p99 and ratios from one
run, with the machine it ran on.

    .venv/bin/python bench/run_all.py            # the full run (tens of minutes)
    .venv/bin/python bench/run_all.py --quick    # everything with small counts: a smoke test
    .venv/bin/python bench/run_all.py --only panes,gate --out /tmp/r.md

The scale curves (issue 30) are long runs of their own (`bench/bench_scale.py CURVE`); a full
run here redraws their tables and pictures from what those wrote (`bench/scale_report.py`).

Each benchmark runs in a process of its own (`--one NAME`, which writes its rows as JSON), so
that one's memory, threads and tmux servers never weigh on the next. A benchmark that cannot run
here (the real CLIs without a network namespace) is listed with one line saying why; one that
fails is listed with its error, and the others still run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import ROOT, Skipped, row

# isort: split
import benchreport
import scale_report

# name -> (module in bench/, what it measures). Each module's `rows(quick)` returns the rows.
BENCHES = {
    "panes": ("bench_panes", "signal → state, Stop → next delivery, the polling baseline, the"
              " hook's cost, idle CPU with 20 panes"),
    "real-cli": ("bench_real_cli", "Claude Code and Codex: Stop → idle, → next paste, → Enter"),
    "gate": ("bench_gate", "the gate's overhead beyond the check commands, 10,000 files"),
    "tests": ("bench_tests", "verify with and without the base comparison, 500 tests; the"
              " cache hit"),
    "store": ("bench_store", "store append with 8 writers at once"),
    "cli": ("run_all", "agent-facing CLI calls beside `python -c pass`"),
    "broker": ("bench_broker", "an agent's `a2a` through its broker beside the direct call and"
               " `python -c pass`; a hook's signal through the session's spool folder"),
    "metrics": ("bench_metrics", "the metric views over 1,000,000 events"),
    "workbench": ("bench_tui", "the workbench's first frame, 20 sessions and 100,000 events"),
    "chain": ("bench_store_chain", "the event chain: open and full check"),
    "confine": ("bench_confine", "a launch confined and not: the sandbox alone, a whole spawn"),
}
TIMEOUT_S = {"quick": 600, "full": 3 * 3600}


# --- agent-facing CLI calls ------------------------------------------------------------------
def rows(quick: bool) -> list[dict]:
    """The `cli` benchmark: `a2a whoami` and `a2a status`, interleaved with `python -c pass`.

    bench/bench_cli.py (branch fast-entry) measures every agent-facing command, as a session
    and as the user; when it offers `rows(quick)`, it is used instead of this."""
    try:
        import bench_cli  # type: ignore[import-not-found]
    except ImportError:
        bench_cli = None
    if bench_cli is not None and hasattr(bench_cli, "rows"):
        return bench_cli.rows(quick)
    from tests.support import World
    from tests.support.cli import A2A, at_terminal

    runs = 3 if quick else 20
    console = Path(sys.executable).parent / "a2a"
    entry = [str(console)] if console.exists() else list(A2A)
    with World() as w:
        # Bytecode is cached, as on a user's machine: with PYTHONDONTWRITEBYTECODE (set in some
        # CI and agent environments) every call would compile its modules again.
        env = {k: v for k, v in w.env.items() if k != "PYTHONDONTWRITEBYTECODE"}

        def call(argv: list[str]) -> float:
            t0 = time.perf_counter()
            p = at_terminal(argv, cwd=str(w.repo), env=env, capture_output=True)
            dt = time.perf_counter() - t0
            if p.returncode != 0:
                raise SystemExit(f"{' '.join(argv)}: {p.stderr.decode()}")
            return dt

        times: dict[str, list[float]] = {"base": [], "whoami": [], "status": []}
        for r in range(runs + 1):  # the first round compiles and caches: it does not count
            got = {"base": call([sys.executable, "-c", "pass"]),
                   "whoami": call([*entry, "whoami"]), "status": call([*entry, "status"])}
            for k, v in got.items():
                if r:
                    times[k].append(v * 1e3)
    base = [("`python -c pass`, same rounds", times["base"])]
    why = ("the user's own call: the command line runs here, with nobody to hand it to; an"
           " agent's call goes to its session's broker (the broker's rows)")
    return [row(f"`a2a {cmd}` (the user, at a terminal)", "ms", times[cmd], limits=base,
                note=why) for cmd in ("whoami", "status")]


# --- the runner --------------------------------------------------------------------------------
def run_one(name: str, quick: bool, result: Path) -> int:
    """`--one NAME`: run one benchmark here and write its rows (or why it could not run)."""
    module = __import__(BENCHES[name][0])
    try:
        out = {"rows": module.rows(quick)}
    except Skipped as exc:
        out = {"skipped": str(exc)}
    result.write_text(json.dumps(out))
    return 0


def run(names: list[str], quick: bool, logs: Path) -> dict[str, dict]:
    """Each benchmark in a process of its own; what it wrote, or how it failed."""
    results: dict[str, dict] = {}
    for name in names:
        result, log = logs / f"{name}.json", logs / f"{name}.log"
        argv = [sys.executable, __file__, "--one", name, "--result", str(result),
                *(["--quick"] if quick else [])]
        t0 = time.monotonic()
        print(f"{name}: {BENCHES[name][1]} ...", file=sys.stderr, flush=True)
        try:
            with open(log, "w") as out:
                code = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT,
                                      timeout=TIMEOUT_S["quick" if quick else "full"]).returncode
        except subprocess.TimeoutExpired:
            code = "timeout"
        took = time.monotonic() - t0
        if code == 0 and result.exists():
            results[name] = {**json.loads(result.read_text()), "seconds": took}
        else:
            tail = log.read_text(errors="replace").strip().splitlines()[-1:] or ["no output"]
            results[name] = {"failed": f"exit {code}: {tail[0]}", "seconds": took}
        print(f"{name}: {took:.0f} s", file=sys.stderr, flush=True)
    return results


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small counts: a smoke test")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "REPORT.md")
    ap.add_argument("--only", help="comma-separated benchmark names: " + ", ".join(BENCHES))
    ap.add_argument("--one", choices=list(BENCHES), help=argparse.SUPPRESS)
    ap.add_argument("--result", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        return run_one(args.one, args.quick, args.result)
    names = args.only.split(",") if args.only else list(BENCHES)
    unknown = [n for n in names if n not in BENCHES]
    if unknown:
        ap.error(f"unknown benchmark {unknown[0]!r} (choose from {', '.join(BENCHES)})")
    before = benchreport.machine()
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="a2a-bench-") as d:
        results = run(names, args.quick, Path(d))
    after = os.getloadavg()
    command = "bench/run_all.py" + (" --quick" if args.quick else "") + (
        f" --only {args.only}" if args.only else "")
    text = benchreport.render(results, BENCHES, before, after, quick=args.quick,
                              command=command, seconds=time.monotonic() - t0)
    # Sections other commands wrote (bench_delivery.py) stay.
    old = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
    text = benchreport.kept_sections(old, text)
    if not args.quick:   # the scale curves' tables and pictures, redrawn from bench/scale/
        text = benchreport.with_section(text, "scale", scale_report.section())
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0 if not any("failed" in r for r in results.values()) else 1

if __name__ == "__main__":
    sys.exit(main())
