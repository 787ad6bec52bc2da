"""Rule 6 (seed 004 2.2 and 6.2, "阈值"): a number read from a check's output is held to the
rules' threshold; a coverage may not drop below its value at the last integration."""

from __future__ import annotations

from tests.gate.test_gate_thresholds import candidate, rules, threshold
from tests.scenarios.flows import integrate
from tests.scenarios.switches import scenario


@scenario("thresholds")
def test_a_coverage_that_drops_after_an_integration_is_rejected(repo):
    assert rules(repo).code == 0
    c, v = candidate(repo, "T-1", "TOTAL 80%\n")
    assert v.json["passed"] and integrate(repo, c["attempt"]).code == 0
    _, v = candidate(repo, "T-2", "TOTAL 70%\n")
    assert not v.json["passed"]
    assert threshold(v, "coverage")["code"] == "threshold_dropped"
