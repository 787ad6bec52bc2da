"""Rule 7 (seed 004 5.4, "人工抽检"): every Nth integration, a person is asked to look again at
one integrated attempt; what the person flags is counted."""

from __future__ import annotations

from tests.gate.test_gate_spot_checks import integrated
from tests.scenarios.switches import scenario
from tests.support import a2a, events


@scenario("spot_checks")
def test_the_second_integration_asks_the_user_to_re_check_one(repo):
    (repo / ".a2a/gate.toml").write_text("spot_check_every = 2\n")
    assert a2a("gate-rules", "accept", cwd=repo).code == 0
    done = [integrated(repo, "T-1", 1), integrated(repo, "T-2", 2)]
    asked = events(repo, "spot_check_requested")
    assert [e.attempt in done for e in asked] == [True]
    assert a2a("spot-check", asked[0].attempt, "--flag", "--reason", "hollow test",
               cwd=repo).code == 0
    sp = a2a("metrics", "first-pass", "--json", cwd=repo).json["first_pass"]["spot_checks"]
    assert sp["flagged"] == 1
