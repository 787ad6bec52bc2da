"""TAP (the Test Anything Protocol, versions 13 and 14 with indented subtests), read as a report.

`ok N - name`, `not ok N - name`, with `# SKIP` (skipped) or `# TODO` (xfail when not ok,
xpass when ok). A subtest is indented four spaces under its parent and reported before it; a
point that has subtests is a suite, not a test. A test's key is its chain of names joined by
` > `; TAP names no file.
"""

from __future__ import annotations

import re
from pathlib import Path

from a2a_tui.gate.verification.reports.model import Outcome, TestCase, TestReport, build

MAX_BYTES = 50 * 1024 * 1024
_POINT = re.compile(r"^(?P<indent>\s*)(?P<not>not )?ok\b(?:\s+\d+)?(?:\s*-\s*)?"
                    r"(?P<name>[^#]*?)\s*(?:#\s*(?P<directive>SKIP|TODO)\b.*)?$", re.I)
_SUBTEST = re.compile(r"^(?P<indent>\s*)# Subtest: (?P<name>.*)$")


def looks_like(text: str) -> bool:
    head = text.lstrip()[:200]
    return head.startswith(("TAP version", "1..", "ok ", "not ok ", "# Subtest"))


def read(path: Path) -> TestReport | None:
    """The TAP stream in `path`, or None when it cannot be read or is not TAP."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return parse(text) if looks_like(text) else None


def parse(text: str) -> TestReport:
    """Every test point of a TAP stream."""
    names: dict[int, str] = {}      # indent -> the subtest announced there (TAP 14)
    deeper: set[int] = set()        # indents that have had points since their parent's
    cases: list[TestCase] = []
    for line in text.splitlines():
        sub = _SUBTEST.match(line)
        if sub:
            names[len(sub["indent"])] = sub["name"].strip()
            continue
        m = _POINT.match(line)
        if not m:
            continue
        level = len(m["indent"])
        parents = [names[i] for i in sorted(names) if i < level]
        had_children = any(i > level for i in deeper)
        deeper = {i for i in deeper if i <= level} | {level}
        if had_children:
            continue  # a suite: its subtests were the tests
        name = m["name"].strip() or names.get(level, "")
        cases.append(TestCase("", " > ".join([*parents, name]), _outcome(m)))
    return build("tap", cases)


def _outcome(m: re.Match[str]) -> Outcome:
    directive = (m["directive"] or "").upper()
    ok = not m["not"]
    if directive == "SKIP":
        return Outcome.SKIPPED
    if directive == "TODO":
        return Outcome.XPASS if ok else Outcome.XFAIL
    return Outcome.PASSED if ok else Outcome.FAILED
