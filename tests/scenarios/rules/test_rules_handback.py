"""The seeds' rules (issue 38), each with its counterexample. Rule 2 (seed 003 四, "等待超时不代表
worker 挂了"): an attempt is taken from its writer only once the writer is idle and its work
submitted; seeing the commit land is not enough."""

from __future__ import annotations

from tests.scenarios.flows import card, claim, error_code, submit, worktree
from tests.scenarios.switches import scenario
from tests.support import a2a, commit_in, events, hooked, register_session


@scenario("handback_waits_for_writer")
def test_a_writer_mid_turn_is_not_superseded_until_idle_and_submitted(repo):
    card(repo)
    c = claim(repo, "T-1", "--writer", "w1")
    register_session(repo, "w1", cli="claude", attempt=c["attempt"], state="unknown")
    assert hooked(repo, "w1", "SessionStart", "UserPromptSubmit") == "busy"
    sha = commit_in(worktree(repo, c), {"src/app.py": "v = 2\n"})   # the commit landed
    r = a2a("claim", "T-1", "--supersede", "--json", cwd=repo)
    assert error_code(r) == "writer_busy", r.out
    assert hooked(repo, "w1", "Stop") == "idle"
    r = a2a("claim", "T-1", "--supersede", "--json", cwd=repo)
    assert error_code(r) == "delivery_unsubmitted", r.out
    assert not events(repo, "attempt_superseded")
    assert submit(repo, c, sha).code == 0
    assert claim(repo, "T-1", "--supersede")["superseded"] == [c["attempt"]]
