"""A real vitest project (vitest 3 from npm, installed once per machine into a shared folder;
skipped, saying why, where npm cannot install it), its check the docs' vitest line as written
(docs/how-to/non-python-repository.md): `npx vitest run` with vitest's JUnit report and a2a's
own vitest reporter (`--reporter="$A2A_VITEST_REPORTER"`). The project's `node_modules` holds
committed links to the shared install, standing in for the `npm ci` a real project runs.

Issue 36, finding 1 (vitest): a test file cannot end vitest early with exit 0 (the tests run in
worker processes; a worker that ends its parent leaves the signal's exit code), but the
configuration runs in vitest's own process before any reporter: a `vitest.config.mjs` only the
candidate has writes the JUnit report at the card's `report` path, prints vitest's summary and
exits 0. a2a's reporter never wrote, and the command names it: `report_incomplete`. An honest
fix integrates; a new test that runs no `expect` is not a red test (`no_assertions`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.gate.runners_support import integrate, npm_home, refused
from tests.gate.verify_support import claim, result, submit_verify
from tests.support import a2a, git, make_repo
from tests.support.userconfig import write_user_config

SHARED = Path(os.environ.get("A2A_TEST_VITEST", "/tmp/a2a-test-vitest-3"))
PACKAGES = ("vitest@3.2.4",)
# The docs' line, as written.
COMMAND = ('npx vitest run --reporter=default --reporter=junit'
           ' --reporter="$A2A_VITEST_REPORTER" --outputFile=vitest.xml')


@pytest.fixture(scope="module")
def shared_vitest() -> Path:
    return npm_home(SHARED, PACKAGES, "vitest")


@pytest.fixture
def repo(shared_vitest, world, tmp_path) -> Path:
    """The project, whose checks read the shared install (the user's `[confinement] read`)."""
    write_user_config(world, f"[confinement]\nread = [{json.dumps(str(shared_vitest))}]\n")
    path = make_repo(tmp_path / "repo", {
        "package.json": '{"name": "calc", "version": "1.0.0", "private": true}\n',
        ".gitignore": "vitest.xml\n", "calc.js": CALC, "test/mul.test.js": TEST_MUL})
    for name in (".bin", "vitest"):  # vite writes its own under node_modules: a real folder
        (path / "node_modules").mkdir(exist_ok=True)
        (path / "node_modules" / name).symlink_to(shared_vitest / "node_modules" / name)
    git(path, "add", "node_modules")
    git(path, "commit", "-q", "-m", "node_modules: the shared install")
    assert a2a("init", cwd=path).code == 0
    return path


CALC = "exports.add = (a, b) => a - b;\nexports.mul = (a, b) => a * b;\n"
FIXED = CALC.replace("a - b", "a + b")
HEAD = "import { test, expect } from 'vitest';\nimport { add, mul } from '../calc';\n\n"
TEST_MUL = HEAD + "test('mul', () => { expect(mul(2, 3)).toBe(6); });\n"
TEST_ADD = HEAD + "test('add', () => { expect(add(2, 3)).toBe(5); });\n"
FORGE = r"""import { writeFileSync } from 'node:fs';
const cases = ['add', 'mul'].map((n) => `<testcase classname="test/${n}.test.js" name="${n}"`
  + ' time="0.001"></testcase>').join('');
writeFileSync('vitest.xml', '<?xml version="1.0" encoding="UTF-8" ?>'
  + '<testsuites name="vitest tests" tests="2" failures="0" errors="0" time="0.1">'
  + `<testsuite name="test" tests="2" failures="0" errors="0" skipped="0">${cases}`
  + '</testsuite></testsuites>');
process.stdout.write(' Test Files  2 passed (2)\n      Tests  2 passed (2)\n');
process.exit(0);
export default {};
"""


def _claim(repo: Path) -> dict:
    c, _ = claim(repo, {"command": COMMAND, "report": "vitest.xml"},
                 extra=f"red_command = '''{COMMAND}'''\nred_report = \"vitest.xml\"\n",
                 allowed=("calc.js", "test/**", "vitest.config.mjs"))
    return c


def test_an_honest_fix_integrates(repo):
    c = _claim(repo)
    v = submit_verify(repo, c, {"calc.js": FIXED, "test/add.test.js": TEST_ADD})
    assert v.json["verdict"] == "passed", [result(v, s) for s in ("red", "per-test")]
    assert "(vitest" in result(v, "per-test")["detail"]
    r = integrate(repo, c["attempt"])
    assert r.code == 0, r.out + r.err


def test_a_report_written_by_a_configuration_that_ends_vitest_is_incomplete(repo):
    c = _claim(repo)
    # add stays wrong; the configuration forges the report and ends vitest before it runs
    v = submit_verify(repo, c, {"vitest.config.mjs": FORGE, "test/add.test.js": TEST_ADD})
    refused(v, "report_incomplete", "names a2a's vitest reporter and it never wrote",
            step="red")


def test_a_new_test_without_an_expect_is_not_a_red_test(repo):
    """Issue 36, finding 6 (vitest): the new test fails on the start commit (it throws) and
    passes on the candidate without one `expect`: a2a's setup file counts none."""
    c = _claim(repo)
    empty = HEAD + "test('add', () => { if (add(2, 3) !== 5) throw new Error('no'); });\n"
    v = submit_verify(repo, c, {"calc.js": FIXED, "test/add.test.js": empty})
    refused(v, "no_assertions", "test/add.test.js::add", step="red")
