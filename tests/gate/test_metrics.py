"""Metrics come from the event log alone: first-pass rate, rejection reasons, attention, scores."""

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
    assert (fp["attempts_verified"], fp["passed_first_time"], fp["rate"]) == (2, 1, 0.5)
    assert fp["verify_runs"] == 3
    assert fp["rejection_reasons"] == {"tests": 1}
    assert m["scores"]["outcomes"] == {"integrated": 1, "abandoned": 1}
    assert m["scores"]["boundary"] == {"0": 0, "1": 1, "2": 1, "3": 0}
    assert m["scores"]["taste"] == {"0": 0, "1": 1, "2": 0, "3": 1}
    # The commits carried no a2a trailers: each is a human intervention on its task.
    assert m["attention"]["by_task"]["T-1"]["human interventions"] == 2
    assert m["attention"]["by_task"]["T-2"]["human interventions"] == 1

    # Computed from events only: wiping every projection changes nothing.
    copy = tmp_path / "copy"
    shutil.copytree(repo, copy)
    with sqlite3.connect(copy / ".a2a/a2a.db") as db:
        for table in ("attempts", "verifications", "check_results", "scores", "submissions",
                      "integrations"):
            db.execute(f"DELETE FROM {table}")
    assert a2a("metrics", "--json", cwd=copy).json == m
