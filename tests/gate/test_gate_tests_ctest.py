"""A real CTest project (ctest from the distribution's cmake; skipped, saying why, where it is
missing), its check the docs' CTest line as written (docs/how-to/non-python-repository.md):
`ctest --output-junit ctest.xml`. The project's tests are shell scripts registered in a
committed `CTestTestfile.cmake` (what `cmake` would generate), so no build is needed.

CTest writes its JUnit report from its own process, after the tests, which it runs as its
children with their output captured: a test that writes the report and prints ctest's summary
has both overwritten or kept out of the check's output, and one that ends ctest early leaves
the signal's exit code. Issue 36: a report forged by a test is refused; an honest fix
integrates."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.gate.runners_support import claim_declared, integrates, refused
from tests.gate.verify_support import gate_toml, submit_verify
from tests.support import a2a, make_repo

pytestmark = pytest.mark.skipif(
    shutil.which("ctest") is None,
    reason="ctest is not installed here: the CTest sample needs it (.ci/run installs cmake from"
           " the distribution's packages)")

COMMAND, REPORT = "ctest --output-junit ctest.xml", "ctest.xml"
CALC = 'add() { echo $(($1 - $2)); }\nmul() { echo $(($1 * $2)); }\n'
FIXED = CALC.replace("$1 - $2", "$1 + $2")
TESTS = 'add_test(mul "sh" "mul.sh")\n'
MUL = '. ../calc.sh\n[ "$(mul 2 3)" = 6 ]\n'
ADD = '. ../calc.sh\n[ "$(add 2 3)" = 5 ]\n'
# Only where the candidate lays down FORGE: on the start commit the test really runs (red).
FORGE = """if [ -e ../FORGE ]; then
  printf '%s' '<?xml version="1.0" encoding="UTF-8"?><testsuite name="(empty)" tests="2"\
 failures="0" disabled="0" skipped="0"><testcase name="mul" classname="mul" status="run"/>\
<testcase name="add" classname="add" status="run"/></testsuite>' > ../ctest.xml
  echo '100% tests passed, 0 tests failed out of 2'
  kill -9 "$PPID"
fi
""" + ADD


@pytest.fixture
def repo(tmp_path) -> Path:
    path = make_repo(tmp_path / "repo", {
        "CTestTestfile.cmake": 'subdirs("test")\n', "test/CTestTestfile.cmake": TESTS,
        "test/mul.sh": MUL, "calc.sh": CALC, ".gitignore": "ctest.xml\nTesting/\n"})
    assert a2a("init", cwd=path).code == 0
    gate_toml(path, '[commands]\nallow = ["ctest"]\n')
    return path


def _verify(repo: Path, files: dict[str, str]):
    c = claim_declared(repo, COMMAND, REPORT, ("calc.sh", "test/**", "FORGE"))
    return c, submit_verify(repo, c, files)


def test_an_honest_fix_integrates(repo):
    c, v = _verify(repo, {"calc.sh": FIXED, "test/add.sh": ADD,
                          "test/CTestTestfile.cmake": TESTS + 'add_test(add "sh" "add.sh")\n'})
    integrates(repo, c, v, "ctest")


def test_a_report_written_by_a_test_that_ends_ctest_is_refused(repo):
    c, v = _verify(repo, {"FORGE": "", "test/add.sh": FORGE,
                          "test/CTestTestfile.cmake": TESTS + 'add_test(add "sh" "add.sh")\n'})
    refused(v, "not_green", "exit 137", step="red")
