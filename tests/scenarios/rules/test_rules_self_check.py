"""Rule 9 (seed 004 4.2, "Coder 的自检"): the worker's own check travels with its submission, is
kept and never trusted (the gate's verify decides), and its agreement with the gate is counted."""

from __future__ import annotations

from tests.scenarios.flows import card, claim, worktree
from tests.scenarios.switches import scenario
from tests.support import a2a, commit_in


@scenario("self_check_kept")
def test_a_workers_it_passes_is_weighed_against_the_gate_not_believed(repo):
    card(repo, check="grep -q 'v = 2' src/app.py")
    c = claim(repo)
    sha = commit_in(worktree(repo, c), {"src/app.py": "v = 3\n"})
    assert a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
               str(c["fence"]), "--self-check", "true", "--self-check-saw", "passed",
               cwd=repo).code == 0
    v = a2a("verify", c["attempt"], "--json", cwd=repo)
    assert not v.json["passed"]                       # not believed
    sc = a2a("metrics", "first-pass", "--json", cwd=repo).json["first_pass"]["self_check"]
    assert (sc["reported"], sc["agreed"], sc["said_passed_gate_failed"]) == (1, 0, 1)
