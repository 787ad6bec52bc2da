"""A candidate's tests held against its base's, one by one.

Tests are matched by id; a base test whose id is gone matches a new test of the same key (its
classes and name, or suite chain and name) in another file: the file was renamed or the test
moved, it is the same test. Then:

- every test that passed at the base must pass in the candidate. Missing (deleted, renamed away,
  deselected) is `test_dropped`; skipped, xfail/todo (even one that passes) is `test_masked`;
  failed or errored while the run still passed is `test_failed`;
- a test the candidate adds or changes that ends skipped or xfail/todo is `test_masked`: its
  author knows it fails. A new xfail/todo test that passes is only reported (xpass);
- the card's `droppable_tests` lets named tests go (their change is listed, not refused);
- a report with no test run, or with fewer tests run than the base and none of the missing ones
  allowed, is count gaming: `no_tests`, `test_count`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from a2a_tui.gate.verification.reports.model import (
    MASKED,
    Outcome,
    TestCase,
    TestReport,
)

# The order findings are reported in (the first one's code is the result's).
CODES = ("test_dropped", "test_masked", "test_failed", "no_tests", "test_count")
HOW = {Outcome.SKIPPED: "skipped", Outcome.XFAIL: "marked xfail/todo (it fails)",
       Outcome.XPASS: "marked xfail/todo (it passes)", Outcome.FAILED: "failed",
       Outcome.ERROR: "errored", None: "missing (deleted, renamed away or deselected)"}


@dataclass(frozen=True)
class Finding:
    test: str
    code: str
    how: str

    def line(self) -> str:
        return f"{self.test} ({self.how})"


@dataclass
class Comparison:
    findings: list[Finding] = field(default_factory=list)
    allowed: list[Finding] = field(default_factory=list)   # what droppable_tests let go
    moved: dict[str, str] = field(default_factory=dict)    # base id -> candidate id
    xpass: list[str] = field(default_factory=list)         # new tests marked xfail that pass

    def add(self, finding: Finding, allowed: bool) -> None:
        (self.allowed if allowed else self.findings).append(finding)

    @property
    def masked(self) -> int:
        return len([f for f in self.findings + self.allowed if f.code == "test_masked"])

    @property
    def dropped(self) -> int:
        return len([f for f in self.findings + self.allowed if f.code == "test_dropped"])


def match(base: TestReport, cand: TestReport) -> dict[str, str | None]:
    """Each base test's id in the candidate (None: not there), renames and moves followed."""
    out: dict[str, str | None] = {t: (t if t in cand.cases else None) for t in base.cases}
    free: dict[str, list[TestCase]] = {}
    for tid, c in sorted(cand.cases.items()):
        if tid not in base.cases:
            free.setdefault(c.key, []).append(c)
    for tid in sorted(t for t, found in out.items() if found is None):
        b = base.cases[tid]
        same_key = free.get(b.key)
        if same_key:
            # Prefer a file whose name shares the most with the old one's.
            pick = max(same_key, key=lambda c: _common(c.file, b.file))
            same_key.remove(pick)
            out[tid] = pick.id
    return out


def _common(a: str, b: str) -> int:
    n = 0
    for x, y in zip(reversed(a), reversed(b), strict=False):
        if x != y:
            break
        n += 1
    return n


def compare(base: TestReport | None, cand: TestReport,
            allowed: Callable[[str], bool]) -> Comparison:
    """The candidate's report against the base's (None: the base ran no test)."""
    base = base or TestReport(cand.runner)
    found = Comparison()
    matched = match(base, cand)
    for tid, b in sorted(base.cases.items()):
        cid = matched[tid]
        if cid is not None and cid != tid:
            found.moved[tid] = cid
        if b.outcome is not Outcome.PASSED:
            continue
        now = cand.outcome(cid) if cid else None
        if now is Outcome.PASSED:
            continue
        code = ("test_dropped" if now is None else
                "test_masked" if now in MASKED else "test_failed")
        how = HOW[now]
        if now is None and cand.unlisted_skipped > base.unlisted_skipped:
            code, how = "test_masked", (f"missing, and the report counts {cand.unlisted_skipped}"
                                        " skipped test(s) it does not list (an ignored test?)")
        found.add(Finding(tid, code, how), allowed(tid) or bool(cid and allowed(cid)))
    before = {cid: base.cases[tid].outcome for tid, cid in matched.items() if cid}
    for cid, c in sorted(cand.cases.items()):
        if c.outcome not in MASKED or before.get(cid) in (c.outcome, Outcome.PASSED):
            continue  # unchanged, or a base pass already judged above
        if c.outcome is Outcome.XPASS:
            found.xpass.append(cid)
            continue
        how = f"{'a new test' if cid not in before else 'a changed test'}, {HOW[c.outcome]}"
        found.add(Finding(cid, "test_masked", how), allowed(cid))
    _count(base, cand, found)
    found.findings.sort(key=lambda f: CODES.index(f.code))
    return found


def _count(base: TestReport, cand: TestReport, found: Comparison) -> None:
    ran, before = len(cand.ran()), len(base.ran())
    if ran == 0:
        found.add(Finding("(the report)", "no_tests", "it shows no test run"), False)
        return
    let_go = len([f for f in found.allowed if f.code == "test_dropped"])
    if ran < before - let_go and not any(f.code == "test_dropped" for f in found.findings):
        found.add(Finding("(the report)", "test_count",
                          f"{ran} test(s) ran, {before} at the base, none of the missing"
                          " allowed"), False)
