"""Rule 1 (seed 001, "失联尝试怎样重新派发"): a lease the writer's reports renew, whose expiry
isolates the attempt (the orchestrator finds it on its own) rather than dispatching it again;
and a retry budget per card, never reset."""

from __future__ import annotations

from tests.scenarios.flows import SCORES, card, claim, error_code, submit, worktree
from tests.scenarios.switches import scenario
from tests.support import a2a, commit_in, events, rows, wait_until


def rules(repo, text: str) -> None:
    (repo / ".a2a/gate.toml").write_text(text)
    assert a2a("gate-rules", "accept", cwd=repo).code == 0


@scenario("lease_isolates")
def test_a_silent_writers_attempt_is_isolated_by_the_orchestrator_not_redispatched(
        repo, tmux_socket, serve):
    rules(repo, "lease_s = 1\n")
    card(repo)
    c = claim(repo, "T-1", "--writer", "w1")
    sha = commit_in(worktree(repo, c), {"src/app.py": "v = 2\n"})
    serve()
    wait_until(lambda: events(repo, "lease_expired"), timeout=20, what="the lease to expire")
    assert rows(repo, "SELECT COUNT(*) AS n FROM board_items WHERE attempt = ?",
                (c["attempt"],))[0]["n"] == 1
    assert not rows(repo, "SELECT * FROM dispatches")
    assert len(events(repo, "claimed")) == 1      # no new attempt either
    assert error_code(submit(repo, c, sha)) == "lease_expired"


@scenario("retry_budget")
def test_a_card_claimed_past_its_budget_is_refused(repo):
    rules(repo, "retry_budget = 2\n")
    card(repo)
    for _ in range(2):
        c = claim(repo)
        assert a2a("abandon", c["attempt"], *SCORES, cwd=repo).code == 0
    r = a2a("claim", "T-1", "--json", cwd=repo)
    assert error_code(r) == "retry_budget_spent", r.out
