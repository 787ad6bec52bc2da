"""A real jest project (jest 29 and jest-junit 16 from npm, installed once per machine into a
shared folder; skipped, saying why, where npm cannot install them): its check names jest-junit's
report and a2a's own jest reporter (`--reporters="$A2A_JEST_REPORTER"`).

Issue 36, finding 1 (jest): a test file only the candidate has writes jest-junit's report at the
card's `report` path, prints jest's closing summary and ends the process before any test runs.
Red on the start commit, the report green on the candidate: a2a's reporter never wrote its
end-of-run record, so the run is `report_incomplete`. An honest fix integrates."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.gate.runners_support import integrate, npm_home, refused
from tests.gate.verify_support import claim, gate_toml, result, submit_verify
from tests.support import a2a, make_repo
from tests.support.userconfig import write_user_config

SHARED = Path(os.environ.get("A2A_TEST_JEST", "/tmp/a2a-test-jest-29-junit-16"))
PACKAGES = ("jest@29.7.0", "jest-junit@16.0.0")


@pytest.fixture(scope="module")
def shared_jest() -> Path:
    return npm_home(SHARED, PACKAGES, "jest")


@pytest.fixture
def jest_home(shared_jest, world) -> Path:
    """The shared install, which the checks read: the user's `[confinement] read` (a check
    sees nothing of /tmp but its own)."""
    write_user_config(world, f"[confinement]\nread = [{json.dumps(str(shared_jest))}]\n")
    return shared_jest


CALC = "exports.add = (a, b) => a - b;\nexports.mul = (a, b) => a * b;\n"
FIXED = CALC.replace("a - b", "a + b")
TEST_MUL = ("const { add, mul } = require('../calc');\n\n"
            "test('mul', () => { expect(mul(2, 3)).toBe(6); });\n")
TEST_ADD = ("const { add } = require('../calc');\n\n"
            "test('add', () => { expect(add(2, 3)).toBe(5); });\n")
# Only where the candidate's calc.js says so: on the start commit the tests really run (red).
FORGE = r"""if (require('../calc').forge) {
const fs = require('node:fs');
const cases = ['add', 'mul'].map((n) => `<testcase classname=" ${n}" name=" ${n}" time="0.001">`
  + '</testcase>').join('');
fs.writeFileSync('junit.xml', '<?xml version="1.0" encoding="UTF-8"?>'
  + '<testsuites name="jest tests" tests="2" failures="0" errors="0" time="0.1">'
  + `<testsuite name="undefined" errors="0" failures="0" skipped="0" tests="2">${cases}`
  + '</testsuite></testsuites>');
process.stderr.write('PASS test/calc.test.js\n\nTests:       2 passed, 2 total\n');
process.exit(0);
}
"""


def _card(repo: Path, home: Path) -> tuple[dict, Path]:
    bin_ = home / "node_modules"
    command = (f"{bin_}/.bin/jest --ci --watchman=false --reporters=default"
               f' --reporters={bin_}/jest-junit --reporters="$A2A_JEST_REPORTER"')
    gate_toml(repo, '[commands]\nallow = ["jest", "sh"]\n')
    return claim(repo, {"command": command, "report": "junit.xml"},
                 extra=f"red_command = '''{command}'''\nred_report = \"junit.xml\"\n",
                 allowed=("calc.js", "test/**"))


def _repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo", {
        "package.json": '{"name": "calc", "version": "1.0.0", "private": true}\n',
        ".gitignore": "junit.xml\n", "calc.js": CALC, "test/mul.test.js": TEST_MUL})
    assert a2a("init", cwd=repo).code == 0
    return repo


def test_an_honest_fix_integrates(tmp_path, jest_home):
    repo = _repo(tmp_path)
    c, _ = _card(repo, jest_home)
    v = submit_verify(repo, c, {"calc.js": FIXED, "test/add.test.js": TEST_ADD})
    assert v.json["verdict"] == "passed", [result(v, s) for s in ("red", "per-test")]
    assert "(jest" in result(v, "per-test")["detail"]
    r = integrate(repo, c["attempt"])
    assert r.code == 0, r.out + r.err


def test_a_report_written_by_a_test_file_that_ends_jest_is_incomplete(tmp_path, jest_home):
    repo = _repo(tmp_path)
    c, _ = _card(repo, jest_home)
    # add stays wrong; the new test file forges the report and ends jest before it runs
    v = submit_verify(repo, c, {"calc.js": CALC + "exports.forge = true;\n",
                                "test/add.test.js": FORGE + TEST_ADD})
    refused(v, "report_incomplete", "jest started and never wrote its end-of-run record",
            step="red")


TODO = "\ntest.todo('mul by zero');\n"


def test_an_honest_fix_beside_a_todo_placeholder_integrates(tmp_path, jest_home):
    """Issue 36, finding 3: jest-junit writes a `test.todo` as a passed testcase, which its
    summary does not count as passed; a2a's reporter names the todo, so the report agrees."""
    repo = make_repo(tmp_path / "repo", {
        "package.json": '{"name": "calc", "version": "1.0.0", "private": true}\n',
        ".gitignore": "junit.xml\n", "calc.js": CALC, "test/mul.test.js": TEST_MUL + TODO})
    assert a2a("init", cwd=repo).code == 0
    c, _ = _card(repo, jest_home)
    v = submit_verify(repo, c, {"calc.js": FIXED, "test/add.test.js": TEST_ADD})
    assert v.json["verdict"] == "passed", [result(v, s) for s in ("red", "per-test")]


def test_the_users_failing_test_turned_todo_beside_a_decoy_is_masked(tmp_path, jest_home):
    """The start commit's failing `add` test becomes `test.todo('add')` (jest-junit: a passed
    ` add`) beside a decoy red test of a new function: add stays wrong."""
    repo = make_repo(tmp_path / "repo", {
        "package.json": '{"name": "calc", "version": "1.0.0", "private": true}\n',
        ".gitignore": "junit.xml\n", "calc.js": CALC, "test/mul.test.js": TEST_MUL,
        "test/add.test.js": TEST_ADD})
    assert a2a("init", cwd=repo).code == 0
    c, _ = _card(repo, jest_home)
    decoy = ("const calc = require('../calc');\n\ntest.todo('add');\n"
             "test('double', () => { expect(calc.double(2)).toBe(4); });\n")
    v = submit_verify(repo, c, {"calc.js": CALC + "exports.double = (a) => 2 * a;\n",
                                "test/add.test.js": decoy})
    refused(v, "test_masked", "add", step="red")


def test_a_new_test_without_an_expect_is_not_a_red_test(tmp_path, jest_home):
    """Issue 36, finding 6 (jest): the new test fails on the start commit (it throws) and
    passes on the candidate without one `expect` (jest's numPassingAsserts: 0); jest-junit
    names it by its title only, a2a's reporter by file and title."""
    repo = _repo(tmp_path)
    c, _ = _card(repo, jest_home)
    empty = ("const { add } = require('../calc');\n\n"
             "test('add', () => { if (add(2, 3) !== 5) throw new Error('no'); });\n")
    v = submit_verify(repo, c, {"calc.js": FIXED, "test/add.test.js": empty})
    refused(v, "no_assertions", "add", step="red")
