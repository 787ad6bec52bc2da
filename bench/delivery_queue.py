"""Prompts queued in a2a and delivered by `a2a serve`, judged by what reached the model.

bench_delivery.py's `deliver` mode. A real CLI in the real-CLI world (network namespace, fake
model, `a2a serve`); prompts are queued as `a2a inject` queues them (the same function, in this
process) in rounds of `per_session`, each round in a freshly launched session (so each round's
first paste comes right after the CLI's start signal, as a queue kept for a new session does,
and no conversation grows without end). Every prompt carries a unique mark; afterwards:

  lost     a dispatch not done in time, or whose mark never reached the model
  merged   a model turn holding more than one mark, or its text not exactly the dispatch's
  twice    a mark in more than one model turn
"""

from __future__ import annotations

import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

from benchlib import pct

# isort: split
import delivery_probe

from a2a_tui.panes import control
from a2a_tui.queue import wake
from a2a_tui.repo import find_repo
from tests.real_cli.harness import API, World, unwrap_paste


@dataclass
class Tally:
    """What one CLI's deliveries came to."""

    cli: str
    n: int = 0
    shapes: Counter = field(default_factory=Counter)
    lost: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)
    twice: list[str] = field(default_factory=list)
    resent: int = 0            # Enters written again (dispatch_enter_resent)
    recovered: int = 0         # dispatches that needed one
    unknown: int = 0           # dispatches that ended `unknown`
    enter_to_confirm_ms: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def row(self) -> dict:
        lat = self.enter_to_confirm_ms
        return {"n": self.n, "shapes": dict(self.shapes),
                "lost": len(self.lost), "merged": len(self.merged), "twice": len(self.twice),
                "resent": self.resent, "recovered": self.recovered, "unknown": self.unknown,
                "p50_ms": pct(lat, 0.5) if lat else None,
                "p99_ms": pct(lat, 0.99) if lat else None,
                "max_ms": max(lat) if lat else None, "seconds": self.seconds,
                "examples": (self.lost + self.merged + self.twice)[:5]}


def run(bin_dir, cli: str, n: int, per_session: int = 100) -> Tally:
    """n deliveries through a2a, `per_session` per launched session."""
    tally, t0 = Tally(cli), time.monotonic()
    with World(bin_dir) as w:
        w.serve()
        w.enter()
        k = 0
        while k < n:
            count = min(per_session, n - k)
            _round(w, cli, k, count, tally)
            k += count
            print(f"    {cli}: {k}/{n} delivered; so far lost {len(tally.lost)}, merged"
                  f" {len(tally.merged)}, twice {len(tally.twice)}, Enters again"
                  f" {tally.resent}", flush=True)
    tally.seconds = time.monotonic() - t0
    return tally


def _round(w: World, cli: str, start: int, count: int, tally: Tally) -> None:
    first = ["say ready"] if cli == "codex" else []
    s = w.start([], cli, *first, timeout=120)
    sid = s["session"]
    store = w.store()
    marks, ns = {}, []
    try:
        for i in range(start, start + count):
            m = f"D{i}-{uuid.uuid4().hex[:6]}"
            shape = i % len(delivery_probe.SHAPES)
            text = delivery_probe.SHAPES[shape].format(m=m)
            n = control.inject(store, sid, text, source="user", actor="user")["dispatch"]
            marks[n], tally.shapes[shape] = m, tally.shapes[shape] + 1
            ns.append(n)
        wake(find_repo(w.repo))
        _settle(w, cli, ns)
    finally:
        store.close()
    _judge(w, cli, sid, marks, tally)
    w.kill_pane(s["pane"])


def _settle(w: World, cli: str, ns: list[int], quiet_s: float = 90.0) -> None:
    """Wait until every dispatch is done (or ended `unknown`, or the pane went away), or until
    none has moved on for `quiet_s`: a queue held behind an unknown one moves no more."""
    final = ("done", "unknown", "ended")
    last, moved = -1, time.monotonic()
    while True:
        states = [w.dispatch(n)["state"] for n in ns]
        settled = sum(s in final for s in states)
        if settled == len(ns):
            return
        if settled != last:
            last, moved = settled, time.monotonic()
        elif time.monotonic() - moved > quiet_s:
            print(f"    {cli}: {len(ns) - settled} dispatches not done after {quiet_s:g} s"
                  f" without progress: {Counter(states)}", flush=True)
            return
        time.sleep(0.5)


def _judge(w: World, cli: str, sid: str, marks: dict[int, str], tally: Tally) -> None:
    turns = w.fm.user_texts(API[cli])
    resent = [e.payload["n"] for e in w.events("dispatch_enter_resent", session=sid)]
    tally.resent += len(resent)
    tally.recovered += len(set(resent))
    for n, m in marks.items():
        tally.n += 1
        d = w.dispatch(n)
        holding = [t for t in turns if m in t]
        if d["state"] == "unknown":
            tally.unknown += 1
        if d["state"] != "done" or not holding:
            tally.lost.append(f"#{n} {d['state']}")
        elif len(holding) > 1:
            tally.twice.append(f"#{n} in {len(holding)} turns")
        elif unwrap_paste(holding[0]) != d["text"]:
            tally.merged.append(f"#{n}: {holding[0][:80]!r}")
        if d["confirmed_ns"] and d["enter_ns"]:
            tally.enter_to_confirm_ms.append((d["confirmed_ns"] - d["enter_ns"]) / 1e6)
    mixed = [t for t in turns if sum(m in t for m in marks.values()) > 1]
    tally.merged += [f"a turn with {sum(m in t for m in marks.values())} marks" for t in mixed]
