"""libtest's JUnit (`cargo test -- -Z unstable-options --format junit`, the fixture taken from a
real run: cargo 1.x, one `#[ignore]`d test) leaves an ignored test out of its testcases while its
suite still counts it (`tests="3" skipped="1"`). A base test missing from such a report, while
its skipped count has grown, is masked, not merely dropped (issue 36, finding 2)."""

from __future__ import annotations

from pathlib import Path

from a2a_tui.gate.verification.comparison import compare
from a2a_tui.gate.verification.reports import Outcome, TestCase, TestReport, read
from a2a_tui.gate.verification.reports.model import build

FIXTURE = Path(__file__).parent / "fixtures" / "reports" / "libtest-ignored.xml"


def test_libtests_report_counts_a_skipped_test_it_does_not_list():
    report = read(FIXTURE)
    assert report is not None and len(report.cases) == 2
    assert report.unlisted_skipped == 1


def test_a_base_test_gone_while_the_skipped_count_grew_is_masked():
    cand = read(FIXTURE)
    assert cand is not None
    base = build(cand.runner, [TestCase(c.file, c.key, Outcome.PASSED)
                               for c in cand.cases.values()]
                 + [TestCase(next(iter(cand.cases.values())).file, "tests::test_add",
                             Outcome.PASSED)])
    found = compare(base, cand, lambda t: False).findings
    (masked,) = [f for f in found if "test_add" in f.test]
    assert masked.code == "test_masked", masked
    assert "skipped" in masked.how and "does not list" in masked.how


def test_a_report_listing_all_its_skips_hides_none():
    assert TestReport("junit").unlisted_skipped == 0
