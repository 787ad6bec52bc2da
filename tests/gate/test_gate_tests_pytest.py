"""Every blocking check with a report is held to its base test by test (pytest): a base test
that passed and no longer passes — skipped, xfail, deselected in configuration, deleted, or
edited into passing — rejects, naming it; an honest rename-and-extend integrates."""

from __future__ import annotations

import pytest

from tests.gate.runners_support import (
    BROKEN_MUL,
    CALC,
    FIXED,
    PY_FILES,
    PYTEST,
    SKIPPED_MUL,
    TEST_ADD,
    TEST_MUL,
    TEST_SUB,
    integrate,
    py_claim,
    py_repo,
    refused,
    verify_files,
)
from tests.gate.verify_support import result

SKIPPED = SKIPPED_MUL
XFAIL = SKIPPED.replace("@pytest.mark.skip(reason='later')", "@pytest.mark.xfail")


@pytest.mark.parametrize("tests_file, how", [(SKIPPED, "skipped"), (XFAIL, "xfail")],
                         ids=["skip", "xfail"])
def test_a_base_test_masked_on_a_card_without_red_is_refused_naming_it(tmp_path, tests_file,
                                                                        how):
    repo = py_repo(tmp_path)
    c, _ = py_claim(repo)
    v = verify_files(repo, c, {"src/calc.py": BROKEN_MUL, "tests/test_calc.py": tests_file})
    tests = refused(v, "test_masked", "tests/test_calc.py::test_mul", how)
    assert "test_sub" not in tests["detail"]


def test_the_xfail_with_a_decoy_fake_is_refused(tmp_path):
    """The task's own test marked xfail (it fails; the run passes) beside a decoy test of a new
    function (red on the base, green on the candidate): add stays broken."""
    repo = py_repo(tmp_path)
    c, _ = py_claim(repo, extra=f'red_command = "{PYTEST}"\n')
    new_tests = ("import pytest\nfrom calc import add\n\n\n@pytest.mark.xfail\n" + TEST_ADD
                 + "\n\ndef test_double():\n    from calc import double\n"
                 "    assert double(2) == 4\n")
    v = verify_files(repo, c, {"src/calc.py": CALC + "\n\ndef double(a):\n    return 2 * a\n",
                               "tests/test_add.py": new_tests})
    refused(v, "test_masked", "tests/test_add.py::test_add", "xfail", step="red")


CONFIG_DROPS = {
    "pytest.ini": ("pytest.ini", "[pytest]\naddopts = -p no:cacheprovider -k 'not test_mul'\n"),
    "pyproject.toml": ("pyproject.toml", "[tool.pytest.ini_options]\naddopts ="
                       " '--deselect tests/test_calc.py::test_mul'\n"),
    "conftest.py": ("conftest.py", "def pytest_collection_modifyitems(config, items):\n"
                    "    kept = [i for i in items if i.name != 'test_mul']\n"
                    "    config.hook.pytest_deselected(items=[i for i in items if i not in kept])\n"
                    "    items[:] = kept\n"),
}


@pytest.mark.parametrize("where", list(CONFIG_DROPS))
def test_a_base_test_deselected_in_configuration_is_caught(tmp_path, where):
    repo = py_repo(tmp_path)
    if where == "pyproject.toml":  # pytest.ini would win over pyproject.toml
        c, wt = py_claim(repo)
        (wt / "pytest.ini").unlink()
    else:
        c, _ = py_claim(repo)
    path, text = CONFIG_DROPS[where]
    v = verify_files(repo, c, {"src/calc.py": BROKEN_MUL, path: text})
    refused(v, "test_dropped", "tests/test_calc.py::test_mul")


def test_a_base_test_edited_into_passing_still_counts(tmp_path):
    """The base's version of test_mul is run against the candidate's code."""
    repo = py_repo(tmp_path)
    c, _ = py_claim(repo)
    edited = ("from calc import mul, sub\n\n\n"
              + TEST_MUL.replace("== 6", "== 5") + "\n\n" + TEST_SUB)
    v = verify_files(repo, c, {"src/calc.py": BROKEN_MUL, "tests/test_calc.py": edited})
    refused(v, "test_masked", "tests/test_calc.py::test_mul", "base version")


def test_an_honest_rename_and_extend_integrates(tmp_path):
    repo = py_repo(tmp_path)
    c, _ = py_claim(repo)
    arith = f"from calc import add, mul, sub\n\n\n{TEST_MUL}\n\n{TEST_SUB}\n\n{TEST_ADD}"
    v = verify_files(repo, c, {"src/calc.py": FIXED, "tests/test_arith.py": arith},
                     removed=("tests/test_calc.py",))
    assert v.json["verdict"] == "passed", v.out
    assert result(v, "drift")["passed"], result(v, "drift")
    tests = result(v, "per-test")
    assert tests["passed"] and "3 test(s)" in tests["detail"], tests
    r = integrate(repo, c["attempt"])
    assert r.code == 0, r.out + r.err


FLIP = ("\n\nimport pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\n"
        "def pytest_runtest_makereport(item, call):\n    outcome = yield\n"
        "    report = outcome.get_result()\n    if report.failed:\n"
        "        report.outcome = 'passed'\n")


def test_outcomes_flipped_in_process_by_a_test_hook_still_count(tmp_path):
    """A conftest hook turns failures into passes: report, summary and exit code all agree;
    the base's own test files (its conftest too) run against the candidate's code do not."""
    repo = py_repo(tmp_path)
    c, _ = py_claim(repo)
    conftest = PY_FILES["tests/conftest.py"] + FLIP
    v = verify_files(repo, c, {"src/calc.py": BROKEN_MUL, "tests/conftest.py": conftest})
    refused(v, "test_masked", "tests/test_calc.py::test_mul (its base version failed")


LAUNDER = ("\n\nimport atexit, os, re\n\n\ndef _launder():\n"
           "    opts = os.environ.get('PYTEST_ADDOPTS', '')\n"
           "    found = re.search(r'--junitxml=\"([^\"]+)\"', opts)\n"
           "    if found:\n        text = open(found[1]).read()\n"
           "        text = re.sub(r'<failure.*?</failure>', '', text, flags=re.S)\n"
           "        open(found[1], 'w').write(text)\n    os._exit(0)\n\n\n"
           "atexit.register(_launder)\n")


def test_a_report_rewritten_after_the_run_disagrees_with_the_runners_summary(tmp_path):
    """Code under test rewrites the report once pytest has written it and printed its summary,
    and forces exit 0."""
    repo = py_repo(tmp_path)
    c, _ = py_claim(repo)
    v = verify_files(repo, c, {"src/calc.py": BROKEN_MUL + LAUNDER})
    refused(v, "report_mismatch", "the report has 2 passing test(s), the runner's summary 1")


FORGE = r"""

import os, re, sys


def _forge():
    found = re.search(r'--junitxml="([^"]+)"', os.environ.get('PYTEST_ADDOPTS', ''))
    if not found:
        return
    cases = ''.join(f'<testcase classname="tests.test_calc" file="tests/test_calc.py"'
                    f' name="{n}" time="0"/>' for n in ('test_mul', 'test_sub'))
    open(found[1], 'w').write('<?xml version="1.0"?><testsuites><testsuite name="pytest"'
                              f' tests="2" failures="0" errors="0" skipped="0">{cases}'
                              '</testsuite></testsuites>')
    print('..')
    print('2 passed in 0.01s')
    sys.stdout.flush()
    os._exit(0)


_forge()
"""


def test_a_report_written_by_the_code_under_test_before_any_test_ran_is_incomplete(tmp_path):
    """Issue 36, finding 1: the candidate's code, imported while pytest collects, writes a green
    report where pytest would, prints pytest's closing summary and exits 0 before any test runs
    (the base's test files run over it do the same). a2a's own plugin never wrote its
    end-of-run record: report_incomplete, whatever the exit code."""
    repo = py_repo(tmp_path)
    c, _ = py_claim(repo)
    v = verify_files(repo, c, {"src/calc.py": BROKEN_MUL + FORGE})
    refused(v, "report_incomplete", "end-of-run record")
