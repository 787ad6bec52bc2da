"""How a2a's costs grow: four curves (issue 30), each point measured in one run, beside the
machine's load (`uptime`) at that point.

    .venv/bin/python bench/bench_scale.py panes     [--points 5,20,50,100]
    .venv/bin/python bench/bench_scale.py events    [--points 100000,1000000,10000000]
                                                    [--cache DIR]  # keep the generated logs
    .venv/bin/python bench/bench_scale.py repo      [--points 1000,10000,100000]
    .venv/bin/python bench/bench_scale.py diff      [--points 1000,10000,100000]
    .venv/bin/python bench/bench_scale.py parallel  [--points 1,2,4]
    .venv/bin/python bench/bench_scale.py all --quick      # every curve at tiny points: a smoke

Each writes `bench/scale/<curve>.json` (after every point, so a long run stopped half-way keeps
what it measured); `bench/scale_report.py` turns them into the tables and pictures of
bench/REPORT.md (bench/run_all.py runs it). Long runs, not tests: minutes to an hour each.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import ROOT, cpu_ticks, pct

# isort: split
import bench_gate
import bench_metrics
import bench_panes
import bench_store_chain
import bench_tui

from a2a_tui.gate import GateContext, add_card, claim, integrate, ready_card, submit, verify
from a2a_tui.gate.model import parse_scores
from a2a_tui.gate.reviews.diff import attempt_diff
from a2a_tui.gate.views import attempt_place
from a2a_tui.repo import Repo
from a2a_tui.store import Store, chain
from tests.support import World, commit_in, store, write_card

OUT = ROOT / "bench" / "scale"
DEFAULTS = {"panes": [5, 20, 50, 100], "events": [100_000, 1_000_000, 10_000_000],
            "repo": [1_000, 10_000, 100_000], "diff": [1_000, 10_000, 100_000],
            "parallel": [1, 2, 4]}
QUICK = {"panes": [2, 4], "events": [2_000, 6_000], "repo": [200, 600], "diff": [200, 600],
         "parallel": [1, 2]}


def stat(values: list[float], unit: str) -> dict:
    s = sorted(values)
    return {"unit": unit, "n": len(s), "median": s[len(s) // 2] if len(s) % 2 else
            (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2, "p99": pct(s, 0.99)}


def ms(xs: list[float], k: float = 1e3) -> dict:
    return stat([x * k for x in xs], "ms")


def temp_folder() -> str:
    """Where the worlds' files go (TMPDIR) and its file system: a disk that discards freed
    blocks as files are deleted (ext4 `discard`) can make creating files there 30x slower for
    a while after a mass delete, the limits' git as much as a2a (bench/REPORT.md)."""
    where = os.path.realpath(tempfile.gettempdir())
    best, fstype = "", "?"
    try:
        with open("/proc/mounts", encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                mount = parts[1]
                if (where == mount or where.startswith(mount.rstrip("/") + "/")) \
                        and len(mount) > len(best):
                    best, fstype = mount, parts[2]
    except OSError:
        pass
    return f"{where} ({fstype})"


def point(x: int, measures: dict[str, dict], t0: float) -> dict:
    return {"x": x, "load": list(os.getloadavg()), "seconds": round(time.monotonic() - t0, 1),
            "measures": measures}


# --- panes: demo agents in real tmux panes, one orchestrator ---------------------------------
def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def burst(w: World, sids: list[str], pid: int) -> tuple[float, float]:
    """One signal landed in each pane's spool folder at once: ms until the last is committed,
    and the orchestrator's CPU ms per signal."""
    top = w.repo / ".a2a" / "spool"
    c0 = cpu_ticks(pid)
    t0 = time.perf_counter()
    names = []
    for sid in sids:
        name = f"{time.time_ns()}-{sid}-burst.json"
        bench_panes.land(top / sid, name, bench_panes.envelope(sid, "PreToolUse", time.time_ns()))
        names.append(f"{sid}/{name}")
    with store(w.repo) as s:
        marks = ",".join("?" * len(names))
        bench_panes.wait(lambda: s.one(f"SELECT COUNT(*) FROM spool_files WHERE name IN"
                                       f" ({marks})", names)[0] == len(names))
    wall = time.perf_counter() - t0
    cpu = (cpu_ticks(pid) - c0) / os.sysconf("SC_CLK_TCK")
    for sid in sids:   # back to idle, for the next point
        bench_panes.land(top / sid, f"{time.time_ns()}-{sid}-stop.json",
                         bench_panes.envelope(sid, "Stop", time.time_ns()))
    return wall * 1e3, cpu * 1e3 / len(sids)


def panes_curve(points: list[int], quick: bool, save) -> None:
    """Demo agents spawned up to each point in one world, measured at each."""
    n_sig = 10 if quick else 40
    result = []
    t0 = time.monotonic()
    with World() as w:
        served = w.serve()
        pid = served.proc.pid
        spawned: list[str] = []
        for n in points:
            while len(spawned) < n:
                sid = f"p{len(spawned)}"
                bench_panes.spawn(w, sid)
                spawned.append(sid)
            time.sleep(1.0)
            sig = bench_panes.driven_signals(w, n_sig, sid=f"drv{n}")
            paste = bench_panes.driven_deliveries(w, 4 if quick else 60, sid=f"dd{n}")[0]
            idle = bench_panes.cpu_percent(pid, 2.0 if quick else 10.0)
            wall, per = burst(w, spawned, pid)
            frame = bench_tui.first_frames(n, 10_000, 1 if quick else 3)[0]
            keys = bench_tui.keys_idle(n, 10_000, 4 if quick else 16)
            result.append(point(n, {
                "signal → state committed": ms(sig, 1e-6),
                "Stop → next paste begins": ms(paste, 1e-6),
                "orchestrator CPU, idle": stat([idle], "% core"),
                "burst: one signal per pane, all committed": stat([wall], "ms"),
                "burst: orchestrator CPU per signal": stat([per], "ms"),
                "orchestrator memory (RSS)": stat([rss_mb(pid)], "MB"),
                "workbench first frame (N sessions, 10,000 events)": ms(frame),
                "workbench key → screen (N sessions, idle)": ms(keys),
            }, t0))
            save(result)


# --- events: one generated log per point -----------------------------------------------------
CACHE: Path | None = None   # --cache: where generated logs are kept between runs


def generated_log(n: int, path: Path) -> None:
    """A store of `n` generated events at `path`: a copy of the one kept in CACHE (built there
    once: 10,000,000 events take most of an hour), or built in place without a cache."""
    if CACHE is None:
        bench_metrics.build(n, path).close()   # the first open sets the checkpoint
        return
    kept = CACHE / f"events-{n}-g{bench_metrics.GENERATION}.db"
    if not kept.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        part = kept.with_suffix(".part")
        for p in CACHE.glob(part.name + "*"):
            p.unlink()
        bench_metrics.build(n, part).close()
        part.rename(kept)
    shutil.copyfile(kept, path)


def events_curve(points: list[int], quick: bool, save) -> None:
    result = []
    t0 = time.monotonic()
    for n in points:
        tmp = Path(tempfile.mkdtemp(prefix="a2a-bench-scale-"))
        try:
            path = tmp / "a2a.db"
            generated_log(n, path)
            m: dict[str, dict] = {}
            m["store open (checkpoint at the end)"] = ms([timed_open(path) for _ in range(5)])
            m[f"store open, {chain.CHECKPOINT_EVERY - 1} events past the checkpoint"] = ms(
                [open_behind(path) for _ in range(5)])
            m["bare SQLite open (limit)"] = ms(
                [timed(lambda p=path: bench_store_chain._bare_open(p)) for _ in range(5)])
            with Store(path) as s:
                # --since 1d: a period shorter than the smallest log (100,000 events span
                # four days), so that every point reads the same period.
                for name, runs in bench_metrics.view_times(s, 1 if quick else 3, 1).items():
                    m[f"metrics view {name}"] = ms([wall for wall, _ in runs])
                m["chain full check"] = ms([timed(lambda: chain.check(s.conn))])
                m["append one event"] = ms([timed(lambda: append(s)) for _ in range(50)])
            big, empty = bench_tui.first_frames(8, n, 1 if quick else 3)
            m["workbench first frame"] = ms(big)
            m["workbench first frame, a new store (limit)"] = ms(empty)
            result.append(point(n, m, t0))
            save(result)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def timed_open(path: Path) -> float:
    return timed(lambda: Store(path).close())


def open_behind(path: Path) -> float:
    """An open with CHECKPOINT_EVERY - 1 events past the checkpoint (the most it checks without
    moving it)."""
    with Store(path) as s:
        back = s.last_seq() - chain.CHECKPOINT_EVERY + 1
        h = s.one("SELECT hash FROM events WHERE seq = ?", (back,))[0]
        with s.write() as tx:
            tx.execute("UPDATE chain_checkpoint SET seq = ?, hash = ?", (back, h))
    return timed_open(path)


def append(s: Store) -> None:
    with s.write() as tx:
        tx.append("bench", actor="gate")


# --- repository size -------------------------------------------------------------------------
def repo_curve(points: list[int], quick: bool, save) -> None:
    cards = 2 if quick else 3
    result = []
    t0 = time.monotonic()
    for files in points:
        w = bench_gate.big_world(files)
        try:
            t = bench_gate.gate_overhead(w, cards)
            integ, bare_ff = integrate_times(w, cards)
        finally:
            w.close()
        result.append(point(files, {
            "claim": ms(t["claim"]), "bare git worktree add -b (limit)": ms(t["bare add -b"]),
            "verify overhead": ms(t["verify"]),
            "bare worktree add --detach + remove + prune (limit)": ms(t["bare checkout"]),
            "integrate": ms(integ), "bare git update-ref (limit)": ms(bare_ff),
        }, t0))
        save(result)


def integrate_times(w: World, cards: int) -> tuple[list[float], list[float]]:
    r = Repo(w.repo)
    s = r.store()
    g = GateContext(r, s)
    out, bare = [], []
    try:
        for i in range(cards):
            c = new_attempt(w, g, f"I-{i}", "true")
            v = verify(g, c)
            assert v.passed
            out.append(timed(lambda c=c: integrate(g, c, SCORE)))
            head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=w.repo, text=True,
                                  capture_output=True, check=True).stdout.strip()
            bare.append(timed(lambda h=head: subprocess.run(
                ["git", "update-ref", "refs/heads/bench-ff", h], cwd=w.repo, check=True)))
    finally:
        s.close()
    return out, bare


# --- the diff view's open, per repository size --------------------------------------------------
def diff_curve(points: list[int], quick: bool, save) -> None:
    """What the workbench's diff screen waits on (gate/reviews/diff.py: the attempt's diff read
    and parsed), beside a bare `git diff` of the same two commits, for an attempt that changed
    one file of a repository of N files."""
    result = []
    t0 = time.monotonic()
    for files in points:
        w = bench_gate.big_world(files)
        try:
            opened, bare = diff_times(w, 5 if quick else 9)
        finally:
            w.close()
        result.append(point(files, {"diff view open (the attempt's diff read and parsed)":
                                    ms(opened), "bare git diff start..candidate (limit)":
                                    ms(bare)}, t0))
        save(result)


def diff_times(w: World, rounds: int) -> tuple[list[float], list[float]]:
    r = Repo(w.repo)
    with r.store() as s:
        a = new_attempt(w, GateContext(r, s), "D-1", "true")
        place = attempt_place(s, a)
        argv = ["git", "diff", "--no-color", place.start_commit, place.submitted_sha]
        opened = [timed(lambda: attempt_diff(r, s, a)) for _ in range(rounds)]
        bare = [timed(lambda: subprocess.run(argv, cwd=w.repo, check=True, capture_output=True))
                for _ in range(rounds)]
    return opened, bare


SCORE = parse_scores(["boundary=3:bench", "taste=3:bench"])


def new_attempt(w: World, g: GateContext, card_id: str, check: str) -> str:
    add_card(g, write_card(w.repo, card_id, check=check))
    ready_card(g, card_id)
    c = claim(g, card_id)
    sha = commit_in(Path(c.worktree), {f"src/{card_id}.py": "x = 1\n"}, env=w.env)
    submit(g, c.attempt, sha, c.card_version, c.fence)
    return c.attempt


# --- parallel attempts verifying at once -----------------------------------------------------
CHECK = f"{sys.executable} -c 'sum(range(4_000_000))'"


def _verify_in_child(repo: str, attempt: str, q) -> None:
    r = Repo(Path(repo))
    with r.store() as s:
        t = time.perf_counter()
        v = verify(GateContext(r, s), attempt)
        q.put((attempt, time.perf_counter() - t, v.passed))


def parallel_curve(points: list[int], quick: bool, save) -> None:
    rounds = 1 if quick else 3
    files = 500 if quick else 5_000
    result = []
    t0 = time.monotonic()
    w = bench_gate.big_world(files)
    try:
        r = Repo(w.repo)
        with r.store() as s:
            g = GateContext(r, s)
            todo = {k: [[new_attempt(w, g, f"P-{k}-{j}-{i}", CHECK) for i in range(k)]
                        for j in range(rounds)] for k in points}
        ctx = multiprocessing.get_context("fork")
        for k in points:
            each = []
            for batch in todo[k]:
                q = ctx.Queue()
                procs = [ctx.Process(target=_verify_in_child, args=(str(w.repo), a, q))
                         for a in batch]
                for p in procs:
                    p.start()
                got = [q.get(timeout=600) for _ in procs]
                for p in procs:
                    p.join()
                assert all(ok for _a, _t, ok in got), got
                each += [dt for _a, dt, _ok in got]
            result.append(point(k, {"each verify (wall)": ms(each)}, t0))
            save(result)
    finally:
        w.close()


CURVES = {"panes": panes_curve, "events": events_curve, "repo": repo_curve,
          "diff": diff_curve, "parallel": parallel_curve}


def measure(curve: str, points: list[int], quick: bool, out: Path, add: bool = False) -> None:
    """Measure `curve` at `points` into out/<curve>.json; `add`: keep its other points."""
    out.mkdir(parents=True, exist_ok=True)
    commit = subprocess.run(["git", "log", "-1", "--format=%h"], cwd=ROOT, text=True,
                            capture_output=True).stdout.strip()
    path = out / f"{curve}.json"
    kept = [p for p in json.loads(path.read_text())["points"] if p["x"] not in points] \
        if add and path.exists() else []

    def save(result: list[dict]) -> None:
        path.write_text(json.dumps(
            {"curve": curve, "commit": commit, "quick": quick, "cores": os.cpu_count(),
             "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "tmp": temp_folder(),
             "points": sorted(kept + result, key=lambda p: p["x"])}, indent=1))
        print(f"{curve}: {result[-1]['x']:,} done, {result[-1]['seconds']} s, load"
              f" {result[-1]['load'][0]:.2f}", file=sys.stderr, flush=True)

    CURVES[curve](points, quick, save)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("curve", choices=[*CURVES, "all"])
    ap.add_argument("--points", help="comma-separated sizes (default: the issue's)")
    ap.add_argument("--quick", action="store_true", help="tiny points: a smoke test")
    ap.add_argument("--out", type=Path, default=OUT, help="where the JSON goes")
    ap.add_argument("--add", action="store_true",
                    help="keep the curve's points measured before at other sizes")
    ap.add_argument("--cache", type=Path, help="keep generated event logs here, and reuse them")
    args = ap.parse_args()
    global CACHE
    CACHE = args.cache
    names = list(CURVES) if args.curve == "all" else [args.curve]
    for name in names:
        pts = ([int(p) for p in args.points.split(",")] if args.points else
               (QUICK if args.quick else DEFAULTS)[name])
        measure(name, pts, args.quick, args.out, args.add)
    return 0


if __name__ == "__main__":
    sys.exit(main())
