"""Rule 3 (seed 001, "人工批准约束外部写入"): an approval has a period and can be revoked; a lapsed
one authorizes nothing, and the check is made where it is consumed, with the action."""

from __future__ import annotations

import time

from tests.scenarios.flows import card, claim, error_code, head, integrate, submit, verify, worktree
from tests.scenarios.switches import scenario
from tests.support import a2a, commit_in, events, rows


@scenario("approval_lapses")
def test_a_revoked_or_expired_approval_lets_nothing_in(repo):
    card(repo, extra='integrate_approval = "user"')
    c = claim(repo)
    sha = commit_in(worktree(repo, c), {"src/app.py": "v = 2\n"})
    assert submit(repo, c, sha).code == 0 and verify(repo, c["attempt"]).json["passed"]
    start = head(repo)
    assert a2a("approve", c["attempt"], cwd=repo).code == 0
    assert a2a("approve", c["attempt"], "--revoke", "--reason", "wait", cwd=repo).code == 0
    assert error_code(integrate(repo, c["attempt"])) == "approval_revoked"
    assert a2a("approve", c["attempt"], "--valid-for", "1s", cwd=repo).code == 0
    # The newest approval's instant (the first one, revoked, holds the rules' default period).
    expires = rows(repo, "SELECT expires_ns AS e FROM approvals ORDER BY seq DESC LIMIT 1")[0]["e"]
    assert expires - time.time_ns() <= 1e9, "approved for 1 s"
    while time.time_ns() <= expires:   # until the instant it names
        time.sleep(0.05)
    assert error_code(integrate(repo, c["attempt"])) == "approval_expired"
    assert head(repo) == start and not events(repo, "approval_consumed")
