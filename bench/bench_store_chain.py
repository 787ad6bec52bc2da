"""Benchmark the events' hash chain on a large log (one run).

Builds a store of N events (default 1,000,000: a gate history of a few cards, then signals, as
a long-lived repository's log mostly is) and prints the medians of: opening the store (the
check from the checkpoint: with the checkpoint at the end, and CHECKPOINT_EVERY-1 events behind
it), appending an event (the chain adds a read of the last hash), the full chain check
(`a2a store verify` and every integrate pay it), and the gate's checks before an integrate
(full chain + every gate table against the log). `python bench/bench_store_chain.py [--events N]`
"""

from __future__ import annotations

import argparse
import hashlib
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from benchlib import row, timed

# isort: split
from a2a_tui.gate import ledger
from a2a_tui.gate.cards.schema import parse_card
from a2a_tui.payloads import attempts as pa
from a2a_tui.payloads import integrate as pi
from a2a_tui.payloads import verify as pv
from a2a_tui.payloads.sessions import Signal
from a2a_tui.store import Store, chain
from tests.support import CARD_TOML


def gate_history(tx, cards: int) -> None:
    """Each card through claim, submit, verify (six checks) and integrate, as the gate's events;
    the tables are then written from them (ledger.rebuild), as the gate would have."""
    body = parse_card(CARD_TOML.format(id="T-0", check="true", extra="")).body()
    for i in range(cards):
        card, att = f"T-{i}", f"T-{i}-a1"
        tx.append("card_added", actor="user", task=card, payload=pa.CardAdded(
            version=1, digest=f"sha256:{i}", source="bench", card=body))
        tx.append("card_ready", actor="user", task=card, payload=pa.CardReady(version=1))
        tx.append("claimed", actor="user", task=card, attempt=att, payload=pa.Claimed(
            fence=1, branch=f"a2a/{att}", worktree=f"/w/{att}", start_commit="0" * 40,
            card_version=1, writer="session:w1", target_branch="main"))
        tx.append("worktree_created", actor="gate", task=card, attempt=att,
                  payload=pa.WorktreeCreated())
        sha = f"{i:040x}"
        tx.append("submitted", actor="session:w1", task=card, attempt=att, payload=pa.Submitted(
            n=1, sha=sha, card_version=1, fence=1))
        tx.append("verify_started", actor="user", task=card, attempt=att,
                  payload=pv.VerifyStarted(run=1, sha=sha, submission=1, card_version=1))
        for name in ("sanity", "boundary", "drift", "provenance", "red", "tests"):
            tx.append("check_result", actor="gate", task=card, attempt=att, payload=pv.CheckResult(
                run=1, sha=sha, card_version=1, name=name, kind=name, blocking=True,
                passed=True, exit_code=0, duration_s=0.1, detail="ok", skipped=False, log=None))
        tx.append("verified", actor="gate", task=card, attempt=att,
                  payload=pv.Verified(run=1, consecutive_rejections=0))
        tx.append("integration_intent", actor="user", task=card, attempt=att,
                  payload=pi.IntegrationIntent(ref="refs/heads/main", old="0" * 40, new=sha))
        tx.append("integrated", actor="user", task=card, attempt=att, payload=pi.Integrated(
            ref="refs/heads/main", old="0" * 40, new=sha, observed=sha,
            score={"boundary": 3, "boundary_reason": "ok", "taste": 2, "taste_reason": "ok"},
            rounds=1, rejections=0, duration_s=1.0))

def build(path: Path, n: int, cards: int) -> None:
    s = Store(path)
    with s.write() as tx:
        gate_history(tx, cards)
    ledger.rebuild(s, reason="bench", actor="gate")
    batch = 20_000
    done = s.last_seq()
    while done < n:
        with s.write() as tx:
            for i in range(done, min(n, done + batch)):
                tx.append("signal", actor="session:w1", session="w1",
                          payload=Signal(event="PostToolUse", raw={"n": i, "tool": "Bash"}))
        done = min(n, done + batch)
    s.close()


def measure(events: int, runs: int, cards: int) -> dict[str, list[float]]:
    """Seconds of each operation above, `runs` times (appends: 200), with the bare limits:
    opening the SQLite file with a2a's settings and nothing else, and one pass hashing every
    event's stored fields with SHA-256 (what the chain check cannot do without)."""
    out: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "a2a.db"
        t0 = time.perf_counter()
        build(path, events, cards)
        out["build"] = [time.perf_counter() - t0]
        Store(path).close()  # the first open checks everything and sets the checkpoint
        out["open"] = timed(lambda: Store(path).close(), runs)
        out["bare open"] = timed(lambda: _bare_open(path), runs)
        with Store(path) as s:
            last = s.last_seq()
            back = last - chain.CHECKPOINT_EVERY + 1
            h = s.one("SELECT hash FROM events WHERE seq = ?", (back,))[0]
            moved = s.one("SELECT hash FROM events WHERE seq = ?", (back - 1,))[0]
        for key, seq, hash_ in (("open behind", back, h), ("open moves", back - 1, moved)):
            out[key] = []
            for _ in range(runs):
                with Store(path) as s, s.write() as tx:
                    tx.execute("UPDATE chain_checkpoint SET seq = ?, hash = ?", (seq, hash_))
                t = time.perf_counter()
                Store(path).close()
                out[key].append(time.perf_counter() - t)
        s = Store(path)

        def append() -> None:
            with s.write() as tx:
                tx.append("bench", actor="gate")

        out["append"] = timed(append, 200)
        out["full check"] = timed(lambda: chain.check(s.conn), runs)
        out["bare hash pass"] = timed(lambda: _hash_pass(s), runs)
        out["tables"] = timed(lambda: ledger.compare(s, ledger.load(s)), runs)
        out["events"] = [float(last)]
        s.close()
    return out


def _bare_open(path: Path) -> None:
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL").fetchone()
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    conn.close()


def _hash_pass(s: Store) -> None:
    cur = s.conn.cursor()
    cur.row_factory = None
    for row_ in cur.execute("SELECT seq, ts_ns, kind, actor, task, attempt, session, payload,"
                            " hash FROM events ORDER BY seq"):
        hashlib.sha256(repr(row_).encode()).hexdigest()


def rows(quick: bool) -> list[dict]:
    events, runs, cards = (20_000, 3, 20) if quick else (1_000_000, 5, 500)
    m = measure(events, runs, cards)
    ms = lambda xs: [x * 1e3 for x in xs]  # noqa: E731
    return [
        row(f"store open, checkpoint at the end, {events:,} events", "ms", ms(m["open"]),
            limits=[("bare SQLite open, same settings, last event read", ms(m["bare open"]))],
            note="the open also runs the migrations check"),
        row(f"store open, {chain.CHECKPOINT_EVERY - 1} events past the checkpoint", "ms",
            ms(m["open behind"]), limits=[("bare SQLite open", ms(m["bare open"]))]),
        row(f"store open, {chain.CHECKPOINT_EVERY} events past the checkpoint (moves it)", "ms",
            ms(m["open moves"]), limits=[("bare SQLite open", ms(m["bare open"]))], aim=None,
            note=f"once per {chain.CHECKPOINT_EVERY} events at most: the checkpoint's write is"
                 " one durable commit"),
        row(f"event chain full check, {events:,} events", "s", m["full check"],
            limits=[("one pass hashing every event's fields (SHA-256)", m["bare hash pass"])]),
        row("append one event (own transaction)", "ms", ms(m["append"]), aim=None),
    ]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cards", type=int, default=500)
    args = ap.parse_args()
    m = measure(args.events, args.runs, args.cards)
    med = {k: statistics.median(v) for k, v in m.items()}
    last = int(med["events"])
    print(f"built {args.events} events ({args.cards} cards integrated) in {med['build']:.1f}s")
    print(f"open, checkpoint at the end:            {med['open'] * 1000:8.1f} ms (median of"
          f" {args.runs})")
    print(f"open, {chain.CHECKPOINT_EVERY - 1} events past the checkpoint:   "
          f"{med['open behind'] * 1000:8.1f} ms")
    print(f"append one event (own transaction):     {med['append'] * 1000:8.3f} ms")
    print(f"full chain check ({last} events):      {med['full check']:8.2f} s"
          f"  ({med['full check'] / last * 1e6:.2f} µs per event)")
    print(f"gate tables against the log ({args.cards} cards): {med['tables'] * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
