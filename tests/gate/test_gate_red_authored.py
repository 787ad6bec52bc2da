"""The user wrote the failing test first: the start commit holds it, the worker changes only
the code. The red command fails on the start commit and passes on the candidate, and the test
is the start commit's own — that is a red→green (issue 36, finding 5). A candidate that edits
or weakens that test instead of fixing the code is still refused."""

from __future__ import annotations

from tests.gate.runners_support import (
    CALC,
    FIXED,
    PY_FILES,
    PYTEST,
    TEST_ADD,
    _init,
    integrate,
    py_claim,
    refused,
    verify_files,
)
from tests.gate.verify_support import result
from tests.support import make_repo

AUTHORED = f"from calc import add\n\n\n{TEST_ADD}"
RED = f'red_command = "{PYTEST}"\n'


def _repo(tmp_path):
    return _init(make_repo(tmp_path / "repo", {**PY_FILES, "tests/test_add.py": AUTHORED}))


def test_an_honest_fix_of_the_users_own_failing_test_integrates(tmp_path):
    repo = _repo(tmp_path)
    c, _ = py_claim(repo, extra=RED)
    v = verify_files(repo, c, {"src/calc.py": FIXED})
    assert v.json["verdict"] == "passed", result(v, "red")
    red = result(v, "red")
    assert "tests/test_add.py::test_add" in red["detail"], red
    r = integrate(repo, c["attempt"])
    assert r.code == 0, r.out + r.err


def test_an_honest_fix_that_also_adds_a_test_beside_the_users_integrates(tmp_path):
    repo = _repo(tmp_path)
    c, _ = py_claim(repo, extra=RED)
    more = AUTHORED + "\n\ndef test_add_zero():\n    assert add(0, 4) == 4\n"
    v = verify_files(repo, c, {"src/calc.py": FIXED, "tests/test_add.py": more})
    assert v.json["verdict"] == "passed", result(v, "red")


def test_the_users_test_weakened_into_passing_is_refused(tmp_path):
    """add stays broken; the test now asks for what the broken add returns."""
    repo = _repo(tmp_path)
    c, _ = py_claim(repo, extra=RED)
    weak = AUTHORED.replace("== 5", "== -1")
    v = verify_files(repo, c, {"src/calc.py": CALC + "\n", "tests/test_add.py": weak})
    refused(v, "not_red", step="red")


def test_the_users_test_weakened_beside_a_red_decoy_is_refused(tmp_path):
    """A decoy test of a new function gives the red step a red→green; the user's test is
    weakened to pass on the broken add: its start-commit version still fails on the
    candidate's code."""
    repo = _repo(tmp_path)
    c, _ = py_claim(repo, extra=RED)
    weak = (AUTHORED.replace("== 5", "== -1")
            + "\n\ndef test_double():\n    from calc import double\n    assert double(2) == 4\n")
    v = verify_files(repo, c, {"src/calc.py": CALC + "\n\ndef double(a):\n    return 2 * a\n",
                               "tests/test_add.py": weak})
    refused(v, "test_masked", "tests/test_add.py::test_add", step="red")


def test_the_users_test_edited_to_match_a_wrong_fix_is_refused(tmp_path):
    """The code changes (add now multiplies) and the test is edited to match: red on the start
    commit, green on the candidate, but the user's own test still fails on that code."""
    repo = _repo(tmp_path)
    c, _ = py_claim(repo, extra=RED)
    edited = AUTHORED.replace("== 5", "== 6")
    wrong = CALC.replace("return a - b\n\n\ndef mul", "return a * b\n\n\ndef mul")
    v = verify_files(repo, c, {"src/calc.py": wrong, "tests/test_add.py": edited})
    assert v.json["verdict"] == "rejected", v.out
    red = result(v, "red")
    assert red["code"] in ("not_red", "test_masked"), red


def test_an_assertion_free_decoy_is_not_a_red_test(tmp_path):
    """Issue 36, finding 6: a new test that asserts nothing (it only fails on the start commit
    because the function it calls is new) does not make a red→green; add stays broken."""
    repo = _init(make_repo(tmp_path / "repo", dict(PY_FILES)))
    c, _ = py_claim(repo, extra=RED)
    decoy = "def test_double():\n    from calc import double\n    double(2)\n"
    v = verify_files(repo, c, {"src/calc.py": CALC + "\n\ndef double(a):\n    return 2 * a\n",
                               "tests/test_double.py": decoy})
    refused(v, "no_assertions", "tests/test_double.py::test_double", step="red")


def test_a_red_test_checking_with_pytest_raises_counts(tmp_path):
    repo = _init(make_repo(tmp_path / "repo", dict(PY_FILES)))
    c, _ = py_claim(repo, extra=RED)
    raises = ("import pytest\n\n\ndef test_div_refuses_zero():\n    from calc import div\n"
              "    with pytest.raises(ValueError):\n        div(1, 0)\n")
    div = ("\n\ndef div(a, b):\n    if b == 0:\n        raise ValueError('b is 0')\n"
           "    return a / b\n")
    v = verify_files(repo, c, {"src/calc.py": CALC + div, "tests/test_div.py": raises})
    assert v.json["verdict"] == "passed", result(v, "red")


def test_the_users_test_skipped_beside_a_red_decoy_is_refused(tmp_path):
    """Issue 36, finding 2 in pytest's words: the start commit's failing test masked (skip;
    libtest's #[ignore] leaves it out of the report altogether) beside a decoy red test."""
    repo = _repo(tmp_path)
    c, _ = py_claim(repo, extra=RED)
    masked = ("import pytest\nfrom calc import add\n\n\n@pytest.mark.skip(reason='later')\n"
              + TEST_ADD + "\n\ndef test_double():\n    from calc import double\n"
              "    assert double(2) == 4\n")
    v = verify_files(repo, c, {"src/calc.py": CALC + "\n\ndef double(a):\n    return 2 * a\n",
                               "tests/test_add.py": masked})
    refused(v, "test_masked", "tests/test_add.py::test_add", step="red")


def test_the_users_test_deleted_beside_a_red_decoy_is_refused(tmp_path):
    repo = _repo(tmp_path)
    c, _ = py_claim(repo, extra=RED)
    decoy = "def test_double():\n    from calc import double\n    assert double(2) == 4\n"
    v = verify_files(repo, c, {"src/calc.py": CALC + "\n\ndef double(a):\n    return 2 * a\n",
                               "tests/test_add.py": decoy})
    refused(v, "test_dropped", "tests/test_add.py::test_add", step="red")
