"""Benchmark the pane orchestrator against real tmux and the demo agent (one run, one machine).

Prints: hook-script cost per call (and a Python hook for comparison); signal-to-state latency
p50/p99 (hook start to state committed in the store); Stop-to-next-delivery latency p50/p99;
idle CPU of `a2a serve` with 20 panes; and the same Stop-to-idle latency for a baseline that
polls `capture-pane` every 500 ms (its phase random against the turns), as a ratio.
capture-pane appears only here, in the baseline. `rows(quick)` gives the same figures to
bench/run_all.py, each beside its physical limit measured in the same run: a spool file renamed
to state committed beside a bare inotify watcher's rename-to-wake, Stop to Enter written beside
that wake plus a bare `tmux load-buffer` + `paste-buffer` round trip and the profile's pause.

    .venv/bin/python bench/bench_panes.py [--turns 30] [--panes 20]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from itertools import pairwise
from pathlib import Path

from benchlib import ROOT, cpu_percent, pct, row

# isort: split
from a2a_tui.dirwatch import DirWatch
from a2a_tui.profiles import get as profile
from tests.support import Served, World, enqueue, register_session, store, wait_until

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


def hook_cost(n: int) -> tuple[list[float], list[float], list[float]]:
    """ns per call of the hook script, of a bare Python hook doing only `json.load`, and of a
    bare `sh -c :` (a process that does nothing: the floor for any hook a CLI runs)."""
    spool = Path(tempfile.mkdtemp(prefix="a2a-bench-spool-"))
    payload = json.dumps({"hook_event_name": "Stop", "session_id": "x" * 36, "cwd": "/tmp",
                          "transcript_path": "/tmp/t.jsonl", "stop_hook_active": False,
                          "last_assistant_message": "done " * 40}).encode()
    hook = str(ROOT / "hooks" / "a2a-hook")
    sh, py, bare = [], [], []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        subprocess.run(["sh", "-c", ":"], input=payload, check=True)
        bare.append(time.perf_counter_ns() - t0)
        t0 = time.perf_counter_ns()
        subprocess.run(["sh", hook, "--spool", str(spool), "--session", "w1", "claude"],
                       input=payload, check=True)
        sh.append(time.perf_counter_ns() - t0)
        t0 = time.perf_counter_ns()
        subprocess.run([PY, "-c", "import sys, json, time, os; json.load(sys.stdin)"],
                       input=payload, check=True)
        py.append(time.perf_counter_ns() - t0)
    files = list(spool.glob("*.json"))
    shutil.rmtree(spool)
    assert len(files) == n, "the hook lost files"
    return sh, py, bare


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


def polling_baseline(w: World, sid: str, pane: str, n: int, period: float = 0.5) -> list[int]:
    """A poller that reads the screen every `period` s and calls the pane idle when the reply
    to the latest prompt is on it. Latency: the agent's Stop hook to the poller's verdict.
    Each prompt waits a random part of the period first, so a turn's end falls at a uniformly
    random phase of the poll (the demo agent's turns take a near-constant time: without it the
    end would land at the same phase every time, for or against the poller)."""
    found: dict[int, int] = {}
    stop = threading.Event()
    want: list[str] = []
    rng = random.Random(7)

    def poll() -> None:
        while not stop.is_set():
            screen = w.tmux("capture-pane", "-p", "-t", pane)
            now = time.time_ns()
            for i, marker in enumerate(want):
                if i not in found and marker in screen:
                    found[i] = now
            stop.wait(period)

    t = threading.Thread(target=poll, daemon=True)
    t.start()
    lat = []
    try:
        for i in range(n):
            time.sleep(rng.uniform(0, period))
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


# --- driven: signal files written here, so each latency starts where its limit starts --------
def envelope(sid: str, event: str, ts_ns: int) -> bytes:
    """A spool file as hooks/a2a-hook writes it."""
    return json.dumps({"v": 1, "ts_ns": ts_ns, "session": sid, "pane": "",
                       "source": "claude", "payload": {"hook_event_name": event}}).encode()


def land(spool: Path, name: str, data: bytes) -> int:
    """Write a file as the hook does (hidden temp file, then rename); the instant (time_ns) just
    before the rename."""
    tmp = spool / f".{name}.tmp"
    tmp.write_bytes(data)
    t = time.time_ns()
    os.replace(tmp, spool / name)
    return t


def bare_wake(n: int) -> list[int]:
    """A bare inotify watcher (a2a's own DirWatch): ns from a rename into its folder to the
    watcher thread waking."""
    folder = Path(tempfile.mkdtemp(prefix="a2a-bench-wake-"))
    dw = DirWatch(folder)
    woke: list[int] = []
    ready, go = threading.Event(), threading.Event()

    def watch() -> None:
        for _ in range(n):
            ready.set()
            go.wait()
            go.clear()
            assert dw.wait(10), "the watcher never woke"
            woke.append(time.time_ns())
            for p in folder.iterdir():
                p.unlink()

    t = threading.Thread(target=watch, daemon=True)
    t.start()
    out = []
    for i in range(n):
        ready.wait()
        ready.clear()
        go.set()
        time.sleep(0.002)  # the watcher is blocked in poll(2) by now
        t0 = land(folder, f"{i}.json", b"{}")
        wait_until(lambda i=i: len(woke) > i, timeout=10, interval=0.001, what="the wake")
        out.append(woke[i] - t0)
    t.join(timeout=10)
    dw.close()
    shutil.rmtree(folder)
    return out


def bare_commit(folder: Path, n: int) -> list[int]:
    """ns per durable single-row transaction on a bare SQLite file in `folder`, with the store's
    settings (WAL, synchronous=FULL, BEGIN IMMEDIATE): what recording a state must pay."""
    import sqlite3

    conn = sqlite3.connect(str(folder / "bare-commit.db"), isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("CREATE TABLE IF NOT EXISTS t (n INTEGER)")
    out = []
    for i in range(n):
        t0 = time.time_ns()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t VALUES (?)", (i,))
        conn.execute("COMMIT")
        out.append(time.time_ns() - t0)
        time.sleep(0.01)
    conn.close()
    return out


def bare_record(folder: Path, n: int) -> list[int]:
    """ns per bare recording of a Stop that begins the next paste, done as directly as Python
    can, to the `sending` stamp (taken inside the transaction, as a2a's is): read the spool
    file (open, read, parse) and remove it, then one durable transaction writing the rows a2a
    writes for it (the signal event and the `dispatch_sending` event, each
    with a SHA-256 of its fields; the session's row; the file's record; the dispatch) with the
    store's settings. What a2a adds beyond this is its own code: the state machine, the reads
    that decide, the chain's upkeep."""
    import hashlib
    import sqlite3

    conn = sqlite3.connect(str(folder / "bare-record.db"), isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.executescript(
        "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, ts_ns INTEGER, kind TEXT,"
        " actor TEXT, session TEXT, payload TEXT, hash TEXT);"
        "CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, state TEXT, in_flight INTEGER,"
        " last_signal_ns INTEGER, last_write_ns INTEGER);"
        "CREATE TABLE IF NOT EXISTS spool_files (name TEXT PRIMARY KEY, outcome TEXT, seq INTEGER);"
        "CREATE TABLE IF NOT EXISTS dispatches (n INTEGER PRIMARY KEY, session TEXT, state TEXT,"
        " sending_ns INTEGER);"
        "INSERT OR IGNORE INTO sessions VALUES ('s', 'busy', NULL, 0, 0);")
    out = []
    prev = "0" * 64
    for i in range(n):
        conn.execute("INSERT INTO dispatches VALUES (?, 's', 'queued', NULL)", (i + 1,))
        path = folder / f"bare-{i}.json"
        path.write_bytes(envelope("s", "Stop", time.time_ns()))
        t0 = time.time_ns()
        with open(path, "rb") as f:
            sig = json.loads(f.read())
        path.unlink()
        conn.execute("BEGIN IMMEDIATE")
        for kind, payload in (("signal", json.dumps(sig)), ("dispatch_sending",
                                                              json.dumps({"n": i + 1}))):
            ts = time.time_ns()
            prev = hashlib.sha256(f"{prev}|{ts}|{kind}|{payload}".encode()).hexdigest()
            conn.execute("INSERT INTO events(ts_ns, kind, actor, session, payload, hash)"
                         " VALUES (?, ?, 'session:s', 's', ?, ?)", (ts, kind, payload, prev))
        conn.execute("UPDATE sessions SET state = 'idle', in_flight = ?, last_signal_ns = ?,"
                     " last_write_ns = ? WHERE id = 's'", (i + 1, ts, ts))
        conn.execute("INSERT INTO spool_files VALUES (?, 'ingested', ?)", (path.name, i))
        conn.execute("UPDATE dispatches SET state = 'sending', sending_ns = ? WHERE n = ?",
                     (ts, i + 1))
        conn.execute("COMMIT")
        out.append(ts - t0)   # to the `sending` stamp, as a2a's row is timed
        time.sleep(0.01)
    conn.close()
    return out


def driven_signals(w: World, n: int, sid: str = "drv") -> list[int]:
    """ns from a signal file renamed into a session's spool folder of a running `a2a serve` to
    its `signal` event (stamped in the transaction that commits the new state)."""
    register_session(w.repo, sid, state="idle")
    spool = w.repo / ".a2a" / "spool" / sid   # the session's own folder, as its hooks write
    spool.mkdir(exist_ok=True)
    out = []
    with store(w.repo) as s:
        for i in range(n):
            name = f"{time.time_ns()}-{sid}-{i}.json"
            event = "PreToolUse" if i % 2 == 0 else "Stop"
            t0 = land(spool, name, envelope(sid, event, time.time_ns()))
            key = f"{sid}/{name}"   # recorded under its folder-qualified name
            wait(lambda key=key: s.one("SELECT seq FROM spool_files WHERE name = ?", (key,)))
            seq = s.one("SELECT seq FROM spool_files WHERE name = ?", (key,))[0]
            out.append(s.one("SELECT ts_ns FROM events WHERE seq = ?", (seq,))[0] - t0)
            time.sleep(0.01)
    return out


def driven_deliveries(w: World, n: int, sid: str = "drv2"
                      ) -> tuple[list[int], list[int], list[int], float]:
    """A session whose pane runs `cat`, n prompts queued: per turn, a Stop file renamed into the
    spool; ns to the next paste beginning (`sending` committed) and to its Enter written. Also
    the bare limits on the same pane: `tmux load-buffer` + `paste-buffer` round trips (ns), and
    the profile's pause between paste and Enter (s)."""
    w.tmux("new-session", "-d", "-s", f"{sid}t", "-x", "120", "-y", "30", "cat > /dev/null")
    pane = w.tmux("list-panes", "-t", f"{sid}t", "-F", "#{pane_id}").strip()
    register_session(w.repo, sid, cli="demo", pane_id=pane, socket=w.sock, state="busy")
    ns = [enqueue(w.repo, sid, f"turn {i}") for i in range(n)]
    spool = w.repo / ".a2a" / "spool" / sid
    spool.mkdir(exist_ok=True)
    to_paste, to_enter = [], []
    with store(w.repo) as s:
        for n_ in ns:
            time.sleep(0.02)
            t0 = land(spool, f"{time.time_ns()}-{sid}.json",
                      envelope(sid, "Stop", time.time_ns()))
            wait(lambda n_=n_: s.one("SELECT state FROM dispatches WHERE n = ?",
                                     (n_,))[0] in ("sent", "unknown"))
            d = s.one("SELECT * FROM dispatches WHERE n = ?", (n_,))
            to_paste.append(d["sending_ns"] - t0)
            to_enter.append(d["enter_ns"] - t0)
    paste = []
    for i in range(n):
        t0 = time.time_ns()
        w.tmux("load-buffer", "-b", f"bare-{i}", "-", input=f"bare turn {i}")
        w.tmux("paste-buffer", "-p", "-d", "-b", f"bare-{i}", "-t", pane)
        paste.append(time.time_ns() - t0)
    return to_paste, to_enter, paste, profile("demo").enter_delay_s


def idle_cpu(w: World, served: Served, panes: int, seconds: float) -> float:
    for i in range(panes):
        spawn(w, f"idle{i}")
    time.sleep(2.0)  # let start-up settle
    return cpu_percent(served.proc.pid, seconds)


def rows(quick: bool) -> list[dict]:
    """The figures above for bench/run_all.py, in ms, each beside its limit from this run."""
    n, turns_n = (8, 4) if quick else (40, 30)
    sh, py, bare_sh = hook_cost(20 if quick else 200)
    wake = bare_wake(n)
    with World() as w:
        served = w.serve()
        commit = bare_commit(w.base, n)
        recorded = bare_record(w.base, n)
        sig = driven_signals(w, n)
        paste, enter, paste_rt, delay = driven_deliveries(w, n)
        s = spawn(w, "bench", "--delay", "0.05")
        _state, stop_idle, hook_paste, hook_enter = turns(w, "bench", turns_n)
        base = polling_baseline(w, "bench", s["pane"], 3 if quick else 15)
        panes = 3 if quick else 20
        cpu = idle_cpu(w, served, panes, 2.0 if quick else 10.0)
    k = 1e-6
    wake_ms = [x * k for x in wake]
    to_enter_limit = [(a + b) * k + delay * 1e3 for a, b in zip(wake, paste_rt, strict=True)]
    hook = ("stamped by the hook as it starts: includes its own run"
            f" ({statistics.median(sh) * k:.1f} ms)")
    return [
        row("signal file renamed → state committed (a2a serve)", "ms", [x * k for x in sig],
            limits=[("bare wake + one durable SQLite commit (WAL, synchronous=FULL)",
                     [(a + b) * k for a, b in zip(wake, commit, strict=True)]),
                    ("bare inotify watcher (DirWatch): rename → wake", wake_ms)],
            note="to the signal event's stamp, taken in the transaction that commits the state"),
        row("Stop file renamed → next paste begins (`sending` committed)", "ms",
            [x * k for x in paste],
            limits=[("bare wake + one durable SQLite commit (WAL, synchronous=FULL)",
                     [(a + b) * k for a, b in zip(wake, commit, strict=True)]),
                    ("bare wake + the file read and removed + the same rows written bare in"
                     " one durable transaction (bench_panes.bare_record)",
                     [(a + b) * k for a, b in zip(wake, recorded, strict=True)]),
                    ("bare inotify watcher: rename → wake", wake_ms)],
            note="to the `sending` stamp, taken inside the transaction that commits the Stop's"
                 " state and the next dispatch's `sending` (panes/cycle.py), before its commit;"
                 " the paste begins after the commit. Not within 1.5×: the second limit does the"
                 " same reads and writes bare to the same stamp; the rest is a2a's own code per"
                 " signal (listing the folder, the state machine, the reads that decide, building"
                 " the events), in Python"),
        row("Stop file renamed → next Enter written", "ms", [x * k for x in enter],
            limits=[(f"bare wake + tmux load-buffer/paste-buffer round trip + the profile's"
                     f" {delay * 1e3:.0f} ms pause", to_enter_limit),
                    ("bare tmux load-buffer + paste-buffer round trip alone",
                     [x * k for x in paste_rt])]),
        row("demo agent: Stop hook → pane idle in store", "ms", [x * k for x in stop_idle],
            aim=None, note=hook),
        row("demo agent: Stop hook → next paste begins", "ms", [x * k for x in hook_paste],
            aim=None, note=hook),
        row("demo agent: Stop hook → next Enter written", "ms", [x * k for x in hook_enter],
            aim=None, note=hook),
        row("baseline: capture-pane every 500 ms (random phase), Stop hook → seen idle", "ms",
            [x * k for x in base], aim=None,
            limits=[("a2a: Stop hook → pane idle (the demo agent row)",
                     [x * k for x in stop_idle])],
            note="a comparison: the ratio is how many times later the poller knows"),
        row("hook script cost per call (sh a2a-hook)", "ms", [x * k for x in sh],
            limits=[("bare `sh -c :` process", [x * k for x in bare_sh])],
            note=f"a bare Python hook (json.load only): {statistics.median(py) * k:.1f} ms."
                 " 1.5× is out of reach by design: a POSIX sh has no builtin for the clock, the"
                 " copy of stdin or the rename, so date, cat and mv are three processes beside"
                 " `sh -c :`'s one"),
        row(f"orchestrator idle CPU with {panes + 1} panes", "% core", [cpu], aim=None,
            note="a2a serve's own CPU over the sample, nothing happening"),
    ]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=30)
    ap.add_argument("--panes", type=int, default=20)
    ap.add_argument("--hook-calls", type=int, default=200)
    ap.add_argument("--idle-seconds", type=float, default=10.0)
    args = ap.parse_args()

    sh, py, _bare = hook_cost(args.hook_calls)
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
