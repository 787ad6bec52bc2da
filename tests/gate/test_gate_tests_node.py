"""A real JavaScript project through the whole gate: `node --test`, no npm package, no
`report` line on the card (a2a adds its reporter). The honest task integrates, so does an
honest rename-and-extend of its test file; the fakes — a `todo`-masked test, a skipped test, a
deleted test, the todo-with-decoy — are refused, naming the tests."""

from __future__ import annotations

import pytest

from tests.gate.runners_support import (
    JS_ADD,
    JS_BROKEN_MUL,
    JS_CALC,
    JS_FIXED,
    JS_HEAD,
    JS_MUL,
    JS_SUB,
    NODE_TEST,
    integrate,
    js_claim,
    js_repo,
    needs_node,
    refused,
    verify_files,
)
from tests.gate.verify_support import events, result

pytestmark = needs_node


def test_a_node_task_goes_through_claim_submit_verify_integrate(tmp_path):
    repo = js_repo(tmp_path)
    c, _ = js_claim(repo, extra=f'red_command = "{NODE_TEST}"\n')
    add_test = JS_HEAD.replace("mul, sub", "") + JS_ADD
    v = verify_files(repo, c, {"calc.js": JS_FIXED, "test/add.test.js": add_test})
    assert v.json["verdict"] == "passed", v.out
    assert "green on candidate" in result(v, "red")["detail"]
    tests = result(v, "per-test")
    assert tests["passed"] and "3 test(s)" in tests["detail"], tests
    # Per-test evidence without a `report` line: each test of the run, by file and name.
    reported = [e["payload"] for e in events(repo, "tests_reported")
                if e["payload"]["source"] == "candidate"]
    assert reported and reported[-1]["runner"] == "node", reported
    assert reported[-1]["tests"] == {"test/add.test.js": {"add": "passed"},
                                     "test/calc.test.js": {"mul": "passed", "sub": "passed"}}
    r = integrate(repo, c["attempt"])
    assert r.code == 0, r.out + r.err


FAKES = {
    "todo": (JS_MUL.replace("test('mul', ", "test('mul', { todo: 'later' }, "), "todo"),
    "skip": (JS_MUL.replace("test('mul', ", "test('mul', { skip: true }, "), "skipped"),
    "deleted": ("", "missing"),
}


@pytest.mark.parametrize("fake", list(FAKES))
def test_a_node_fake_is_refused_naming_the_test(tmp_path, fake):
    repo = js_repo(tmp_path)
    c, _ = js_claim(repo)
    mul, how = FAKES[fake]
    v = verify_files(repo, c, {"calc.js": JS_BROKEN_MUL,
                               "test/calc.test.js": JS_HEAD + mul + JS_SUB})
    refused(v, "test_dropped" if fake == "deleted" else "test_masked", "test/calc.test.js::mul",
            how)


def test_a_deleted_node_test_file_is_refused(tmp_path):
    repo = js_repo(tmp_path)
    c, _ = js_claim(repo)
    v = verify_files(repo, c, {"calc.js": JS_BROKEN_MUL,
                               "test/sub.test.js": JS_HEAD + JS_SUB},
                     removed=("test/calc.test.js",))
    refused(v, "test_dropped", "test/calc.test.js::mul")


def test_the_node_todo_with_a_decoy_fake_is_refused(tmp_path):
    repo = js_repo(tmp_path)
    c, _ = js_claim(repo, extra=f'red_command = "{NODE_TEST}"\n')
    new = (JS_HEAD.replace("mul, sub", "double")
           + JS_ADD.replace("test('add', ", "test('add', { todo: true }, ")
           + "test('double', () => assert.strictEqual(double(2), 4));\n")
    v = verify_files(repo, c, {"calc.js": JS_CALC_WITH_DOUBLE, "test/add.test.js": new})
    refused(v, "test_masked", "test/add.test.js::add", "todo", step="red")


JS_CALC_WITH_DOUBLE = JS_CALC + "exports.double = (a) => 2 * a;\n"


def test_an_honest_node_rename_and_extend_integrates(tmp_path):
    repo = js_repo(tmp_path)
    c, _ = js_claim(repo)
    v = verify_files(repo, c, {"calc.js": JS_FIXED,
                               "test/arith.test.js": JS_HEAD + JS_MUL + JS_SUB + JS_ADD},
                     removed=("test/calc.test.js",))
    assert v.json["verdict"] == "passed", v.out
    assert result(v, "per-test")["passed"], result(v, "per-test")
    r = integrate(repo, c["attempt"])
    assert r.code == 0, r.out + r.err


NODE_JUNIT = "node --test --test-reporter=junit --test-reporter-destination=node.xml"
GREEN = ('<?xml version="1.0" encoding="utf-8"?><testsuites><testcase name="mul"/>'
         '<testcase name="sub"/><testcase name="add"/></testsuites>')
# Only where the candidate lays down FORGE: on the start commit the test really runs (red).
FORGE = (JS_HEAD.replace("mul, sub", "") + "const fs = require('node:fs');\n"
         "if (fs.existsSync('FORGE')) {\n"
         f"  fs.writeFileSync('node.xml', {GREEN!r});\n"
         "  console.log('# tests 3\\n# pass 3\\n# fail 0');\n"
         "  process.kill(process.ppid, 'SIGKILL');\n}\n" + JS_ADD)


def test_a_report_written_by_a_test_that_ends_the_runner_is_refused(tmp_path):
    """Issue 36: a test file only the candidate has writes the report the card names, prints
    Node's summary and ends `node --test` (its parent) before the runner reports. Node runs
    each file in a child process: the child cannot give the runner's exit code, only end it
    with a signal, and the red step sees that code. Held here for the docs' JUnit line."""
    repo = js_repo(tmp_path)
    c, _ = js_claim(repo, check={"command": NODE_JUNIT, "report": "node.xml"},
                    extra=f"red_command = '{NODE_JUNIT}'\nred_report = \"node.xml\"\n")
    v = verify_files(repo, c, {"FORGE": "", "test/add.test.js": FORGE})
    refused(v, "not_green", "exit 137", step="red")
