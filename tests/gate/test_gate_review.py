"""Independent review: bound to the SHA, only from a fresh reviewer session, can only block.

Reviewer processes are registered as sessions by pid (as `a2a spawn` registers a pane's
process), so identity comes from the process tree as in real use.
"""

from __future__ import annotations

import json
import os
import subprocess

from tests.support import A2A, a2a, a2a_as, commit_in, git, repoint_session, store

SCORES = ("--score", "boundary=3:a", "--score", "taste=3:b")


def _review(repo, session, attempt, sha, verdict="pass", role="reviewer"):
    return a2a_as(repo, session, role, "review", attempt, "--sha", sha, "--verdict", verdict,
                  "--notes", "read the diff and the tests", "--json")


def test_a_block_review_stops_integration_of_that_sha(repo, verified):
    attempt, claim, sha = verified
    r = a2a("review", attempt, "--sha", sha, "--verdict", "pass", "--notes", "lgtm", "--json",
            cwd=repo)
    assert r.json["error"]["code"] == "role_forbidden"  # the user does not "review"
    assert _review(repo, "w9", attempt, sha, role="worker").json["error"]["code"] == \
        "role_forbidden"
    stale = _review(repo, "rev0", attempt, claim["start_commit"], "block")
    assert stale.json["error"]["code"] == "stale_sha"
    block = _review(repo, "rev1", attempt, sha, "block")
    assert block.code == 0, block.out + block.err
    assert block.json["session"] == "rev1"
    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert r.json["error"]["code"] == "review_blocked"
    assert git(repo, "rev-parse", "main") == claim["start_commit"]


def test_a_pass_review_approves_nothing_on_its_own(repo, ready_card):
    c = a2a("claim", ready_card, "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees/T-1-a1", {"src/app.py": "r = 2\n"})
    a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence", str(c["fence"]),
        cwd=repo)
    assert _review(repo, "rev2", "T-1-a1", sha).code == 0
    r = a2a("integrate", "T-1-a1", *SCORES, "--json", cwd=repo)
    assert r.json["error"]["code"] == "not_verified"


def test_reviewer_started_before_the_submission_is_not_fresh(repo, ready_card):
    early = _review(repo, "early", "T-1-a1", "0" * 40)
    assert early.json["error"]["code"] == "unknown_attempt"
    c = a2a("claim", ready_card, "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees/T-1-a1", {"src/app.py": "r = 1\n"})
    a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence", str(c["fence"]),
        cwd=repo)
    # Same session id "early", registered before the submission: a new process with that
    # registration is refused because the session's launch predates the submission.
    s = store(repo)
    launch = s.one("SELECT launch_seq FROM sessions WHERE id='early'")[0]
    sub = s.one("SELECT seq FROM submissions WHERE attempt_id='T-1-a1'")[0]
    s.close()
    assert launch < sub
    proc = subprocess.Popen(
        ["sh", "-c", 'read go; exec "$@"', "sh", *A2A, "review",
         "T-1-a1", "--sha", sha, "--verdict", "pass", "--notes", "ok", "--json"],
        cwd=repo, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=dict(os.environ))
    # The old session's pane process is now this process (its launch is still the old one).
    repoint_session(repo, "early", proc.pid)
    out, _ = proc.communicate("go\n", timeout=60)
    assert json.loads(out)["error"]["code"] == "reviewer_not_fresh"


def test_the_writer_cannot_review_its_own_attempt(repo, ready_card):
    c = a2a("claim", ready_card, "--writer", "w1", "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees/T-1-a1", {"src/app.py": "r = 3\n"})
    assert a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence",
               str(c["fence"]), cwd=repo).code == 0
    r = _review(repo, "w1", "T-1-a1", sha)
    assert r.json["error"]["code"] == "reviewer_is_writer"
