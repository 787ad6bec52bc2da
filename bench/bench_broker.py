"""The broker's cost (issue 27): an agent's `a2a` through its session's socket beside today's
direct call and `python -c pass`; a hook's signal through the session's own spool folder.

    .venv/bin/python bench/bench_broker.py [--runs 20]      # prints the rows
    .venv/bin/python bench/run_all.py --only broker         # the same rows into the report

- Calls: `whoami`, `status` and `board report` (a write) from a process registered as a
  session's pane (the "pane" runs each command as its child and times it, as bench_cli.py's
  runner does), three ways, interleaved in rounds after one round that is not counted: through
  the broker as the session's shim runs it (`python -I -S client.py`, its orchestrator's
  broker answering), directly as an agent's `a2a` ran until now (the console script with
  A2A_BROKER unset: identity by the process tree), and `python -c pass` (the limit). Also the
  client alone, against a socket nobody listens on (`broker_unavailable`): what the client
  costs before the broker does anything. (`say` is the user's own and refused through the
  broker, so the write is `board report`.)
- Signals: the real hook script writing into the session's spool folder
  (`.a2a/spool/<session>/`), from just before the script starts to the signal event committed
  with the new state; beside the hook script alone (its own process and write), and a file
  renamed into the session's folder to its state (bench_panes.py has that row too) beside a
  bare inotify wake. The old path, a file at the spool's top, is quarantined now: nothing of
  it is left to time, so its last figure (bench/REPORT.md before the broker: 0.68 ms renamed →
  state) is the comparison.

Bytecode is cached, as on a user's machine.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchlib import pct, row  # first: it makes `tests` importable

# isort: split
from bench_cli import Runner  # type: ignore[import-not-found]
from bench_panes import bare_wake, envelope, land  # type: ignore[import-not-found]

from a2a_tui.resources import BROKER_ENV, broker_client, hooks_dir
from tests.support import World, register_session, serving, store, wait_until

CLIENT = [sys.executable, "-I", "-S", str(broker_client())]
HOOK = str(hooks_dir() / "a2a-hook")
COMMANDS = {"whoami": ["whoami"], "status": ["status"],
            "board report": ["board", "report", "--title", "Flaky", "--body", "it flakes"]}


def calls(w: World, runs: int) -> dict[str, list[float]]:
    """ms per call: {"<command> broker" | "<command> direct" | "baseline" | "client alone"}."""
    console = Path(sys.executable).parent / "a2a"
    direct_head = [str(console)] if console.exists() else [sys.executable, "-m", "a2a_tui"]
    env = {k: v for k, v in w.env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    brokered = Runner(w.repo, {**env, BROKER_ENV: str(w.repo / ".a2a/broker/b1/a2a.sock")})
    plain = Runner(w.repo, env)
    alone = Runner(w.repo, {**env, BROKER_ENV: str(w.repo / ".a2a/broker/gone/a2a.sock")})
    try:
        register_session(w.repo, "b1", "worker", brokered.proc.pid)
        register_session(w.repo, "d1", "worker", plain.proc.pid)
        serving(w.repo, "b1")
        gone = w.repo / ".a2a/broker/gone"
        gone.mkdir(mode=0o700)
        _refusing_socket(gone / "a2a.sock")
        times: dict[str, list[float]] = {}
        for r in range(runs + 1):
            got = {"baseline": plain.run([sys.executable, "-c", "pass"]),
                   "client alone": alone.run([*CLIENT, "whoami"])}
            for name, argv in COMMANDS.items():
                got[f"{name} broker"] = brokered.run([*CLIENT, *argv])
                got[f"{name} console"] = brokered.run([*direct_head, *argv])
                got[f"{name} direct"] = plain.run([*direct_head, *argv])
            for key, (dt, code, out) in got.items():
                want = 1 if key == "client alone" else 0
                if code != want or (key == "whoami broker" and "session b1" not in out):
                    raise SystemExit(f"{key}: exit {code}: {out}")
                if r:   # the first round compiled and cached the modules: it does not count
                    times.setdefault(key, []).append(dt * 1e3)
        return times
    finally:
        for runner in (brokered, plain, alone):
            runner.close()


def _refusing_socket(path: Path) -> None:
    """A socket file nobody listens on (a broker that has gone): refused at once."""
    import socket

    s = socket.socket(socket.AF_UNIX)
    here = os.getcwd()
    os.chdir(path.parent)   # a World's path may be longer than sun_path takes
    try:
        s.bind(path.name)
    finally:
        os.chdir(here)
    s.close()


def hooked_signals(w: World, n: int) -> tuple[list[float], list[float], list[float]]:
    """ms from the hook script's start to the state committed; ms of the hook script alone
    (into a folder nobody watches); ms from a file renamed into the session's folder to its
    state committed."""
    register_session(w.repo, "h1", state="idle")
    folder = w.repo / ".a2a/spool/h1"
    folder.mkdir(exist_ok=True)
    scratch = w.base / "hook-scratch"
    scratch.mkdir(exist_ok=True)
    to_state, hook_alone, renamed = [], [], []
    with store(w.repo) as s:
        for i in range(n):
            event = "PreToolUse" if i % 2 == 0 else "Stop"
            seq = s.last_seq()
            t0 = time.time_ns()
            subprocess.run([HOOK, "--spool", str(folder), "--session", "h1", "claude"],
                           input=json.dumps({"hook_event_name": event}).encode(), check=True)
            ev = wait_until(lambda seq=seq: s.events(after=seq, kinds=["signal"]),
                            timeout=30, interval=0.001, what="the hook's signal")[0]
            to_state.append(_committed_ns(s, ev.seq) - t0)
            t1 = time.perf_counter()
            subprocess.run([HOOK, "--spool", str(scratch), "--session", "h1", "claude"],
                           input=b'{"hook_event_name":"Stop"}', check=True)
            hook_alone.append((time.perf_counter() - t1) * 1e9)
            seq = s.last_seq()
            name = f"{time.time_ns()}-h1-r{i}.json"
            t2 = land(folder, name, envelope("h1", event, time.time_ns()))
            ev = wait_until(lambda seq=seq: s.events(after=seq, kinds=["signal"]),
                            timeout=30, interval=0.001, what="the renamed file's signal")[0]
            renamed.append(_committed_ns(s, ev.seq) - t2)
            time.sleep(0.01)
    shutil.rmtree(scratch, ignore_errors=True)
    k = 1e-6
    return [x * k for x in to_state], [x * k for x in hook_alone], [x * k for x in renamed]


def _committed_ns(s, seq: int) -> int:
    """The signal event's stamp, taken in the transaction that commits the new state."""
    return s.one("SELECT ts_ns FROM events WHERE seq = ?", (seq,))[0]


# What a brokered call costs beyond the client's start and the broker's hand-over to its warm
# spare child (broker/serve.py): the command's own work, which no broker removes.
WHY = {"status": "beyond `whoami`: the command's own work, a git process (the target's head)"
                 " and the gate's config read",
       "board report": "beyond `whoami`: the command's own work, the report's durable commit"}


def rows(quick: bool) -> list[dict]:
    """The figures above for bench/run_all.py, each beside its limit from this run."""
    runs, n = (3, 6) if quick else (20, 40)
    wake = [x * 1e-6 for x in bare_wake(n)]
    with World() as w:
        w.serve()
        t = calls(w, runs)
        to_state, hook_alone, renamed = hooked_signals(w, n)
    base = [("`python -c pass`, same rounds", t["baseline"])]
    # The aim (issue 30): an agent's call within 1.5x of starting Python; beside it the direct
    # call it replaced (measured alongside).
    out = [row(f"agent's `a2a {name}` through the broker", "ms", t[f"{name} broker"],
               limits=[*base, ("the same, called directly as until now (process tree)",
                               t[f"{name} direct"])], note=WHY.get(name, ""))
           for name in COMMANDS]
    out += [row(f"agent's `a2a {name}`: the console script, handing over (broker/entry.py)",
                "ms", t[f"{name} console"], limits=base,
                note="what an agent's `a2a` costs when the console script, not the session's"
                     " shim, is first on its PATH")
            for name in COMMANDS]
    out += [row(f"agent's `a2a {name}` called directly (process tree, as until now)", "ms",
                t[f"{name} direct"], limits=base, aim=None) for name in COMMANDS]
    out += [
        row("the broker's client alone (nobody listening: one line, exit 1)", "ms",
            t["client alone"], limits=base),
        row("hook script → state committed, through the session's spool folder", "ms",
            to_state, limits=[("the hook script alone (its process and its write)",
                               hook_alone)],
            note="from just before the hook process starts"),
        row("signal file renamed into the session's folder → state committed", "ms", renamed,
            limits=[("bare inotify watcher (DirWatch): rename → wake", wake)],
            note="before the broker, a file renamed into the spool's top: 0.68 ms"
                 " (bench/REPORT.md at 72e8b52)"),
    ]
    return out


def against(tree: Path, n: int) -> tuple[list[float], list[float]]:
    """ms from a signal file renamed into a spool to its state committed: here (into the
    session's folder) and in another a2a checkout `tree` (its `a2a serve` run from it: into its
    spool's top when it has no broker, as before), one sample of each in turn, so that the
    machine's load falls on both alike."""
    old_style = not (tree / "a2a_tui" / "broker").is_dir()
    with World() as ours, World() as theirs:
        ours.serve()
        theirs.serve(env={"PYTHONPATH": str(tree)})
        places = []
        for w, top in ((ours, False), (theirs, old_style)):
            register_session(w.repo, "drv", state="idle")
            folder = w.repo / ".a2a/spool" / ("" if top else "drv")
            folder.mkdir(exist_ok=True)
            places.append((w, folder, "" if top else "drv/"))
        out: tuple[list[float], list[float]] = ([], [])
        for i in range(n):
            for k, (w, folder, prefix) in enumerate(places):
                name = f"{time.time_ns()}-drv-{i}.json"
                with store(w.repo) as s:
                    t0 = land(folder, name, envelope("drv", "PreToolUse" if i % 2 else "Stop",
                                                     time.time_ns()))
                    got = wait_until(lambda s=s, key=prefix + name: s.one(
                        "SELECT seq FROM spool_files WHERE name = ?", (key,)), timeout=30,
                        interval=0.001, what="the signal")
                    out[k].append((_committed_ns(s, got[0]) - t0) * 1e-6)
                time.sleep(0.01)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--against", type=Path, metavar="TREE",
                    help="another a2a checkout (e.g. `git worktree add /tmp/main main`): its"
                         " signal path timed in turn with this one's")
    args = ap.parse_args()
    if args.against:
        here, there = against(args.against.resolve(), 100)
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        for label, v in (("here: session folder", here), (f"{args.against}", there)):
            print(f"  renamed → state, {label:<40} median {statistics.median(v):6.3f} ms"
                  f"   p90 {pct(v, .9):6.3f} ms")
        return
    with World() as w:
        w.serve()
        t = calls(w, args.runs)
        to_state, hook_alone, renamed = hooked_signals(w, 40)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for key, v in [*t.items(), ("hook → state", to_state), ("hook alone", hook_alone),
                   ("renamed → state", renamed)]:
        print(f"  {key:<28} median {statistics.median(v):7.2f} ms   p90 {pct(v, .9):7.2f} ms")


if __name__ == "__main__":
    main()
