"""`--since` reads the period, not the log (issue 30): with ten times more history before the
period, a `--since` read executes about as many SQLite steps; the period's attempt still gets its
older card and its writer's older launch."""

from __future__ import annotations

from a2a_tui import metrics
from a2a_tui.store import Store
from tests.support.records import append_as_written

S = 10**9


def history(path, old_tasks: int) -> tuple[Store, int]:
    """`old_tasks` tasks before the period, each a card, a launch, a claim and a few signals;
    then the period: task T-1 claimed again, written by w1 (launched long before)."""
    s = Store(path)
    ts = S
    with s.write() as tx:
        for i in range(1, old_tasks + 1):
            task, sid = f"T-{i}", f"w{i}"
            for kind, attempt, payload in (
                    ("card_added", None, {"card": {"title": f"task {i}", "task_type": "feature",
                                                   "complexity": "S"}}),
                    ("session_launching", None, {"role": "worker", "cli": "demo", "model": "m",
                                                 "effort": "e"}),
                    ("claimed", f"{task}-a1", {}), ("signal", None, {"kind": "tool"}),
                    ("signal", None, {"kind": "stop"}), ("abandoned", f"{task}-a1", {})):
                ts += S
                append_as_written(tx, kind, actor="gate",
                                  task=task if kind != "signal" else None, attempt=attempt,
                                  session=sid, payload=payload, ts_ns=ts)
    since = ts + S // 2
    with s.write() as tx:
        for kind, attempt, payload in (("claimed", "T-1-a2", {}), ("writer_bound", "T-1-a2", {}),
                                       ("signal", None, {"kind": "stop"}),
                                       ("signal", None, {"kind": "stop"})):
            ts += S
            append_as_written(tx, kind, actor="gate", task="T-1" if attempt else None,
                              attempt=attempt, session="w1", payload=payload, ts_ns=ts)
    return s, since


def steps(s: Store, since: int) -> tuple[int, dict]:
    """SQLite VM steps (in hundreds) of one cold `--since` read of every view."""
    count = [0]

    def tick() -> int:
        count[0] += 1
        return 0

    metrics._CACHE.clear()
    s.conn.set_progress_handler(tick, 100)
    try:
        data = metrics.compute_json(s, None, since_ns=since)
    finally:
        s.conn.set_progress_handler(None, 0)
    return count[0], data


def test_since_reads_the_period_not_the_log(tmp_path):
    small, since_small = history(tmp_path / "small.db", 100)
    big, since_big = history(tmp_path / "big.db", 1000)
    n_small, d_small = steps(small, since_small)
    n_big, d_big = steps(big, since_big)
    for d in (d_small, d_big):   # the period's attempt, with its older card and launch
        task = d["usage"]["tasks"]
        assert [(t["task"], t["title"]) for t in task] == [("T-1", "task 1")]
        w1 = task[0]["attempts"][0]["sessions"]
        assert [(x["session"], x["cli"], x["turns"]) for x in w1] == [("w1", "demo", 2)]
    assert n_big < 1.5 * n_small, (n_small, n_big)
    # A task whose card is older than the period, with nothing in it: an empty view, not
    # `unknown_task`.
    assert metrics.compute_json(big, "tasks", since_ns=since_big, task="T-5")["tasks"] == []
    small.close()
    big.close()
