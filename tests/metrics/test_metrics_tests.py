"""The tests each attempt's verifies ran, passed, masked and dropped, from the reports, in the
first-pass and tasks views."""

from __future__ import annotations

from tests.gate.runners_support import (
    BROKEN_MUL,
    FIXED,
    TEST_ADD,
    TEST_MUL,
    TEST_SUB,
    integrate,
    py_claim,
    py_repo,
    verify_files,
)
from tests.support import a2a

SKIPPED = ("import pytest\nfrom calc import mul, sub\n\n\n@pytest.mark.skip(reason='later')\n"
           f"{TEST_MUL}\n\n{TEST_SUB}")


def test_tests_run_passed_masked_and_dropped_per_attempt(tmp_path):
    repo = py_repo(tmp_path)
    c, _ = py_claim(repo)
    masked = verify_files(repo, c, {"src/calc.py": BROKEN_MUL, "tests/test_calc.py": SKIPPED})
    assert masked.json["verdict"] == "rejected", masked.out
    honest = verify_files(repo, c, {"src/calc.py": FIXED, "tests/test_calc.py":
                                    f"from calc import add, mul, sub\n\n\n{TEST_MUL}\n\n"
                                    f"{TEST_SUB}\n\n{TEST_ADD}"})
    assert honest.json["verdict"] == "passed", honest.out
    assert integrate(repo, c["attempt"]).code == 0
    want = {"run": 3, "passed": 3, "masked": 1, "dropped": 0}
    m = a2a("metrics", "--json", cwd=repo).json
    assert m["first_pass"]["tests"] == want
    (task,) = m["tasks"]
    assert task["tests"] == want
    text = a2a("metrics", "tasks", cwd=repo).out
    assert "3/3 passed, 1 masked" in text, text
    assert "tests: 3/3 passed, 1 masked" in a2a("metrics", "first-pass", cwd=repo).out
