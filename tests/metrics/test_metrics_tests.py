"""The tests each attempt's verifies ran, passed, masked and dropped, from the reports, in the
first-pass and tasks views."""

from __future__ import annotations

from tests.gate import runners_support as calc
from tests.support import a2a


def test_tests_run_passed_masked_and_dropped_per_attempt(tmp_path):
    repo = calc.py_repo(tmp_path)
    c, _ = calc.py_claim(repo)
    masked = calc.verify_files(repo, c, {"src/calc.py": calc.BROKEN_MUL,
                                         "tests/test_calc.py": calc.SKIPPED_MUL})
    assert masked.json["verdict"] == "rejected", masked.out
    honest = calc.verify_files(repo, c, {
        "src/calc.py": calc.FIXED, "tests/test_calc.py": "from calc import add, mul, sub\n\n\n"
        + "\n\n".join((calc.TEST_MUL, calc.TEST_SUB, calc.TEST_ADD))})
    assert honest.json["verdict"] == "passed", honest.out
    assert calc.integrate(repo, c["attempt"]).code == 0
    want = {"run": 3, "passed": 3, "masked": 1, "dropped": 0}
    m = a2a("metrics", "--json", cwd=repo).json
    assert m["first_pass"]["tests"] == want
    (task,) = m["tasks"]
    assert task["tests"] == want
    text = a2a("metrics", "tasks", cwd=repo).out
    assert "3/3 passed, 1 masked" in text, text
    assert "tests: 3/3 passed, 1 masked" in a2a("metrics", "first-pass", cwd=repo).out
