"""Test reports read from every runner's dialect, with outcomes normalised; the runners' own
closing summaries; and a candidate's tests held to its base's, test by test (pure functions).

The fixtures (tests/gate/fixtures/reports) are in the shapes the runners write: pytest's (xunit1,
xunit2), Node's own junit and TAP reporters and its spec summary, taken from runs here; jest-junit,
vitest, gotestsum, cargo-nextest, Surefire and ctest, written after the tools' own published
outputs and test snapshots (element and attribute shapes, summary lines), for runners not
installed here."""

from __future__ import annotations

from pathlib import Path

import pytest

from a2a_tui.errors import A2AError
from a2a_tui.gate.cards.schema import parse_card
from a2a_tui.gate.verification.comparison import compare, match
from a2a_tui.gate.verification.reports import Outcome, TestCase, TestReport, read
from a2a_tui.gate.verification.reports.junit import parse
from a2a_tui.gate.verification.reports.model import build
from a2a_tui.gate.verification.reports.summary import disagreements, find
from tests.support import CARD_TOML

FIXTURES = Path(__file__).parent / "fixtures" / "reports"
P, F, S, X, XP = "passed", "failed", "skipped", "xfail", "xpass"

EXPECTED = {
    "pytest-xunit1.xml": ("pytest", {
        "tests/test_calc.py::test_mul": P, "tests/test_calc.py::TestCalc::test_sub": P,
        "tests/test_calc.py::TestCalc::test_add[2-3-5]": F,
        "tests/test_calc.py::TestCalc::test_add[0-0-0]": P,
        "tests/test_calc.py::test_div": S, "tests/test_calc.py::test_round": X}),
    "node-junit.xml": ("node-junit", {
        "calc > multiplies": P, "calc > subtracts": P, "calc > adds": F, "calc > divides": S,
        "calc > rounds": X, "more > multiplies": P, "more > subtracts": P, "more > adds": F,
        "more > divides": S, "more > rounds": XP}),
    "jest-junit.xml": ("jest", {
        "calc::calc multiplies": P, "calc::calc subtracts": P, "calc::calc adds": F,
        "calc::calc divides": S, "calc::calc rounds": S}),
    "vitest.xml": ("vitest", {
        "test/calc.test.ts::calc > multiplies": P, "test/calc.test.ts::calc > subtracts": P,
        "test/calc.test.ts::calc > adds": F, "test/calc.test.ts::calc > divides": S,
        "test/calc.test.ts::calc > rounds": S}),
    "gotestsum.xml": ("go", {
        "example.com/calc::TestMul": P, "example.com/calc::TestSub": P,
        "example.com/calc::TestAdd": F, "example.com/calc::TestDiv": S,
        "example.com/calc::TestDiv/by_zero": S}),
    "nextest.xml": ("nextest", {
        "calc::tests::mul": P, "calc::tests::sub": P, "calc::tests::add": F,
        "calc::tests::div": S, "calc::integration::adds_many": P}),
    "surefire/TEST-com.example.calc.CalcTest.xml": ("surefire", {
        "com.example.calc.CalcTest::multiplies": P, "com.example.calc.CalcTest::subtracts": P,
        "com.example.calc.CalcTest::adds": F, "com.example.calc.CalcTest::divides": S}),
    "surefire/TEST-com.example.calc.ParseTest.xml": ("surefire", {
        "com.example.calc.ParseTest::parsesNumbers": P}),   # a flakyFailure only: passed
    "ctest.xml": ("ctest", {"calc_mul": P, "calc_sub": P, "calc_add": F, "calc_div": S,
                            "calc_pow": S}),
    "node.tap": ("tap", {
        "calc > multiplies": P, "calc > subtracts": P, "calc > adds": F, "calc > divides": S,
        "calc > rounds": X, "more > multiplies": P, "more > subtracts": P, "more > adds": F,
        "more > divides": S, "more > rounds": XP}),
}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_each_dialect_is_read_with_its_outcomes(name):
    runner, want = EXPECTED[name]
    report = read(FIXTURES / name)
    assert report is not None and report.runner == runner
    assert {t: c.outcome.value for t, c in report.cases.items()} == want


def test_pytest_xunit2_gives_the_same_ids_as_xunit1():
    one, two = read(FIXTURES / "pytest-xunit1.xml"), read(FIXTURES / "pytest-xunit2.xml")
    assert one is not None and two is not None and one.cases == two.cases


def test_a_document_with_a_doctype_or_not_a_report_is_not_read():
    bomb = (b'<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaa">]>'
            b'<testsuite><testcase name="&a;"/></testsuite>')
    assert parse(bomb) is None
    assert parse(b"<html><body/></html>") is None
    assert parse(b"not xml at all") is None


SUMMARIES = {"pytest": ("pytest.out", 3, 1, 6), "node": ("node.out", 4, 2, 10),
             "jest": ("jest.out", 2, 1, 5), "vitest": ("vitest.out", 2, 1, 5),
             "go": ("gotestsum.out", 2, 1, 5), "nextest": ("nextest.out", 3, 1, 5),
             "surefire": ("surefire.out", 3, 1, 5), "ctest": ("ctest.out", 2, 2, None)}


@pytest.mark.parametrize("runner", list(SUMMARIES))
def test_each_runners_closing_summary_is_read(runner):
    out, passed, failed, total = SUMMARIES[runner]
    s = find(runner, (FIXTURES / out).read_text())
    assert s is not None and (s.passed, s.failed, s.total) == (passed, failed, total)


@pytest.mark.parametrize("report, out", [
    ("pytest-xunit1.xml", "pytest.out"), ("jest-junit.xml", "jest.out"),
    ("vitest.xml", "vitest.out"), ("gotestsum.xml", "gotestsum.out"),
    ("nextest.xml", "nextest.out"), ("ctest.xml", "ctest.out")])
def test_a_report_agrees_with_its_own_runs_summary(report, out):
    r = read(FIXTURES / report)
    assert r is not None
    assert disagreements(r, (FIXTURES / out).read_text(), 1) == []


def test_a_report_rewritten_after_the_run_disagrees_with_the_summary_and_the_exit_code():
    r = read(FIXTURES / "pytest-xunit1.xml")
    assert r is not None
    laundered = TestReport(r.runner, {t: TestCase(c.file, c.key, Outcome.PASSED)
                                      for t, c in r.cases.items()})
    found = disagreements(laundered, (FIXTURES / "pytest.out").read_text(), 1)
    assert any("passing test(s), the runner's summary 3" in f for f in found), found
    assert any("counts 1 failed, the report none" in f for f in found), found
    assert disagreements(r, "", 0) == ["the report has 1 failing test(s) but the command"
                                       " exited 0"]


def _report(**tests: str) -> TestReport:
    cases = []
    for spec, outcome in tests.items():
        file, key = spec.split("__")
        cases.append(TestCase(file.replace("_", "/") + ".py", key, Outcome(outcome)))
    return build("pytest", cases)


def test_a_renamed_file_and_a_moved_test_are_the_same_tests():
    base = _report(tests_calc__test_mul=P, tests_calc__test_sub=P)
    cand = _report(tests_arith__test_mul=P, tests_arith__test_sub=P, tests_arith__test_add=P)
    assert match(base, cand) == {"tests/calc.py::test_mul": "tests/arith.py::test_mul",
                                 "tests/calc.py::test_sub": "tests/arith.py::test_sub"}
    found = compare(base, cand, lambda _t: False)
    assert found.findings == [] and len(found.moved) == 2


def test_every_way_a_base_test_stops_passing_is_named():
    base = _report(t_a__gone=P, t_a__skip=P, t_a__xfail=P, t_a__xpass=P, t_a__fail=P,
                   t_a__kept=P, t_a__was_skipped=S)
    cand = _report(t_a__skip=S, t_a__xfail=X, t_a__xpass=XP, t_a__fail=F, t_a__kept=P,
                   t_a__was_skipped=S, t_a__new_skip=S, t_a__new_xfail=X, t_a__new_xpass=XP)
    found = compare(base, cand, lambda _t: False)
    got = {f.test.split("::")[1]: f.code for f in found.findings}
    assert got == {"gone": "test_dropped", "skip": "test_masked", "xfail": "test_masked",
                   "xpass": "test_masked", "fail": "test_failed", "new_skip": "test_masked",
                   "new_xfail": "test_masked"}
    assert found.xpass == ["t/a.py::new_xpass"]


def test_the_card_lets_named_tests_go_and_they_are_listed():
    base = _report(t_a__one=P, t_a__two=P)
    found = compare(base, _report(t_a__one=P), lambda t: t.endswith("::two"))
    assert found.findings == [] and [f.test for f in found.allowed] == ["t/a.py::two"]


def test_count_gaming_no_test_run_or_fewer_unaccounted_rejects():
    base = _report(t_a__one=P, t_a__two=F)
    assert [f.code for f in compare(base, _report(t_a__one=S), lambda _t: False).findings] \
        == ["test_masked", "no_tests"]
    fewer = compare(base, _report(t_a__one=P), lambda _t: False)
    assert [f.code for f in fewer.findings] == ["test_count"]


def test_a_checks_report_is_part_of_the_cards_contract():
    card = CARD_TOML.format(id="T-1", check="mvn -q test", extra="")
    plain = parse_card(card)
    named = parse_card(card + 'report = "target/surefire-reports"\n')
    red = parse_card(CARD_TOML.format(id="T-1", check="mvn -q test",
                                      extra='red_report = "target/red.xml"'))
    # A card naming no report keeps the body (and digests) it had before cards could.
    assert "report" not in plain.body_json()["checks"][0] and "red_report" not in plain.body_json()
    assert len({plain.contract_digest(), named.contract_digest(), red.contract_digest()}) == 3
    with pytest.raises(A2AError, match="stay inside it"):
        parse_card(card + 'report = "../elsewhere.xml"\n')
