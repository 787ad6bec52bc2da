"""Rejection feedback goes to the writer's pane as a ⟦门禁 #n⟧ dispatch, first error first,
and stops after three consecutive rejections."""

from __future__ import annotations

import sqlite3

from tests.support import a2a, commit_in, write_card

CHECK = "printf '\\033[31mE   assert name != \"\"\\033[0m\\n' >&2; exit 1"


def _dispatches(repo):
    with sqlite3.connect(repo / ".a2a/a2a.db") as db:
        return db.execute("SELECT session, source, text FROM dispatches ORDER BY n").fetchall()


def test_feedback_to_the_writer_pane_then_stops_after_three(repo):
    card = write_card(repo, check=CHECK)
    a2a("card", "add", str(card), cwd=repo)
    a2a("card", "ready", "T-1", cwd=repo)
    c = a2a("claim", "T-1", "--writer", "w1", "--json", cwd=repo).json
    wt = repo / ".a2a/worktrees/T-1-a1"
    for i in range(4):
        sha = commit_in(wt, {"src/app.py": f"v = {i}\n"})
        assert a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence",
                   str(c["fence"]), cwd=repo).code == 0
        assert a2a("verify", "T-1-a1", cwd=repo).code == 1
        sent = _dispatches(repo)
        assert len(sent) == min(i + 1, 3), sent
    session, source, text = sent[0]
    assert session == "w1" and source == "gate"
    assert text.startswith("⟦门禁 #1⟧ The gate rejected T-1-a1")
    first_failure = text.index("First failure: tests")
    assert first_failure < text.index('assert name != ""')
    assert "\x1b" not in text  # colours from the check are stripped
    assert "--fence 1" in text
    fb = [e["payload"] for e in a2a("events", "--json", cwd=repo).json
          if e["kind"] == "gate_feedback"]
    assert [f["sent"] for f in fb] == [True, True, True, False]
    assert "limit 3" in fb[-1]["why"]


def test_no_pane_feedback_when_the_user_is_the_writer(repo):
    card = write_card(repo, check="exit 1")
    a2a("card", "add", str(card), cwd=repo)
    a2a("card", "ready", "T-1", cwd=repo)
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees/T-1-a1", {"src/app.py": "x\n"})
    a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence", str(c["fence"]),
        cwd=repo)
    assert a2a("verify", "T-1-a1", cwd=repo).code == 1
    assert _dispatches(repo) == []
