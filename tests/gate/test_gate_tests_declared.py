"""A check of a runner a2a does not know names its report on the card (`report = "…"`): its tests
are evidence like pytest's. The runner here is a script that lays down a real dialect's report
(gotestsum, Surefire: runners not installed here) and prints its closing summary."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.gate.runners_support import integrate, refused
from tests.gate.verify_support import result, submit_verify, write
from tests.support import a2a, make_repo

FIXTURES = Path(__file__).parent / "fixtures" / "reports"
ALLOWED = ("src/**", "fixtures/**", "build/**", "run-tests.sh")
RUNNER = "mkdir -p build/reports && cp fixtures/*.xml build/reports/ && cat fixtures/summary.txt\n"
DIALECTS = {
    # dialect: (fixture, the failing test's testcase to take out, the summary, a passing test)
    "go": ("gotestsum.xml", r'\t\t<testcase classname="example.com/calc" name="TestAdd".*?'
           r"</testcase>\n", "DONE 4 tests, 2 skipped in 0.482s\n", "TestMul"),
    "surefire": ("surefire/TEST-com.example.calc.CalcTest.xml",
                 r'  <testcase name="adds".*?</testcase>\n',
                 "[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 1\n", "multiplies"),
}


def _repo(tmp_path: Path, dialect: str) -> tuple[Path, str]:
    fixture, failing, summary, _ = DIALECTS[dialect]
    xml = re.sub(failing, "", (FIXTURES / fixture).read_text(), flags=re.S)
    repo = make_repo(tmp_path / "repo", {"run-tests.sh": RUNNER, "src/calc.txt": "v1\n",
                                         "fixtures/report.xml": xml,
                                         "fixtures/summary.txt": summary})
    assert a2a("init", cwd=repo).code == 0
    return repo, xml


@pytest.fixture
def declared(tmp_path, request):
    """A repository of the dialect, and a claimed card whose check names its report."""
    repo, xml = _repo(tmp_path, request.param)
    card = write(repo, "sh run-tests.sh", allowed=ALLOWED)
    card.write_text(card.read_text().replace("blocking = true\n",
                                             'blocking = true\nreport = "build/reports"\n', 1))
    assert a2a("card", "add", str(card), cwd=repo).code == 0
    r = a2a("card", "ready", "T-1", "--json", cwd=repo)
    assert r.code == 0, r.out + r.err
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    return repo, xml, c, request.param


@pytest.mark.parametrize("declared", list(DIALECTS), indirect=True)
def test_a_named_report_of_another_runner_is_per_test_evidence(declared):
    repo, _, c, dialect = declared
    v = submit_verify(repo, c, {"src/calc.txt": "v2\n"})
    assert v.json["verdict"] == "passed", v.out
    per_test = result(v, "per-test")
    assert f"({dialect}): 2 test(s) ran, 2 passed" in per_test["detail"], per_test
    r = integrate(repo, c["attempt"])
    assert r.code == 0, r.out + r.err


@pytest.mark.parametrize("declared", list(DIALECTS), indirect=True)
def test_a_test_masked_in_a_named_report_is_refused(declared):
    repo, xml, c, dialect = declared
    passing = DIALECTS[dialect][3]
    masked = re.sub(rf'(<testcase [^>]*name="{passing}"[^>]*?)\s*/?>(</testcase>)?',
                    r'\1><skipped message="later"/></testcase>', xml, count=1)
    assert masked != xml
    v = submit_verify(repo, c, {"fixtures/report.xml": masked})
    refused(v, "test_masked", passing)


@pytest.mark.parametrize("declared", ["go"], indirect=True)
def test_a_report_committed_in_the_tree_is_not_the_runs(declared):
    """The candidate stops the runner writing its report and commits one of its own where the
    card looks: a file of the commit never counts."""
    repo, xml, c, _ = declared
    v = submit_verify(repo, c, {"run-tests.sh": "cat fixtures/summary.txt\n",
                                "fixtures/keep": "", "build/reports/report.xml": xml})
    refused(v, "no_report", "in the commit, not written by the run")
