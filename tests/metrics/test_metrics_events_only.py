"""Metrics come from the event log alone: with every projection table dropped, every view gives
the same numbers."""

from __future__ import annotations

import shutil
import sqlite3

from tests.support import a2a, commit_in, write_card


def _flow(repo):
    # T-1: rejected once at its tests, then passes, integrated with scores 2/3.
    card = write_card(repo, check="grep -q fixed src/app.py")
    a2a("card", "add", str(card), cwd=repo)
    a2a("card", "ready", "T-1", cwd=repo)
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    wt = repo / ".a2a/worktrees/T-1-a1"
    for text, code in (("broken\n", 1), ("fixed\n", 0)):
        sha = commit_in(wt, {"src/app.py": text})
        a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence", str(c["fence"]),
            cwd=repo)
        assert a2a("verify", "T-1-a1", cwd=repo).code == code
    assert a2a("integrate", "T-1-a1", "--score", "boundary=2:one stray file",
               "--score", "taste=3:clean", cwd=repo).code == 0
    # T-2: passes first time, then abandoned with scores 1/1.
    card2 = write_card(repo, card_id="T-2")
    a2a("card", "add", str(card2), cwd=repo)
    a2a("card", "ready", "T-2", cwd=repo)
    c2 = a2a("claim", "T-2", "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees/T-2-a1", {"src/other.py": "y\n"})
    a2a("submit", "T-2-a1", "--sha", sha, "--card-version", "1", "--fence", str(c2["fence"]),
        cwd=repo)
    assert a2a("verify", "T-2-a1", cwd=repo).code == 0
    assert a2a("abandon", "T-2-a1", "--score", "boundary=1:a", "--score", "taste=1:b",
               cwd=repo).code == 0


def test_metrics_from_a_scripted_history(repo, tmp_path):
    _flow(repo)
    m = a2a("metrics", "--json", cwd=repo).json
    fp = m["first_pass"]
    assert (fp["attempts"], fp["concluded"], fp["first_pass"], fp["rate"]) == (2, 2, 0, 0.0)
    assert (fp["verify_runs"], fp["rejections"]) == (3, 1)
    assert fp["by_step"] == [{"step": "checks", "code": "tests", "count": 1}]
    sc = m["scores"]
    assert sc["outcomes"] == {"abandoned": 1, "integrated": 1}
    assert sc["all"]["boundary"] == {"0": 0, "1": 1, "2": 1, "3": 0}
    assert sc["all"]["taste"] == {"0": 0, "1": 1, "2": 0, "3": 1}
    # The commits carried no a2a trailers: each is a human intervention on its task.
    by_task = {g["task"]: g for g in m["attention"]["by_task"]}
    assert by_task["T-1"]["kinds"] == {"intervention": 2}
    assert by_task["T-2"]["kinds"] == {"intervention": 1}

    # Computed from events only: dropping every other table changes nothing.
    copy = tmp_path / "copy"
    shutil.copytree(repo, copy)
    with sqlite3.connect(copy / ".a2a/a2a.db") as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'"
                                           " AND name NOT IN ('events', 'sqlite_sequence',"
                                           " 'chain_checkpoint')")]
        assert {"attempts", "scores", "verifications", "sessions", "board_items"} <= set(tables)
        for table in tables:
            db.execute(f"DROP TABLE {table}")
    assert a2a("metrics", "--json", cwd=copy).json == m
