"""A real Go module under gotestsum (golang-go and gotestsum from the distribution's packages;
skipped, saying why, where either is missing), its check the docs' Go line as written
(docs/how-to/non-python-repository.md): `gotestsum --junitfile gotest.xml ./...`.

gotestsum writes its JUnit report from its own process, after the go tool's events (test2json
frames them, not the test binary), and the testing package turns a test's `os.Exit(0)` into a
failure: a `TestMain` that writes the report, prints gotestsum's `DONE` line and exits 0 before
any test runs has its report overwritten with no tests in it. Issue 36: a report forged by
test code is refused; an honest fix integrates."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.gate.runners_support import claim_declared, integrates, refused
from tests.gate.verify_support import gate_toml, submit_verify
from tests.support import a2a, make_repo

pytestmark = pytest.mark.skipif(
    shutil.which("go") is None or shutil.which("gotestsum") is None,
    reason="go or gotestsum is not installed here: the Go sample needs both (.ci/run installs"
           " golang-go and gotestsum from the distribution's packages)")

COMMAND, REPORT = "gotestsum --junitfile gotest.xml ./...", "gotest.xml"
CALC = ("package calc\n\nfunc Add(a, b int) int { return a - b }\n"
        "func Mul(a, b int) int { return a * b }\n")
FIXED = CALC.replace("a - b", "a + b")
HEAD = 'package calc\n\nimport "testing"\n\n'
MUL = HEAD + 'func TestMul(t *testing.T) {\n\tif Mul(2, 3) != 6 {\n\t\tt.Fatal("mul")\n\t}\n}\n'
ADD = HEAD + 'func TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal("add")\n\t}\n}\n'
# Only where the candidate lays down FORGE: on the start commit the tests really run (red).
FORGE = '''package calc

import (
	"fmt"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	if _, err := os.Stat("FORGE"); err == nil {
		os.WriteFile("gotest.xml", []byte(`<testsuites tests="2" failures="0"><testsuite`+
			` tests="2" failures="0" name="calc"><properties><property name="go.version"`+
			` value="go1.19"></property></properties><testcase classname="calc" name="TestMul">`+
			`</testcase><testcase classname="calc" name="TestAdd"></testcase></testsuite>`+
			`</testsuites>`), 0o644)
		fmt.Println("DONE 2 tests in 0.100s")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestAdd(t *testing.T) {
	if Add(2, 3) != 5 {
		t.Fatal("add")
	}
}
'''


@pytest.fixture
def repo(tmp_path) -> Path:
    path = make_repo(tmp_path / "repo", {"go.mod": "module calc\n\ngo 1.19\n", "calc.go": CALC,
                                         "mul_test.go": MUL, ".gitignore": "gotest.xml\n"})
    assert a2a("init", cwd=path).code == 0
    gate_toml(path, '[commands]\nallow = ["gotestsum"]\n')
    return path


def _verify(repo: Path, files: dict[str, str]):
    c = claim_declared(repo, COMMAND, REPORT, ("*.go", "FORGE"))
    return c, submit_verify(repo, c, files)


def test_an_honest_fix_integrates(repo):
    c, v = _verify(repo, {"calc.go": FIXED, "add_test.go": ADD})
    integrates(repo, c, v, "go")


def test_a_report_written_by_a_test_main_that_exits_is_refused(repo):
    v = _verify(repo, {"FORGE": "", "add_test.go": FORGE})[1]
    refused(v, "test_dropped", "TestMul", step="red")
