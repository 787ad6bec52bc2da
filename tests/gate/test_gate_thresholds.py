"""Rule 6 (seed 004 2.2, 6.2, "阈值"): gate.toml's thresholds, read from a check's output: a
coverage baseline that may not drop below the last integrated value, a maximum of warnings
recorded but not blocking; a weaker threshold is the user's decision, said when accepted."""

from __future__ import annotations

import pytest

from a2a_tui.errors import A2AError
from a2a_tui.gate.cards.gate_rules import parse
from tests.scenarios.flows import card, claim, error_code, integrate, submit, verify, worktree
from tests.support import a2a, a2a_as, commit_in, events

RULES = """\
[[thresholds]]
name = "coverage"
check = "tests"
value = 'TOTAL\\s+(\\d+(?:\\.\\d+)?)%'
no_drop = true
at_least = 50

[[thresholds]]
name = "warnings"
check = "tests"
count = '^warning:'
at_most = 1
blocking = false
"""


def rules(repo, text: str = RULES):
    (repo / ".a2a/gate.toml").write_text(text)
    return a2a("gate-rules", "accept", "--json", cwd=repo)


def candidate(repo, card_id: str, output: str):
    """A card whose check prints src/app.py, claimed, with `output` committed there, verified."""
    card(repo, card_id, check="cat src/app.py")
    c = claim(repo, card_id)
    sha = commit_in(worktree(repo, c), {"src/app.py": output})
    assert submit(repo, c, sha).code == 0
    return c, verify(repo, c["attempt"])


def threshold(v, name: str) -> dict:
    return next(r for r in v.json["checks"] if r["name"] == f"tests/{name}")


def test_a_coverage_below_the_last_integrated_value_is_rejected(repo):
    assert rules(repo).code == 0
    c, v = candidate(repo, "T-1", "TOTAL 80%\nwarning: a\nwarning: b\n")
    assert v.json["passed"], v.out
    warn = threshold(v, "warnings")
    assert (warn["passed"], warn["blocking"], warn["threshold"]["value"]) == (False, False, 2)
    cov = threshold(v, "coverage")
    assert cov["passed"] and cov["threshold"]["value"] == 80 and cov["threshold"]["baseline"] \
        is None
    (verdict,) = events(repo, "verified")
    assert {t["name"]: t["value"] for t in verdict.payload["thresholds"]} == \
        {"coverage": 80, "warnings": 2}
    assert integrate(repo, c["attempt"]).code == 0
    c2, v2 = candidate(repo, "T-2", "TOTAL 79.5%\n")
    assert not v2.json["passed"]
    cov = threshold(v2, "coverage")
    assert cov["code"] == "threshold_dropped" and cov["threshold"]["baseline"] == 80, cov
    assert c["attempt"] in cov["detail"]
    (rejected,) = events(repo, "rejected")
    assert rejected.payload["first_failure_code"] == "threshold_dropped"
    by_step = a2a("metrics", "first-pass", "--json", cwd=repo).json["first_pass"]["by_step"]
    assert {"step": "threshold", "code": "tests/coverage", "count": 1} in by_step, by_step
    _, v3 = candidate(repo, "T-3", "TOTAL 80%\n")
    assert v3.json["passed"], v3.out


def test_an_output_without_the_number_is_unmeasured_and_blocks(repo):
    assert rules(repo).code == 0
    _, v = candidate(repo, "T-1", "no totals here\n")
    assert not v.json["passed"]
    assert threshold(v, "coverage")["code"] == "threshold_unmeasured"
    assert threshold(v, "warnings")["passed"]   # no warning line: 0


def test_a_minimum_is_held_without_a_baseline(repo):
    assert rules(repo).code == 0
    _, v = candidate(repo, "T-1", "TOTAL 40%\n")
    cov = threshold(v, "coverage")
    assert not v.json["passed"] and cov["code"] == "threshold_not_met", cov


def test_a_weaker_threshold_is_named_when_the_user_accepts_it(repo):
    assert rules(repo).code == 0
    weaker = RULES.replace("at_least = 50", "at_least = 40").replace("no_drop = true\n", "")
    (repo / ".a2a/gate.toml").write_text(weaker)
    shown = a2a("gate-rules", cwd=repo).out
    assert "threshold coverage: tests value, at least 50, no drop, blocks" in shown, shown
    assert "weakens: threshold 'coverage' no_drop turned off" in shown, shown
    r = a2a_as(repo, "x1", "executive", "gate-rules", "accept", "--json")
    assert error_code(r) == "role_forbidden"
    r = a2a("gate-rules", "accept", "--json", cwd=repo)
    assert r.code == 0, r.out
    (done,) = r.json["accepted"]
    assert done["weakens"] == ["threshold 'coverage' at_least lowered from 50.0 to 40.0",
                               "threshold 'coverage' no_drop turned off"], done
    assert events(repo, "rules_accepted")[-1].payload["weakens"] == done["weakens"]
    assert rules(repo, weaker.replace("blocking = false\n", "")).json["accepted"][0][
        "weakens"] == []


def test_a_bad_threshold_is_refused_with_its_field(tmp_path):
    for text, field in (("[[thresholds]]\nname='c'\ncheck='tests'\nat_most=1\n", "thresholds"),
                        ("[[thresholds]]\nname='c'\ncheck='tests'\nvalue='('\nat_most=1\n",
                         "thresholds.value"),
                        ("[[thresholds]]\nname='c'\ncheck='tests'\nvalue='x'\nat_most=1\n",
                         "thresholds.value"),
                        ("[[thresholds]]\nname='c'\ncheck='tests'\ncount='x'\n", "thresholds"),
                        (RULES + RULES, "thresholds")):
        with pytest.raises(A2AError) as exc:
            parse(text, tmp_path / "gate.toml")
        assert exc.value.code == "bad_gate_rules", text
        assert exc.value.details["field"] == field, (text, exc.value.message)
