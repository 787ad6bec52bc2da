"""A review is advice bound to one SHA: a pass approves nothing on its own, and a `block` given
before verdicts had reports still stops that SHA until the user overrides it.

The launch, the verdict's freshness rules, the report and what a review decides at integration
are in test_gate_review_launch.py, _verdict.py, _report.py and _rules.py.
"""

from __future__ import annotations

from a2a_tui.payloads.reviews import Reviewed
from tests.support import (
    a2a,
    commit_in,
    error_code,
    git,
    give_verdict,
    review_report,
    start_review,
    store,
)

SCORES = ("--score", "boundary=3:a", "--score", "taste=3:b")


def test_a_pass_review_approves_nothing_on_its_own(world, repo, ready_card):
    c = a2a("claim", ready_card, "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees/T-1-a1", {"src/app.py": "r = 2\n"})
    a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence", str(c["fence"]),
        cwd=repo)
    rid = start_review(repo, world.sock, "T-1-a1").json["session"]
    assert give_verdict(repo, rid, "T-1-a1", sha, review_report("pass")).code == 0
    assert error_code(a2a("integrate", "T-1-a1", *SCORES, "--json", cwd=repo)) == "not_verified"


def test_a_block_from_before_reports_stops_its_sha_until_the_user_overrides(repo, verified):
    attempt, claim, sha = verified
    # A verdict an a2a from before reports recorded (pass | block, with notes), as it wrote it
    # (its id is the event's seq since migration 6).
    notes = "no test for empty names"
    with store(repo) as s, s.write() as tx:
        seq = tx.append("reviewed", actor="session:r1", task=claim["card"], attempt=attempt,
                        session="r1", payload=Reviewed(sha=sha, submission=1, verdict="block",
                                                       notes=notes))
        tx.execute("INSERT INTO reviews(id, attempt_id, submission_n, sha, session, verdict,"
                   " notes, seq) VALUES (?, ?, 1, ?, 'r1', 'block', ?, ?)",
                   (seq, attempt, sha, notes, seq))
    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert error_code(r) == "review_blocked" and "no test for empty names" in r.out
    assert git(repo, "rev-parse", "main") == claim["start_commit"]
    assert a2a("review", "override", attempt, "--reason", "read it: covered", cwd=repo).code == 0
    assert a2a("integrate", attempt, *SCORES, cwd=repo).code == 0
    assert git(repo, "rev-parse", "main") == sha
