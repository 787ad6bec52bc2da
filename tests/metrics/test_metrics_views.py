"""Every number of every view, in `--json` and in text, over a known history made through the real
gate and real panes (metrics_support.build says what happens); the same numbers with every
projection table dropped; `--task` and `--since` cut it; bad input is one clear error."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from a2a_tui.metrics.tables import fmt_rate, fmt_s
from a2a_tui.metrics.views import day
from tests.metrics.metrics_support import Log, build, table
from tests.support import a2a


def approx(x: float) -> object:
    return pytest.approx(x, abs=0.002)


def test_every_view_over_a_known_history(repo, tmux_socket, serve, tmp_path):
    build(repo, tmux_socket, serve)
    log = Log(repo)
    m = a2a("metrics", "--json", cwd=repo).json
    text = a2a("metrics", cwd=repo).out

    # --- the figures, each from the events that define it ---
    wall = {t: log.secs(log.one("claimed", attempt=f"{t}-a1"),
                        log.one(outcome, attempt=f"{t}-a1"))
            for t, outcome in (("T-1", "integrated"), ("T-2", "integrated"), ("T-3", "abandoned"))}
    q1, q2 = (log.secs(log.one("board_item_posted", id=q), log.one("board_item_answered", id=q))
              for q in ("Q-1", "Q-2"))
    release = log.one("pane_released", session="w1")
    rel = log.secs(log.last(release, ("signal", "dispatch_sent"), "w1"), release)
    swall = {s: log.session_wall(s) for s in ("exec1", "w1", "w2")}
    # exec1: claim+ask, answer Q-1, verify+integrate+claim+ask, verify, answer Q-2, verify+
    # integrate; w1: submit, the interrupted sleep; w2: submit, the gate's feedback, submit.
    dispatches = {"exec1": 6, "w1": 2, "w2": 3}
    turns = {"exec1": 6, "w1": 1, "w2": 4}     # w1's sleep never ended; w2 ran the typed prompt
    for sid in dispatches:
        assert log.count("dispatch_queued", session=sid) == dispatches[sid]
        assert len([e for e in log.all("signal", session=sid) if e["payload"]["kind"] == "stop"]
                   ) == turns[sid]

    # --- model usage ---
    u = m["usage"]
    assert u["project"] == {"name": "repo", "tasks": 3, "attempts": 3, "sessions": 3,
                            "turns": 11, "dispatches": 11, "wall_s": approx(sum(swall.values()))}

    def srow(sid, as_, role, model, effort):
        return {"session": sid, "role": role, "as": as_, "cli": "demo", "model": model,
                "effort": effort, "turns": turns[sid], "dispatches": dispatches[sid],
                "wall_s": approx(swall[sid]), "relaunch": {}}

    exec1 = srow("exec1", "claim, verify, integrate", "executive", "ctl", "")
    assert u["tasks"] == [
        {"task": "T-1", "title": "Refuse empty names", "attempts": [
            {"attempt": "T-1-a1", "outcome": "integrated", "rounds": 1, "wall_s": wall["T-1"],
             "writer": "demo fast low",
             "sessions": [srow("w1", "writer", "worker", "fast", "low"), exec1]}]},
        {"task": "T-2", "title": "Refuse empty names", "attempts": [
            {"attempt": "T-2-a1", "outcome": "integrated", "rounds": 2, "wall_s": wall["T-2"],
             "writer": "demo deep high",
             "sessions": [srow("w2", "writer", "worker", "deep", "high"), exec1]}]},
        {"task": "T-3", "title": "Refuse empty names", "attempts": [
            {"attempt": "T-3-a1", "outcome": "abandoned", "rounds": 1, "wall_s": wall["T-3"],
             "writer": "(user)", "sessions": []}]}]
    assert u["other_sessions"] == []
    assert u["by_model"] == [
        {"cli": "(user)", "model": "", "effort": "", "sessions": 0, "turns": 0, "dispatches": 0,
         "wall_s": 0.0, "attempts": 1, "outcomes": {"abandoned": 1}},
        {"cli": "demo", "model": "ctl", "effort": "", "sessions": 1, "turns": 6,
         "dispatches": 6, "wall_s": approx(swall["exec1"]), "attempts": 0, "outcomes": {}},
        {"cli": "demo", "model": "deep", "effort": "high", "sessions": 1, "turns": 4,
         "dispatches": 3, "wall_s": approx(swall["w2"]), "attempts": 1,
         "outcomes": {"integrated": 1}},
        {"cli": "demo", "model": "fast", "effort": "low", "sessions": 1, "turns": 1,
         "dispatches": 2, "wall_s": approx(swall["w1"]), "attempts": 1,
         "outcomes": {"integrated": 1}}]
    usage_rows = table(text, "task", "attempt", "outcome", "rounds", "wall", "session", "as",
                       "role", "cli", "model", "effort", "turns", "dispatches", "session wall")
    assert usage_rows == [
        ["T-1", "T-1-a1", "integrated", "1", fmt_s(wall["T-1"]), "w1", "writer", "worker",
         "demo", "fast", "low", "1", "2", fmt_s(swall["w1"])],
        ["T-1", "T-1-a1", "integrated", "1", fmt_s(wall["T-1"]), "exec1",
         "claim, verify, integrate", "executive", "demo", "ctl", "-", "6", "6",
         fmt_s(swall["exec1"])],
        ["T-2", "T-2-a1", "integrated", "2", fmt_s(wall["T-2"]), "w2", "writer", "worker",
         "demo", "deep", "high", "4", "3", fmt_s(swall["w2"])],
        ["T-2", "T-2-a1", "integrated", "2", fmt_s(wall["T-2"]), "exec1",
         "claim, verify, integrate", "executive", "demo", "ctl", "-", "6", "6",
         fmt_s(swall["exec1"])],
        ["T-3", "T-3-a1", "abandoned", "1", fmt_s(wall["T-3"])] + ["-"] * 9]
    assert table(text, "cli", "model", "effort", "sessions", "turns", "dispatches", "wall",
                 "attempts", "outcomes") == [
        ["(user)", "-", "-", "0", "0", "0", "0.0s", "1", "abandoned:1"],
        ["demo", "ctl", "-", "1", "6", "6", fmt_s(swall["exec1"]), "0", "-"],
        ["demo", "deep", "high", "1", "4", "3", fmt_s(swall["w2"]), "1", "integrated:1"],
        ["demo", "fast", "low", "1", "1", "2", fmt_s(swall["w1"]), "1", "integrated:1"]]
    assert (f"project repo: 3 task(s), 3 attempt(s), 3 session(s), 11 turn(s), 11 dispatch(es),"
            f" {fmt_s(u['project']['wall_s'])} session time") in text

    # --- first pass and rejections ---
    fp = m["first_pass"]
    row = {"attempts": 1, "concluded": 1, "stopped_early": 0}
    assert fp == {
        "attempts": 3, "concluded": 3, "integrated": 2, "first_pass": 1, "rate": 0.333,
        "rejections": 1, "verify_runs": 4, "flaky": 0, "contract_invalid": 0, "tests": None,
        # Rule 4: w2's turns after its rejection (the gate's feedback, then the user's words)
        # ended with T-2-a1 still owed, unasked and unfailed: the model's, twice.
        "stopped_early": 2,
        "model_behaviour": {"stopped_early": 2, "attempts": 1,
                            "by_model": [{"model": "demo deep high", "stopped_early": 2}]},
        "self_check": {"reported": 0, "agreed": 0, "rate": None, "said_passed_gate_failed": 0,
                       "by_model": []},
        "spot_checks": {"asked": 0, "answered": 0, "flagged": 0, "rate": None, "by_model": []},
        "by_step": [{"step": "checks", "code": "tests", "count": 1}],
        "by_model": [
            {"model": "(user)", **row, "integrated": 0, "first_pass": 0, "rate": 0.0,
             "rejections": 0},
            {"model": "demo deep high", **row, "integrated": 1, "first_pass": 0, "rate": 0.0,
             "rejections": 1, "stopped_early": 2},
            {"model": "demo fast low", **row, "integrated": 1, "first_pass": 1, "rate": 1.0,
             "rejections": 0}],
        "by_type": [
            {"task_type": "bugfix", "complexity": "S", **row, "integrated": 1, "first_pass": 1,
             "rate": 1.0, "rejections": 0},
            {"task_type": "feature", "complexity": "M", **row, "integrated": 1,
             "first_pass": 0, "rate": 0.0, "rejections": 1, "stopped_early": 2},
            {"task_type": "refactor", "complexity": "S", **row, "integrated": 0,
             "first_pass": 0, "rate": 0.0, "rejections": 0}]}
    assert ("first-pass rate 33%: 1 of 3 concluded attempt(s) integrated with no rejection"
            " (3 attempt(s), 4 verify run(s), 1 rejection(s), 0 flaky, 0 contract problem(s))"
            ) in text
    assert table(text, "step", "code", "count") == [["checks", "tests", "1"]]
    pass_head = ["attempts", "concluded", "integrated", "first pass", "rate", "rejections"]
    assert table(text, "model", *pass_head) == [
        ["(user)", "1", "1", "0", "0", "0%", "0"],
        ["demo deep high", "1", "1", "1", "0", "0%", "1"],
        ["demo fast low", "1", "1", "1", "1", "100%", "0"]]
    assert table(text, "type", "complexity", *pass_head) == [
        ["bugfix", "S", "1", "1", "1", "1", "100%", "0"],
        ["feature", "M", "1", "1", "1", "0", "0%", "1"],
        ["refactor", "S", "1", "1", "0", "0", "0%", "0"]]

    # --- attention ---
    at = m["attention"]
    today = day(release["ts_ns"])
    assert at["total"] == {"count": 5, "waited_s": approx(q1 + q2 + rel), "open": 0}
    assert at["by_kind"] == [
        {"kind": "question", "count": 2, "waited_s": approx(q1 + q2), "open": 0},
        {"kind": "release", "count": 1, "waited_s": approx(rel), "open": 0},
        {"kind": "intervention", "count": 2, "waited_s": 0.0, "open": 0}]
    assert at["by_task"] == [
        {"task": "(no task)", "count": 2, "waited_s": approx(q1 + q2), "open": 0,
         "kinds": {"question": 2}},
        {"task": "T-1", "count": 1, "waited_s": approx(rel), "open": 0, "kinds": {"release": 1}},
        {"task": "T-2", "count": 1, "waited_s": 0.0, "open": 0, "kinds": {"intervention": 1}},
        {"task": "T-3", "count": 1, "waited_s": 0.0, "open": 0, "kinds": {"intervention": 1}}]
    assert at["by_session"] == [
        {"session": "(none)", "count": 1, "waited_s": 0.0, "open": 0,
         "kinds": {"intervention": 1}},
        {"session": "exec1", "count": 2, "waited_s": approx(q1 + q2), "open": 0,
         "kinds": {"question": 2}},
        {"session": "w1", "count": 1, "waited_s": approx(rel), "open": 0,
         "kinds": {"release": 1}},
        {"session": "w2", "count": 1, "waited_s": 0.0, "open": 0, "kinds": {"intervention": 1}}]
    assert at["by_day"] == [{"day": today, "count": 5, "waited_s": approx(q1 + q2 + rel),
                             "open": 0}]
    assert [(i["kind"], i["ref"], i["task"], i["attempt"], i["session"], i["waited_s"],
             i["state"]) for i in at["items"]] == [
        ("question", "Q-1", "(no task)", None, "exec1", q1, "done"),
        ("question", "Q-2", "(no task)", None, "exec1", q2, "done"),
        ("intervention", "typed_in_pane", "T-2", "T-2-a1", "w2", None, "done"),
        ("release", "w1", "T-1", "T-1-a1", "w1", rel, "done"),
        ("intervention", "commit", "T-3", "T-3-a1", None, None, "done")]
    assert (f"the user was needed 5 time(s), {fmt_s(at['total']['waited_s'])} waited in all,"
            " 0 still open") in text
    assert table(text, "kind", "count", "waited", "open") == [
        ["question", "2", fmt_s(at["by_kind"][0]["waited_s"]), "0"],
        ["release", "1", fmt_s(rel), "0"], ["intervention", "2", "0.0s", "0"]]
    assert table(text, "task", "count", "waited", "open") == [
        ["(no task)", "2", fmt_s(at["by_task"][0]["waited_s"]), "0"],
        ["T-1", "1", fmt_s(rel), "0"], ["T-2", "1", "0.0s", "0"], ["T-3", "1", "0.0s", "0"]]
    assert table(text, "session", "count", "waited", "open") == [
        ["(none)", "1", "0.0s", "0"], ["exec1", "2", fmt_s(at["by_session"][1]["waited_s"]), "0"],
        ["w1", "1", fmt_s(rel), "0"], ["w2", "1", "0.0s", "0"]]
    assert table(text, "day", "count", "waited", "open") == [
        [today, "5", fmt_s(at["total"]["waited_s"]), "0"]]
    assert table(text, "kind", "ref", "task", "session", "waited", "state") == [
        ["question", "Q-1", "(no task)", "exec1", fmt_s(q1), "done"],
        ["question", "Q-2", "(no task)", "exec1", fmt_s(q2), "done"],
        ["intervention", "typed_in_pane", "T-2", "w2", "-", "done"],
        ["release", "w1", "T-1", "w1", fmt_s(rel), "done"],
        ["intervention", "commit", "T-3", "-", "-", "done"]]

    # --- scores ---
    sc = m["scores"]

    def dist(*counts):
        return {str(n): c for n, c in enumerate(counts)}

    def srow_(n, b, bm, t, tm, rounds, walls, rej):
        return {"n": n, "boundary": b, "boundary_mean": bm, "taste": t, "taste_mean": tm,
                "rounds_mean": rounds, "wall_s_mean": approx(sum(walls) / len(walls)),
                "rejections": rej, "lines_added": None, "lines_removed": None}

    t1 = srow_(1, dist(0, 0, 0, 1), 3.0, dist(0, 0, 1, 0), 2.0, 1.0, [wall["T-1"]], 0)
    t2 = srow_(1, dist(0, 0, 1, 0), 2.0, dist(0, 0, 0, 1), 3.0, 2.0, [wall["T-2"]], 1)
    t3 = srow_(1, dist(0, 1, 0, 0), 1.0, dist(0, 1, 0, 0), 1.0, 1.0, [wall["T-3"]], 0)
    assert sc == {
        "outcomes": {"abandoned": 1, "integrated": 2},
        "all": srow_(3, dist(0, 1, 1, 1), 2.0, dist(0, 1, 1, 1), 2.0, 1.333, list(wall.values()),
                     1),
        "by_model": [{"model": "(user)", **t3}, {"model": "demo deep high", **t2},
                     {"model": "demo fast low", **t1}],
        "by_type": [{"task_type": "bugfix", **t1}, {"task_type": "feature", **t2},
                    {"task_type": "refactor", **t3}]}
    assert "scored: abandoned 1, integrated 2" in text
    walls = {k: fmt_s(wall[k]) for k in wall}
    assert table(text, "group", "n", "boundary 0 1 2 3", "mean", "taste 0 1 2 3", "mean",
                 "rounds", "wall", "rejections", "lines") == [
        ["all", "3", "0 1 1 1", "2.00", "0 1 1 1", "2.00", "1.33",
         fmt_s(sc["all"]["wall_s_mean"]), "1", "-"],
        ["(user)", "1", "0 1 0 0", "1.00", "0 1 0 0", "1.00", "1.00", walls["T-3"], "0", "-"],
        ["demo deep high", "1", "0 0 1 0", "2.00", "0 0 0 1", "3.00", "2.00", walls["T-2"], "1",
         "-"],
        ["demo fast low", "1", "0 0 0 1", "3.00", "0 0 1 0", "2.00", "1.00", walls["T-1"], "0",
         "-"],
        ["type bugfix", "1", "0 0 0 1", "3.00", "0 0 1 0", "2.00", "1.00", walls["T-1"], "0",
         "-"],
        ["type feature", "1", "0 0 1 0", "2.00", "0 0 0 1", "3.00", "2.00", walls["T-2"], "1",
         "-"],
        ["type refactor", "1", "0 1 0 0", "1.00", "0 1 0 0", "1.00", "1.00", walls["T-3"], "0",
         "-"]]

    # --- per task: the fair-comparison figures ---
    def trow(task, ttype, size, outcome, rounds, rej, waiting, interventions, writer):
        return {"task": task, "title": "Refuse empty names", "task_type": ttype,
                "complexity": size, "outcome": outcome, "attempts": 1, "rounds": rounds,
                "rejections": rej, "wall_s": wall[task], "waiting_s": waiting,
                "interventions": interventions, "writers": [writer], "tests": None}

    assert m["tasks"] == [
        trow("T-1", "bugfix", "S", "integrated", 1, 0, rel, 0, "demo fast low"),
        trow("T-2", "feature", "M", "integrated", 2, 1, 0.0, 1, "demo deep high"),
        trow("T-3", "refactor", "S", "abandoned", 1, 0, 0.0, 1, "(user)"),
        {"task": "(no task)", "title": "", "task_type": "", "complexity": "", "outcome": "",
         "attempts": 0, "rounds": 0, "rejections": 0, "wall_s": None,
         "waiting_s": approx(q1 + q2), "interventions": 0, "writers": [], "tests": None}]
    assert table(text, "task", "type", "size", "outcome", "attempts", "rounds", "rejections",
                 "wall", "waiting", "interventions", "tests", "writers") == [
        ["T-1", "bugfix", "S", "integrated", "1", "1", "0", walls["T-1"], fmt_s(rel), "0",
         "-", "demo fast low"],
        ["T-2", "feature", "M", "integrated", "1", "2", "1", walls["T-2"], "0.0s", "1", "-",
         "demo deep high"],
        ["T-3", "refactor", "S", "abandoned", "1", "1", "0", walls["T-3"], "0.0s", "1", "-",
         "(user)"],
        ["(no task)", "-", "-", "-", "0", "0", "0", "-", fmt_s(m["tasks"][3]["waiting_s"]), "0",
         "-", "-"]]

    # --- one view, one task ---
    one = a2a("metrics", "first-pass", "--task", "T-2", "--json", cwd=repo).json
    assert set(one) == {"last_seq", "since_ns", "task", "first_pass"}
    assert (one["first_pass"]["attempts"], one["first_pass"]["rate"],
            one["first_pass"]["by_step"]) == (1, 0.0, fp["by_step"])
    t2only = a2a("metrics", "tasks", "--task", "T-2", cwd=repo).out
    assert table(t2only, "task", "type", "size", "outcome", "attempts", "rounds", "rejections",
                 "wall", "waiting", "interventions", "tests", "writers") == [
        ["T-2", "feature", "M", "integrated", "1", "2", "1", walls["T-2"], "0.0s", "1", "-",
         "demo deep high"]]
    # --since: only what started from the second claim on (T-2 and T-3, and what they met).
    since = log.one("claimed", attempt="T-2-a1")["ts_ns"]
    # (a millisecond early: a date on the command line is read through a float)
    late = a2a("metrics", "--since", _iso(since - 1_000_000), "--json", cwd=repo).json
    assert [t["task"] for t in late["tasks"]] == ["T-2", "T-3", "(no task)"]
    assert [i["ref"] for i in late["attention"]["items"]] == ["Q-2", "typed_in_pane", "w1",
                                                              "commit"]

    # --- from the events alone: every other table dropped, the same numbers ---
    copy = tmp_path / "copy"
    # The record, not the runtime: attempts' clones, and the sessions' broker sockets (a
    # socket cannot be copied; a2a copies its store only through SQLite's backup).
    shutil.copytree(repo / ".a2a", copy / ".a2a",
                    ignore=shutil.ignore_patterns("worktrees", "broker"))
    shutil.copytree(repo / ".git", copy / ".git")
    with sqlite3.connect(copy / ".a2a/a2a.db") as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'"
                                           " AND name NOT IN ('events', 'sqlite_sequence',"
                                           " 'chain_checkpoint')")]
        assert {"attempts", "scores", "sessions", "dispatches", "board_items"} <= set(tables)
        for name in tables:
            db.execute(f"DROP TABLE {name}")
    assert a2a("metrics", "--json", cwd=copy).json == m
    assert a2a("metrics", cwd=copy).out == text


def _iso(ts_ns: int) -> str:
    from datetime import datetime

    return datetime.fromtimestamp(ts_ns / 1e9).isoformat(timespec="microseconds")


@pytest.mark.parametrize("args,code", [
    (("metrics", "nosuch"), "bad_view"),
    (("metrics", "--since", "last tuesday"), "bad_since"),
    (("metrics", "--since", "7x"), "bad_since"),
    (("metrics", "tasks", "--task", "T-9"), "unknown_task"),
])
def test_bad_input_is_one_clear_error(repo, args, code):
    r = a2a(*args, "--json", cwd=repo)
    assert r.code == 2 and r.json["error"]["code"] == code
    r = a2a(*args, cwd=repo)
    assert r.code == 2 and r.out == "" and len(r.err.strip().splitlines()) == 1
    assert f"[{code}]" in r.err


def test_rates_and_durations_read_plainly():
    assert [fmt_s(x) for x in (None, 4.24, 185, 7380, 3 * 86400 + 4 * 3600)] == \
        ["-", "4.2s", "3m05s", "2h03m", "3d04h"]
    assert [fmt_rate(x) for x in (None, 0.333, 1.0)] == ["-", "33%", "100%"]
