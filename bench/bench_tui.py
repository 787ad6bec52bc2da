"""Benchmark the workbench: how soon it shows a big store, and whether it stays responsive while
a verify runs (one run, one machine).

Prints
- first frame in a real terminal: from starting `a2a workbench` in a tmux pane to the screen
  showing the store's data (20 sessions and the last of 100k events), median of N starts;
  the same over an empty store, and the ratio;
- first frame in-process (headless): from `run_test` to every panel loaded and painted, median;
- responsiveness: the lag of a 10 ms timer on the app's event loop and the time a key press
  takes to be handled, while idle and while a verify runs a CPU-bound check and a slow one.

The screen is read here (capture-pane) only to see when the frame appeared.

    .venv/bin/python bench/bench_tui.py [--events 100000] [--sessions 20] [--starts 7]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from benchlib import cpu_percent, pct, row

# isort: split
from a2a_tui.collab import board, inbox
from a2a_tui.collab.context import Collab
from a2a_tui.gate import GateContext, add_card, claim, ready_card, submit
from a2a_tui.identity import Caller
from a2a_tui.repo import Repo
from a2a_tui.store import chain
from a2a_tui.store.db import dumps
from tests.support import World, commit_in, register_session, set_session, write_card

PY = sys.executable


def world() -> World:
    """A World whose tmux server gives the workbench a capable terminal."""
    w = World()
    w.setenv["TERM"] = "xterm-256color"
    return w


def seed(w: World, sessions: int, events: int) -> int:
    """`sessions` sessions, some board items and inbox entries, then filler events up to
    `events` in all; returns the last event's seq."""
    r = Repo(w.repo)
    store = r.store()
    for i in range(sessions):
        role = "executive" if i == 0 else "ideation" if i == 1 else "worker"
        sid = {0: "exec1", 1: "idea1"}.get(i, f"w{i}")
        register_session(store, sid, role, state=("idle", "busy", "waiting", "unknown")[i % 4])
    exe = Collab(r, store, Caller(session="exec1", role="executive"))
    idea = Collab(r, store, Caller(session="idea1", role="ideation"))
    for i in range(30):
        board.ask(exe, f"Question {i}?", ["a=Yes", "b=No"], "a", "because")
    add_card(GateContext(r, store), write_card(w.repo, "T-1"))
    for i in range(50):
        inbox.post(idea, "revise", f"Revision {i}", card="T-1")
    filler(store, events)
    last = store.one("SELECT MAX(seq) AS m FROM events")["m"]
    store.close()
    return last


def filler(store, events: int) -> None:
    """Filler events up to `events` in all, chained as `Tx.append` chains them but inserted in
    bulk (10,000,000 appended one by one would take most of an hour), and the chain's
    checkpoint left where a writer leaves it (chain.keep_up: at the last event)."""
    have = store.one("SELECT MAX(seq) AS m FROM events")["m"]
    prev = store.one("SELECT hash FROM events WHERE seq = ?", (have,))["hash"]
    note = dumps({"note": "filler event for the first-frame bench"})
    t0 = time.time_ns()

    def rows():
        nonlocal prev
        for seq in range(have + 1, events + 1):
            r = (seq, t0 + seq, "bench_filler", "bench", None, None, f"w{2 + seq % 18}", note)
            prev = chain.link(prev, *r)
            yield (*r, prev)

    with store.write() as tx:
        tx.conn.executemany("INSERT INTO events(seq, ts_ns, kind, actor, task, attempt, session,"
                            " payload, hash) VALUES (?,?,?,?,?,?,?,?,?)", rows())
        tx.execute("INSERT INTO chain_checkpoint(id, seq, hash) VALUES (1, ?, ?) ON CONFLICT(id)"
                   " DO UPDATE SET seq = excluded.seq, hash = excluded.hash", (events, prev))


def first_frame_terminal(w: World, last_seq: int, starts: int) -> list[float]:
    """Seconds from starting the workbench in a pane to its screen showing the last event."""
    out = []
    w.tmux("new-session", "-d", "-s", "b", "-x", "140", "-y", "40", "sleep 100000")
    want = f"last #{last_seq}"
    for _ in range(starts):
        t0 = time.perf_counter()
        pane = w.tmux("new-window", "-P", "-F", "#{pane_id}", "-t", "b:", "-c", str(w.repo),
                      f"exec {PY} -m a2a_tui workbench --no-orchestrator").strip()
        deadline = t0 + 30
        while True:
            screen = w.tmux("capture-pane", "-p", "-t", pane)
            if want in screen:
                out.append(time.perf_counter() - t0)
                break
            if time.perf_counter() > deadline:
                raise SystemExit(f"no frame showing {want!r} after 30 s:\n{screen}")
            time.sleep(0.005)
        w.tmux("kill-pane", "-t", pane)
        time.sleep(0.2)
    return out


async def _first_frame_headless(r: Repo) -> float:
    from a2a_tui.tui.app import make_app

    t0 = time.perf_counter()
    app, _s, _o = make_app(r, host_orchestrator=False, tick_s=3600)
    async with app.run_test(size=(140, 40)) as pilot:
        while not all(p.loaded for p in app.query("Panel")):
            await asyncio.sleep(0.002)
        await pilot.pause()
        return time.perf_counter() - t0


def first_frame_headless(w: World, starts: int) -> list[float]:
    return [asyncio.run(_first_frame_headless(Repo(w.repo))) for _ in range(starts)]


# --- responsiveness while a verify runs --------------------------------------------------------
VERIFY_CHECKS = '''
[[checks]]
name = "cpu"
command = """python3 -c 'import time; t=time.time()\nwhile time.time()-t<4: pass'"""
blocking = true
timeout_s = 60

[[checks]]
name = "slow"
command = "sleep 2"
blocking = true
timeout_s = 60
'''


def submitted_attempt(w: World, card_id: str = "T-2") -> str:
    r = Repo(w.repo)
    store = r.store()
    g = GateContext(r, store)
    card = write_card(w.repo, card_id)
    card.write_text(card.read_text() + VERIFY_CHECKS)
    add_card(g, card)
    ready_card(g, card_id)
    c = claim(g, card_id)
    sha = commit_in(Path(c["worktree"]), {"src/app.py": "x = 1\n"}, env=w.env)
    submit(g, c["attempt"], sha, c["card_version"], c["fence"])
    store.close()
    return c["attempt"]


async def _responsiveness(w: World, attempt: str) -> dict[str, list[float]]:
    r = Repo(w.repo)
    attempt_card = r.store().one("SELECT card_id FROM attempts WHERE id = ?",
                                 (attempt,))["card_id"]
    from a2a_tui.tui.app import make_app
    from a2a_tui.tui.panels.gate import GatePanel

    app, _s, _o = make_app(r, host_orchestrator=False, tick_s=3600)
    lags: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        lags.append(now - last[0] - 0.010)
        last[0] = now

    out: dict[str, list[float]] = {}
    async with app.run_test(size=(140, 40)) as pilot:
        while not all(p.loaded for p in app.query("Panel")):
            await asyncio.sleep(0.01)
        gate = app.query_one(GatePanel)

        async def sample(seconds: float) -> tuple[list[float], list[float]]:
            lags.clear()
            last[0] = time.perf_counter()
            timer = app.set_interval(0.010, tick)
            keys: list[float] = []
            end = time.perf_counter() + seconds
            while time.perf_counter() < end:
                t0 = time.perf_counter()
                await pilot.press("j" if len(keys) % 2 == 0 else "k")
                keys.append(time.perf_counter() - t0)
                await asyncio.sleep(0.05)
            timer.stop()
            return list(lags), keys

        out["idle_lag"], out["idle_key"] = await sample(3.0)
        gate.table.focus()
        gate.select(attempt_card)
        await pilot.pause()
        await pilot.press("v")
        store = r.store()
        t_wait = time.perf_counter()
        while store.one("SELECT state FROM verifications WHERE attempt_id = ? ORDER BY run DESC"
                        " LIMIT 1", (attempt,)) is None:
            if time.perf_counter() - t_wait > 10:
                raise SystemExit("the verify did not start")
            await asyncio.sleep(0.02)
        out["verify_lag"], out["verify_key"] = await sample(3.0)
        state = store.one("SELECT state FROM verifications WHERE attempt_id = ? ORDER BY run"
                          " DESC LIMIT 1", (attempt,))["state"]
        out["verify_state_after"] = [0.0 if state == "running" else 1.0]
        store.close()
    return out


def _workbench_pane(w: World) -> str:
    return w.tmux("new-window", "-P", "-F", "#{pane_id}", "-t", "b:", "-c", str(w.repo),
                  f"exec {PY} -m a2a_tui workbench --no-orchestrator").strip()


def _wait_for(w: World, pane: str, text: str, timeout: float = 10) -> float:
    t0 = time.perf_counter()
    while text not in (screen := w.tmux("capture-pane", "-p", "-t", pane)):
        if time.perf_counter() - t0 > timeout:
            raise SystemExit(f"{text!r} never showed:\n{screen}")
        time.sleep(0.003)
    return time.perf_counter() - t0


def _presses(w: World, pane: str, presses: int) -> list[float]:
    """j/k in Sessions, each until the detail line under the table names the other session."""
    out = []
    for i in range(presses):
        key, want = ("j", "idea1 · ideation") if i % 2 == 0 else ("k", "exec1 · executive")
        t0 = time.perf_counter()
        w.tmux("send-keys", "-t", pane, key)
        _wait_for(w, pane, want)
        out.append(time.perf_counter() - t0)
        time.sleep(0.1)
    return out


def keys_idle(sessions: int, events: int, presses: int) -> list[float]:
    """Key to screen in a real terminal over `sessions` sessions and `events` events, idle."""
    w = world()
    w.enter()
    try:
        seed(w, sessions, events)
        w.tmux("new-session", "-d", "-s", "b", "-x", "140", "-y", "40", "sleep 100000")
        pane = _workbench_pane(w)
        _wait_for(w, pane, "exec1 · executive", timeout=30)
        return _presses(w, pane, presses)
    finally:
        w.close()


def keys_terminal(w: World, attempt: str, presses: int) -> dict[str, list[float]]:
    """Key to screen in a real terminal: j/k in Sessions until the detail line under the table
    names the other session; first while idle, then while a verify started with `v` in the
    Gate panel runs (the workbench's own worker, as a user would start it)."""
    pane = _workbench_pane(w)

    def screen() -> str:
        return w.tmux("capture-pane", "-p", "-t", pane)

    def wait_for(text: str, timeout: float = 10) -> float:
        return _wait_for(w, pane, text, timeout)

    def sample() -> list[float]:
        return _presses(w, pane, presses)

    wait_for("exec1 · executive", timeout=30)
    idle = sample()
    w.tmux("send-keys", "-t", pane, "Tab", "Tab", "Tab")       # Sessions -> Board -> Inbox -> Gate
    time.sleep(0.5)
    store = Repo(w.repo).store()
    before = store.one("SELECT COUNT(*) AS n FROM verifications")["n"]
    w.tmux("send-keys", "-t", pane, "j", "v")                  # T-1 -> T-2, verify
    t0 = time.perf_counter()
    while store.one("SELECT COUNT(*) AS n FROM verifications")["n"] == before:
        if time.perf_counter() - t0 > 10:
            raise SystemExit(f"the verify did not start:\n{screen()}")
        time.sleep(0.01)
    w.tmux("send-keys", "-t", pane, "BTab", "BTab", "BTab")    # back to Sessions
    wait_for("exec1 · executive")
    busy = sample()
    state = store.one("SELECT state FROM verifications WHERE attempt_id = ? ORDER BY run DESC"
                      " LIMIT 1", (attempt,))["state"]
    store.close()
    w.tmux("kill-pane", "-t", pane)
    return {"idle": idle, "verify": busy, "running_after": [1.0 if state == "running" else 0.0]}


def idle_cpu(w: World, last_seq: int, seconds: float) -> float:
    """% of one core the workbench (no orchestrator) uses while nothing changes, over `seconds`."""
    out = w.tmux("new-window", "-P", "-F", "#{pane_id} #{pane_pid}", "-t", "b:", "-c",
                 str(w.repo), f"exec {PY} -m a2a_tui workbench --no-orchestrator").split()
    pane, pid = out[0], int(out[1])
    while f"last #{last_seq}" not in w.tmux("capture-pane", "-p", "-t", pane):
        time.sleep(0.05)
    time.sleep(2.0)
    used = cpu_percent(pid, seconds)
    w.tmux("kill-pane", "-t", pane)
    return used


def first_frames(sessions: int, events: int, starts: int) -> tuple[list[float], list[float]]:
    """Seconds to the first frame in a real terminal: over `sessions` sessions and `events`
    events, and over the same sessions, questions and inbox with no filler events (what the
    frame draws, without the log's length), `starts` each."""
    big, empty = world(), world()
    big.enter()
    try:
        last = seed(big, sessions, events)
        empty.enter()
        last_empty = seed(empty, sessions, 0)
        return (first_frame_terminal(big, last, starts),
                first_frame_terminal(empty, last_empty, starts))
    finally:
        big.close()
        empty.close()


def rows(quick: bool) -> list[dict]:
    sessions, events, starts = (20, 5_000, 1) if quick else (20, 100_000, 7)
    big, empty = first_frames(sessions, events, starts)
    ms = lambda xs: [x * 1e3 for x in xs]  # noqa: E731
    return [row(f"workbench first frame, {sessions} sessions and {events:,} events", "ms",
                ms(big), limits=[("the same sessions, questions and inbox without the filler"
                                  " events (a store of a few hundred)", ms(empty))],
                note="a real terminal (tmux, 140x40): start to the last event on screen")]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=100_000)
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--starts", type=int, default=7)
    ap.add_argument("--presses", type=int, default=16)
    args = ap.parse_args()

    big, empty = world(), world()
    big.enter()  # the gate's in-process work on `big` runs git as the world's user
    try:
        t0 = time.perf_counter()
        last = seed(big, args.sessions, args.events)
        print(f"seeded {args.sessions} sessions and {last} events in"
              f" {time.perf_counter() - t0:.1f} s")
        with empty.store() as s:
            last_empty = s.one("SELECT MAX(seq) AS m FROM events")["m"] or 0

        term_big = first_frame_terminal(big, last, args.starts)
        term_empty = first_frame_terminal(empty, last_empty, args.starts) if last_empty else []
        head_big = first_frame_headless(big, args.starts)
        head_empty = first_frame_headless(empty, args.starts)
        mb, me = statistics.median(term_big), statistics.median(term_empty or [float("nan")])
        print(f"first frame, real terminal (140x40), {args.sessions} sessions + {last} events:"
              f" median {mb * 1000:.0f} ms, max {max(term_big) * 1000:.0f} ms"
              f" (n={len(term_big)})")
        if term_empty:
            print(f"first frame, real terminal, empty store: median {me * 1000:.0f} ms;"
                  f" ratio big/empty {mb / me:.2f}")
        hb, he = statistics.median(head_big), statistics.median(head_empty)
        print(f"first frame, headless in-process: big {hb * 1000:.0f} ms, empty"
              f" {he * 1000:.0f} ms, ratio {hb / he:.2f}")

        fresh = idle_cpu(big, last, 10.0)
        with big.store() as s:  # states held for 10 minutes
            for row in s.all("SELECT id FROM sessions"):
                set_session(s, row["id"], since_ns=time.time_ns() - 600 * 10**9)
        aged = idle_cpu(big, last, 10.0)
        print(f"workbench idle CPU over 10 s (no orchestrator, no writes): {aged:.2f}% of one core"
              f" with states held for minutes; {fresh:.2f}% when all {args.sessions} states"
              " changed within the minute (each age ticks every second)")

        attempt = submitted_attempt(big)
        k = keys_terminal(big, attempt, args.presses)
        for what in ("idle", "verify"):
            xs = k[what]
            print(f"key to screen, real terminal, {what:>6}: p50 {pct(xs, .5) * 1000:.0f} ms,"
                  f" max {max(xs) * 1000:.0f} ms (n={len(xs)})")
        print("  the verify was still running after the sample:",
              "yes" if k["running_after"][0] else "no (the sample outlasted it)")
        print(f"  ratio verifying/idle (p50): {pct(k['verify'], .5) / pct(k['idle'], .5):.2f}")

        attempt = submitted_attempt(big, "T-3")
        r = asyncio.run(_responsiveness(big, attempt))
        for what in ("idle", "verify"):
            lag, key = r[f"{what}_lag"], r[f"{what}_key"]
            print(f"event loop, headless, {what:>6}: 10 ms timer late by p50"
                  f" {pct(lag, .5) * 1000:.1f} ms, p99 {pct(lag, .99) * 1000:.1f} ms, max"
                  f" {max(lag) * 1000:.1f} ms (n={len(lag)}); Pilot key round trip p50"
                  f" {pct(key, .5) * 1000:.0f} ms (n={len(key)})")
        print("  the verify was still running after the sample:",
              "yes" if r["verify_state_after"][0] == 0.0 else "no (the sample outlasted it)")
    finally:
        big.close()
        empty.close()


if __name__ == "__main__":
    main()
