"""A review report: Markdown that ends in a fenced ```verdict block, validated field by field.

Pure parsing (no repository): each malformed block is refused with one error that names the
field and the report's line.
"""

from __future__ import annotations

import pytest

from a2a_tui.errors import A2AError
from a2a_tui.gate.reviews.report import parse_report
from tests.support import review_report

FAIL = review_report("fail", issues=[("B1", "Empty names are still accepted",
                                      ["src/app.py:2", "tests/test_app.py:1-3"])],
                     risks=["the error text is not translated"], follow_up=True)


def test_a_fail_report_gives_its_issues_risks_and_follow_up():
    v = parse_report(FAIL, "R.md")
    assert v.verdict == "fail" and v.recommends_follow_up is True
    assert [(i.id, i.title, i.evidence) for i in v.blocking_issues] == [
        ("B1", "Empty names are still accepted", ["src/app.py:2", "tests/test_app.py:1-3"])]
    assert v.risks == ["the error text is not translated"]
    assert v.text.startswith("# Review") and "```verdict" not in v.text


def test_a_pass_needs_no_issues_and_trailing_blank_lines_are_fine():
    v = parse_report(review_report("pass") + "\n\n", "R.md")
    assert (v.verdict, v.blocking_issues, v.risks) == ("pass", [], [])


def _swap(old: str, new: str, text: str = FAIL) -> str:
    assert old in text
    return text.replace(old, new)


BAD = {
    "no block": ("# Review\nLooks fine.\n", "no ```verdict block"),
    "block not last": (FAIL + "\nOne more thing.\n", "must end with its ```verdict block"),
    "two blocks": (FAIL.replace("# Review", "# Review\n```verdict\nverdict = \"pass\"\n```\n"),
                   "one ```verdict block"),
    "unclosed": (FAIL.rstrip().removesuffix("```"), "not closed"),
    "nothing before": (FAIL[FAIL.index("```verdict"):], "no text before its verdict block"),
    "not toml": (_swap('verdict = "fail"', "verdict: fail"), "not valid TOML"),
    "missing verdict": (_swap('verdict = "fail"\n', ""), "field 'verdict' is required"),
    "unknown verdict": (_swap('verdict = "fail"', 'verdict = "block"'),
                        "field 'verdict' must be one of pass, pass_with_risks, fail"),
    "missing follow up": (_swap("recommends_follow_up = true\n", ""),
                          "field 'recommends_follow_up' is required"),
    "unknown field": (_swap("recommends_follow_up = true",
                            "recommends_follow_up = true\nshould_continue = true"),
                      "field 'should_continue' is not a verdict field"),
    "fail without issues": (review_report("fail"),
                            "field 'blocking_issues': a fail names at least one blocking issue"),
    "pass with issues": (_swap('verdict = "fail"', 'verdict = "pass"'),
                         "field 'blocking_issues': a pass has no blocking issues"),
    "pass with risks but no risks": (review_report("pass_with_risks"),
                                     "field 'risks': a pass_with_risks names at least one risk"),
    "evidence not file:line": (_swap('"src/app.py:2"', '"src/app.py"'),
                               "field 'blocking_issues[0].evidence[0]' must be file:line"),
    "evidence outside": (_swap('"src/app.py:2"', '"../etc/passwd:1"'),
                         "field 'blocking_issues[0].evidence[0]'"),
    "no evidence": (_swap('evidence = ["src/app.py:2", "tests/test_app.py:1-3"]', "evidence = []"),
                    "field 'blocking_issues[0].evidence'"),
    "blank title": (_swap('title = "Empty names are still accepted"', 'title = " "'),
                    "field 'blocking_issues[0].title' must not be empty"),
    "duplicate ids": (review_report("fail", issues=[("B1", "a", ["src/app.py:1"]),
                                                    ("B1", "b", ["src/app.py:2"])]),
                      "field 'blocking_issues': issue id 'B1' is used twice"),
}


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_a_malformed_report_is_refused_naming_the_field(case):
    text, words = BAD[case]
    with pytest.raises(A2AError) as err:
        parse_report(text, "R.md")
    assert err.value.code == "bad_verdict"
    assert words in err.value.message, err.value.message
    assert err.value.message.startswith("R.md")
    assert "\n" not in err.value.message


def test_the_error_points_at_the_line_of_the_field():
    text = _swap('"src/app.py:2"', '"src/app.py"')
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "evidence" in s)
    with pytest.raises(A2AError) as err:
        parse_report(text, "R.md")
    assert err.value.message.startswith(f"R.md:{line}: ")
