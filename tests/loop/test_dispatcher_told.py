"""The executive controller that dispatched an attempt is told in its pane when its worker
submits (and when its review has a verdict), so the loop goes on without the user carrying the
news (issue 28); an attempt the user claimed tells nobody."""

from __future__ import annotations

import subprocess

from tests.support import a2a, a2a_as, add_ready_card, commit_in, repoint_session, rows


def test_the_dispatching_executive_is_told_of_the_submission(repo):
    add_ready_card(repo, "T-1")
    claim = a2a_as(repo, "exec1", "executive", "claim", "T-1", "--json")
    assert claim.code == 0, claim.err
    att = claim.json
    live = subprocess.Popen(["sleep", "120"])
    try:
        repoint_session(repo, "exec1", live.pid)
        sha = commit_in(repo / ".a2a/worktrees" / att["attempt"], {"src/app.py": "v = 2\n"})
        r = a2a("submit", att["attempt"], "--sha", sha, "--card-version", "1", "--fence",
                str(att["fence"]), cwd=repo)
        assert r.code == 0, r.err
        [d] = rows(repo, "SELECT session, text, source FROM dispatches")
        assert d["session"] == "exec1" and d["source"] == "gate"
        assert f"T-1-a1 submitted {sha}" in d["text"] and "`a2a verify T-1-a1`" in d["text"]
    finally:
        live.kill()
        live.wait()


def test_an_attempt_the_user_claimed_tells_nobody(repo):
    add_ready_card(repo, "T-1")
    att = a2a("claim", "T-1", "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees" / att["attempt"], {"src/app.py": "v = 2\n"})
    assert a2a("submit", att["attempt"], "--sha", sha, "--card-version", "1", "--fence",
               str(att["fence"]), cwd=repo).code == 0
    assert rows(repo, "SELECT n FROM dispatches") == []
