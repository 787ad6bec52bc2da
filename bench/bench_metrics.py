"""Benchmark the metrics views over a generated log of 1,000,000 events (one run).

The log has the shape a2a writes: per task a card, 1-2 attempts with their claims, rounds,
verify chains (six check results each), rejections and feedback, an outcome with scores; per
attempt a worker session whose turns are dispatches and hook signals (they are most of the log);
board questions and answers, releases, interventions, permission waits. Each view is computed
from a cold read (the cache cleared) three times; the median is printed. `--without-indexes`
also times the views once with migration 3's indexes dropped, for comparison.
`python bench/bench_metrics.py [--events 1000000] [--without-indexes] [--keep]`
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from benchlib import row

# isort: split
from a2a_tui import metrics
from a2a_tui.store import Store, chain

DAY_NS = 86_400 * 10**9
# Bumped whenever `generate` changes, so a cached log (bench_scale.py --cache) is not reused.
GENERATION = 2
CHECKS = ("sanity", "boundary", "drift", "provenance", "red", "tests")


class Log:
    """Rows for `events`, stamped by a clock that moves a few seconds per event."""

    def __init__(self, start_ns: int, rng: random.Random):
        self.rows: list[tuple] = []
        self.ts = start_ns
        self.rng = rng

    def add(self, kind: str, actor: str = "gate", task: str | None = None,
            attempt: str | None = None, session: str | None = None, /, **payload) -> None:
        self.ts += self.rng.randint(1, 6) * 10**9
        self.rows.append((self.ts, kind, actor, task, attempt, session,
                          json.dumps(payload, separators=(",", ":"), sort_keys=True)))


def generate(target: int, seed: int = 7) -> list[tuple]:
    """`target` events whose clock ends near now (3.5 s apart on average), so that a `--since`
    window holds the events of that window whatever the log's length."""
    rng = random.Random(seed)
    log = Log(time.time_ns() - target * 3_500_000_000, rng)
    log.add("initialized", "user", root="/work/bench-repo", target_branch="main")
    log.add("session_launching", "user", None, None, "exec1", role="executive", cli="claude",
            model="opus", effort="high", argv=["claude"] * 12, env=["A2A_SESSION"] * 8)
    t, d, q = 0, 0, 0
    while len(log.rows) < target:
        t += 1
        task = f"T-{t}"
        log.add("card_added", "session:exec1", task, None, "exec1", version=1,
                card={"id": task, "title": f"task {t}", "goal": "g" * 200,
                      "task_type": rng.choice(("feature", "bugfix", "refactor", "test")),
                      "complexity": rng.choice("SML"), "checks": [{"name": "tests"}]})
        for n in range(1, rng.choice((2, 1, 1, 1)) + 1):
            att, sid = f"{task}-a{n}", f"w{t}x{n}"
            cli, model = rng.choice((("claude", "sonnet"), ("codex", "gpt-5"), ("gemini", "pro")))
            log.add("claimed", "session:exec1", task, att, "exec1", fence=n, card_version=1)
            log.add("worktree_created", "gate", task, att, path=f"/wt/{att}")
            log.add("session_launching", "user", None, att, sid, role="worker", cli=cli,
                    model=model, effort="high", argv=[cli] * 12, env=["A2A_SESSION"] * 8)
            log.add("writer_bound", "user", task, att, sid, to=f"session:{sid}")
            rounds = rng.choice((1, 1, 2, 3))
            for r in range(1, rounds + 1):
                for _ in range(rng.randint(5, 9)):      # the worker's turns before submitting
                    d += 1
                    log.add("dispatch_queued", "user", None, att, sid, n=d, source="user",
                            text="do the next step " * 8)
                    log.add("dispatch_sending", "orchestrator", None, att, sid, n=d)
                    log.add("dispatch_sent", "orchestrator", None, att, sid, n=d)
                    log.add("signal", f"session:{sid}", None, att, sid, kind="prompt",
                            event="UserPromptSubmit", raw={"prompt": "x" * 80})
                    log.add("dispatch_confirmed", f"session:{sid}", None, att, sid, n=d)
                    for _ in range(rng.randint(1, 3)):
                        log.add("signal", f"session:{sid}", None, att, sid, kind="tool",
                                event="PreToolUse", raw={"tool": "Bash"})
                        log.add("signal", f"session:{sid}", None, att, sid, kind="tool",
                                event="PostToolUse", raw={"tool": "Bash"})
                    if rng.random() < 0.02:
                        log.add("signal", f"session:{sid}", None, att, sid, kind="waiting",
                                event="PermissionRequest")
                    log.add("signal", f"session:{sid}", None, att, sid, kind="stop",
                            event="Stop")
                    log.add("dispatch_done", f"session:{sid}", None, att, sid, n=d)
                log.add("submitted", f"session:{sid}", task, att, sid, n=r, sha="a" * 40)
                log.add("verify_started", "session:exec1", task, att, "exec1", run=r)
                passed = r == rounds
                failing = None if passed else rng.choice(CHECKS)
                for c in CHECKS:
                    log.add("check_result", "gate", task, att, run=r, name=c,
                            passed=c != failing, detail="exit 0", duration_s=0.1)
                if passed:
                    log.add("verified", "gate", task, att, run=r, passed=True)
                else:
                    log.add("rejected", "gate", task, att, run=r, first_failure=failing,
                            consecutive_rejections=r)
                    log.add("gate_feedback", "gate", task, att, run=r, sent=True)
            if rng.random() < 0.05:
                log.add("human_intervention", "user", task, att, sid, kind="typed_in_pane")
            if rng.random() < 0.03:
                log.add("pane_released", "user", None, att, sid, **{"from": "busy"})
            score = {"boundary": rng.randint(0, 3), "taste": rng.randint(0, 3)}
            outcome = "integrated" if n > 1 or rng.random() < 0.8 else "abandoned"
            if outcome == "integrated":
                log.add("integration_intent", "session:exec1", task, att, "exec1", score=score)
            log.add(outcome, "session:exec1", task, att, "exec1", score=score, rounds=rounds)
            log.add("pane_exited", "orchestrator", None, att, sid, why="exited")
            if outcome == "integrated":
                break
        if rng.random() < 0.1:
            q += 1
            log.add("board_item_posted", "session:exec1", None, None, "exec1", id=f"Q-{q}",
                    kind="question", title="which way?", options=[{"key": "a"}, {"key": "b"}])
            log.add("board_item_answered", "user", None, None, "exec1", id=f"Q-{q}", option="a")
    return log.rows[:target]


def timed(store: Store, view: str | None, since: int | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one cold computation, in a connection to `store`'s file of its
    own, opened for it, as `a2a metrics` runs one (a computation repeated on one connection
    reads a small log from SQLite's warm cache and a large one not: the curve would bend at
    the cache's size, not the view's work). The machine may be shared: CPU time is what the
    view itself costs."""
    metrics._CACHE.clear()
    t0, c0 = time.perf_counter(), time.process_time()
    with Store(store.path, create=False) as fresh:
        metrics.compute_json(fresh, view, since_ns=since)
    return time.perf_counter() - t0, time.process_time() - c0


def view_times(store: Store, repeat: int, since_days: int = 7
               ) -> dict[str, list[tuple[float, float]]]:
    """(wall, CPU) seconds of `repeat` cold computations of each view, of all five, and of
    `tasks` over the last `since_days` days."""
    period = time.time_ns() - since_days * DAY_NS
    cases = [(v, None) for v in metrics.VIEWS] + [(None, None), ("tasks", period)]
    return {(view or "all five") + (f" --since {since_days}d" if since else ""):
            [timed(store, view, since) for _ in range(repeat)] for view, since in cases}


def scan(store: Store) -> float:
    """Seconds for SQLite alone to read every event's payload once (no row reaches Python): a
    reference for a view over the whole log, not a floor (a view reads its kinds through the
    indexes, and may read less)."""
    t0 = time.perf_counter()
    store.conn.execute("SELECT COUNT(*), SUM(LENGTH(payload)) FROM events").fetchone()
    return time.perf_counter() - t0


def run_views(store: Store, repeat: int) -> None:
    for name, runs in view_times(store, repeat).items():
        wall = [w for w, _ in runs]
        print(f"  {name:<22} median {statistics.median(wall):6.3f} s wall,"
              f" {statistics.median(c for _, c in runs):6.3f} s CPU"
              f"  (wall: {', '.join(f'{x:.3f}' for x in wall)})")


def build(events: int, where: Path) -> Store:
    """A store at `where` holding a generated log of `events` events, hash-chained as
    `Tx.append` chains them (store/chain.py), written in one statement, its checkpoint at the
    end."""
    store = Store(where)
    prev = chain.GENESIS

    def chained():   # one row at a time: 10,000,000 events never sit in memory twice
        nonlocal prev
        for seq, r in enumerate(generate(events), start=1):
            prev = chain.link(prev, seq, *r)
            yield (seq, *r, prev)

    with store.write() as tx:
        tx.conn.executemany("INSERT INTO events(seq, ts_ns, kind, actor, task, attempt, session,"
                            " payload, hash) VALUES (?,?,?,?,?,?,?,?,?)", chained())
        # Where a writer leaves the checkpoint (chain.keep_up): at the last event.
        tx.execute("INSERT INTO chain_checkpoint(id, seq, hash) VALUES (1, ?, ?) ON CONFLICT(id)"
                   " DO UPDATE SET seq = excluded.seq, hash = excluded.hash", (events, prev))
    store.conn.execute("ANALYZE")
    return store


def rows(quick: bool) -> list[dict]:
    events, repeat = (20_000, 1) if quick else (1_000_000, 3)
    tmp = Path(tempfile.mkdtemp(prefix="a2a-bench-metrics-"))
    try:
        store = build(events, tmp / "a2a.db")
        times = view_times(store, repeat)
        floor = [scan(store) for _ in range(repeat)]
        store.close()
    finally:
        shutil.rmtree(tmp)
    ref = [("reference: SQLite reads every payload once, nothing decoded", floor)]
    return [row(f"metrics view {name}, {events:,} events", "s", [w for w, _ in runs],
                limits=ref if "since" not in name else [], aim=None,
                note=f"CPU {statistics.median(c for _, c in runs):.2f} s")
            for name, runs in times.items()]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--keep", action="store_true", help="keep the generated store")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="a2a-bench-metrics-"))
    t0 = time.perf_counter()
    store = build(args.events, tmp / "a2a.db")
    n = store.last_seq()
    size = (tmp / "a2a.db").stat().st_size / 2**20
    h = metrics.history(store)
    print(f"{n:,} events ({len(h.attempts):,} attempts, {len(h.sessions):,} sessions,"
          f" {len(h.attention):,} attention items), {size:.0f} MiB, made in"
          f" {time.perf_counter() - t0:.1f} s; store {tmp / 'a2a.db'}")
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    run_views(store, 3)
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    store.close()
    if not args.keep:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
