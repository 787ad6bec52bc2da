"""What confinement costs a launch (issue 27): the same program started inside a session's
bubblewrap sandbox and bare, and a whole `a2a spawn` of a demo session confined and with
confinement turned off (`[confinement] enabled = false`), interleaved in one run. And what it
costs a check (issue 35): one run of a check command as verify makes it (the reaper, the
check's sandbox and its limits' group) beside the same run unconfined and unlimited.

    .venv/bin/python bench/bench_confine.py [--runs N]

The aims: confinement adds at most 100 ms to a launch, and at most 50 ms to a check's
run. The sandbox's own cost is the first row
(the policy is a real session's: built for a demo worker in a World's repository); the second
is what a user waits for, `a2a spawn` until it returns, with everything else a spawn does.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchlib import Skipped, row

from a2a_tui.confine import Request, confine, limits, probe
from a2a_tui.confine.checks import sandbox
from a2a_tui.gate.verification.isolated import run
from a2a_tui.repo import Repo
from tests.support import A2A, World, at_terminal, write_user_config


def sandbox_argv(w: World) -> list[str]:
    repo = w.repo
    assert repo is not None
    r = Repo(repo)
    folders = {"run_dir": r.session_run_dir("w1"), "out_dir": r.session_out_dir("w1"),
               "spool_dir": r.session_spool_dir("w1"), "broker_dir": r.session_broker_dir("w1")}
    for d in folders.values():
        d.mkdir(parents=True, exist_ok=True)
    req = Request(repo_root=repo, a2a_dir=r.a2a_dir, **folders, cwd=repo,
                  write_cwd=False, binary=sys.executable,
                  search_path=os.environ.get("PATH", "/usr/bin:/bin"), home=w.home)
    return list(confine(req).prefix)


def program(argv: list[str], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, stdin=subprocess.DEVNULL)
        out.append(time.perf_counter() - t0)
    return out


def spawns(w: World, n: int) -> tuple[list[float], list[float]]:
    """`a2a spawn` of a demo executive, confined and not, alternating; seconds each."""
    confined, bare = [], []
    cfg = Path(w.setenv["XDG_CONFIG_HOME"]) / "a2a" / "config.toml"
    for i in range(2 * n):
        on = i % 2 == 0
        if on:
            cfg.unlink(missing_ok=True)
        else:
            write_user_config(w, "[confinement]\nenabled = false\n")
        t0 = time.perf_counter()
        r = at_terminal([*A2A, "spawn", "executive", "--cli", "demo", "--tmux-socket", w.sock,
                         "--json"], cwd=str(w.repo), env=w.env, capture_output=True,
                        text=True, timeout=120)
        dt = time.perf_counter() - t0
        assert r.returncode == 0, r.stdout + r.stderr
        (confined if on else bare).append(dt)
    return confined, bare


def check_runs(w: World, n: int) -> tuple[list[float], list[float]]:
    """One check's run (`true`) as verify makes it, confined and limited, and bare; alternating,
    seconds each."""
    repo = w.repo
    assert repo is not None
    room = sandbox(repo, repo / ".a2a", network=False, check_limits=limits.default_check())
    logs = w.home / "bench-logs"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    confined, bare = [], []
    for i in range(2 * n):
        box = room if i % 2 == 0 else None
        t0 = time.perf_counter()
        r = run("true", repo, timeout_s=60, log=logs / f"r{i}.log", env=env, sandbox=box)
        dt = time.perf_counter() - t0
        assert r.passed, r.log.read_text()
        (confined if box else bare).append(dt)
    return confined, bare


def rows(quick: bool) -> list[dict]:
    found = probe()
    if not found.available:
        raise Skipped(f"this machine cannot confine: {found.reason}")
    n, spawn_n = (5, 2) if quick else (40, 8)
    with World() as w:
        w.enter()
        box = sandbox_argv(w)
        inner = [sys.executable, "-S", "-c", "pass"]
        program(inner, 2)   # warm the page cache for both
        wrapped, plain = [], []
        for _ in range(n):
            wrapped += program([*box, *inner], 1)
            plain += program(inner, 1)
        on, off = spawns(w, spawn_n)
        c_on, c_off = check_runs(w, 3 if quick else 30)
    ms = lambda xs: [x * 1e3 for x in xs]  # noqa: E731
    added = statistics.median(ms(wrapped)) - statistics.median(ms(plain))
    spawn_added = statistics.median(on) - statistics.median(off)
    check_added = statistics.median(ms(c_on)) - statistics.median(ms(c_off))
    return [
        row("a program started in a session's sandbox (bwrap, the session's binds)", "ms",
            ms(wrapped), limits=[("the same program started bare", ms(plain))], aim=None,
            note=f"confinement adds {added:.1f} ms (aim: at most 100 ms)"),
        row("`a2a spawn` of a demo session, confined", "s", on,
            limits=[("the same, `[confinement] enabled = false`", off)], aim=None,
            note=f"confinement adds {spawn_added * 1e3:.0f} ms to the spawn"),
        row("a check's run (`true`), confined and in its limits' group", "ms", ms(c_on),
            limits=[("the same run unconfined and unlimited", ms(c_off))], aim=None,
            note=f"the check's room adds {check_added:.1f} ms (aim: at most 50 ms)"),
    ]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    for r in rows(args.quick):
        limit = r["limits"][0]
        print(f"{r['measure']}: median {r['median']:.1f} {r['unit']} (p99 {r['p99']:.1f});"
              f" {limit['name']}: {limit['median']:.1f} {r['unit']}. {r['note']}")


if __name__ == "__main__":
    main()
