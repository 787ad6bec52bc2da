"""Reviews and the user's approval in the metrics, from the events the real gate writes: a
`fail` verdict is a rejection at step `review`, and the user's approval is an attention item
that waited from the candidate's last pass to the approval."""

from __future__ import annotations

from pathlib import Path

from a2a_tui import metrics
from a2a_tui.store import Store
from tests.support import (
    a2a,
    add_ready_card,
    commit_in,
    give_verdict,
    review_report,
    start_review,
)

SCORES = ("--score", "boundary=3:in bounds", "--score", "taste=2:fine")


def test_a_fail_verdict_is_a_review_rejection_and_the_approval_is_attention(world, repo):
    add_ready_card(repo, extra='integrate_approval = "user"')
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    sha = commit_in(Path(c["worktree"]), {"src/app.py": "def name(n):\n    return n or 1\n"})
    assert a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
               str(c["fence"]), cwd=repo).code == 0
    assert a2a("verify", c["attempt"], "--json", cwd=repo).json["passed"]
    rid = start_review(repo, world.sock, c["attempt"]).json["session"]
    fail = review_report("fail", issues=[("B1", "Empty names", ["src/app.py:1"])])
    assert give_verdict(repo, rid, c["attempt"], sha, fail).code == 0
    assert a2a("review", "dispose", c["attempt"], "B1", "--reject", "--reason", "by design",
               cwd=repo).code == 0
    assert a2a("approve", c["attempt"], cwd=repo).code == 0
    assert a2a("integrate", c["attempt"], *SCORES, cwd=repo).code == 0

    with Store(repo / ".a2a" / "a2a.db") as store:
        fp = metrics.compute_json(store, "first-pass")["first_pass"]
        at = metrics.compute_json(store, "attention")["attention"]
        usage = metrics.compute_json(store, "usage")
    assert {"step": "review", "code": "fail", "count": 1} in fp["by_step"]
    assert fp["rejections"] == 1 and fp["concluded"] == 1
    (approval,) = [i for i in at["items"] if i["kind"] == "approval"]
    assert (approval["ref"], approval["state"]) == (c["attempt"], "done")
    assert approval["waited_s"] is not None and approval["waited_s"] >= 0
    assert rid in str(usage)   # the reviewer is listed under the attempt it served
