"""Red in full: the candidate's new tests fail on its base and pass on the candidate, and no test
that passed on the base is deleted (`test_dropped`), skipped or marked xfail (`test_masked`) on
the candidate — judged from the runs' test reports — unless the card allows it. A deleted test
file is caught without a report too (judged by path, in the per-test step)."""

from __future__ import annotations

import pytest

from tests.gate.verify_support import (
    PY,
    PYTEST,
    PYTEST_FILES,
    claim,
    pytest_repo,
    result,
    submit_verify,
)
from tests.support import commit_in, git

RED = f'red_command = "{PY} -m pytest -q tests"\n'
FIXED = ("def name(n):\n    if not n:\n        raise ValueError('name is empty')\n    return n\n"
         "\n\ndef shout(n):\n    return n.upper()\n")
NEW_TEST = ("import pytest\nfrom names import name\n\n\n"
            "def test_refuses_an_empty_name():\n    with pytest.raises(ValueError):\n"
            "        name('')\n")
BROKEN = FIXED.replace("return n.upper()", "return n")
KEEPS = ("from names import name, shout\n\n\n"
         "def test_keeps_a_name():\n    assert name('ada') == 'ada'\n\n\n")
SHOUTS = "def test_shouts():\n    assert shout('ada') == 'ADA'\n"


def test_an_honest_candidate_passes_red(tmp_path):
    repo = pytest_repo(tmp_path)
    c, _ = claim(repo, PYTEST, extra=RED)
    v = submit_verify(repo, c, {"src/names.py": FIXED, "tests/test_empty.py": NEW_TEST})
    assert v.json["verdict"] == "passed", v.out
    assert "green on candidate" in result(v, "red")["detail"]


@pytest.mark.parametrize("how, tests_file", [
    ("deleted", KEEPS),
    ("xfail", "import pytest\n" + KEEPS + "@pytest.mark.xfail\n" + SHOUTS),
    ("skipped", "import pytest\n" + KEEPS + "@pytest.mark.skip(reason='later')\n" + SHOUTS),
], ids=["deleted", "xfail", "skipped"])
def test_a_test_the_candidate_drops_rejects_naming_it(tmp_path, how, tests_file):
    repo = pytest_repo(tmp_path)
    c, _ = claim(repo, PYTEST, extra=RED)
    v = submit_verify(repo, c, {"src/names.py": BROKEN, "tests/test_empty.py": NEW_TEST,
                                "tests/test_names.py": tests_file})
    assert v.json["verdict"] == "rejected", v.out
    red = result(v, "red")
    assert red["code"] == ("test_dropped" if how == "deleted" else "test_masked"), red
    assert "tests/test_names.py::test_shouts" in red["detail"] and how in red["detail"]


def test_a_test_dropped_in_configuration_rejects(tmp_path):
    repo = pytest_repo(tmp_path)
    c, _ = claim(repo, PYTEST, extra=RED)
    conftest = (PYTEST_CONFTEST + "\n\ndef pytest_collection_modifyitems(items):\n"
                "    items[:] = [i for i in items if i.name != 'test_shouts']\n")
    v = submit_verify(repo, c, {"src/names.py": BROKEN, "tests/test_empty.py": NEW_TEST,
                                "tests/conftest.py": conftest})
    red = result(v, "red")
    assert red["code"] == "test_dropped" and "tests/test_names.py::test_shouts" in red["detail"]


PYTEST_CONFTEST = ("import sys, pathlib\n"
                   "sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / 'src'))\n")


def test_the_card_may_allow_a_test_to_go(tmp_path):
    repo = pytest_repo(tmp_path)
    extra = RED + 'droppable_tests = ["tests/test_names.py::test_shouts"]\n'
    c, _ = claim(repo, f"{PY} -m pytest -q tests/test_empty.py tests/test_names.py",
                 extra=extra + 'artifacts = ["tests/test_empty.py"]\n')
    v = submit_verify(repo, c, {"src/names.py": BROKEN, "tests/test_empty.py": NEW_TEST,
                                "tests/test_names.py": KEEPS})
    assert v.json["verdict"] == "passed", v.out


def test_a_test_file_the_candidate_adds_and_removes_again_is_not_a_drop(repo):
    c, wt = claim(repo, "true")
    commit_in(wt, {"tests/check.sh": "true\n"})
    git(wt, "rm", "-q", "tests/check.sh")
    git(wt, "commit", "-q", "-m", "drop it again")
    v = submit_verify(repo, c, sha=git(wt, "rev-parse", "HEAD"))
    assert v.json["verdict"] == "passed", v.out


def test_deleting_a_test_file_of_the_base_rejects_without_pytest(tmp_path):
    repo = pytest_repo(tmp_path)
    c, wt = claim(repo, "true")
    git(wt, "rm", "-q", "tests/test_names.py")
    git(wt, "commit", "-q", "-m", "fewer tests")
    v = submit_verify(repo, c, sha=git(wt, "rev-parse", "HEAD"))
    assert result(v, "drift")["passed"]
    per_test = result(v, "per-test")
    assert per_test["code"] == "test_dropped" and "tests/test_names.py" in per_test["detail"]


def test_renaming_a_test_file_without_a_report_is_not_a_drop(tmp_path):
    repo = pytest_repo(tmp_path)
    c, wt = claim(repo, "true")
    git(wt, "mv", "tests/test_names.py", "tests/test_naming.py")
    (wt / "tests/test_naming.py").write_text(PYTEST_FILES["tests/test_names.py"]
                                             + "\n\ndef test_more():\n    assert True\n")
    git(wt, "commit", "-q", "-am", "renamed and extended")
    v = submit_verify(repo, c, sha=git(wt, "rev-parse", "HEAD"))
    assert v.json["verdict"] == "passed", v.out
