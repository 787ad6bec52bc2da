"""The chain's `per-test` step: every blocking check that reports its tests is held to its base,
test by test.

For each blocking check that passed, with a report (pytest's and `node --test`'s a2a asks for,
any other named on the card), or whose command runs a known test runner:
1. the base's tests of that check: from the log, else run on the base (baseline.py);
2. the candidate's run against them (comparison.py): dropped, masked, failed, count gaming;
3. the run's own closing summary and exit code against its report (reports/summary.py):
   `report_mismatch` where the report says better than the runner did; the run's own channel
   (reports/channel.py): `report_incomplete` where a2a's reporter started and never wrote its
   end-of-run record, `report_mismatch` where the report says better than it counted;
4. the base's test files as they were at the base — every file of `red_paths` and every
   `conftest.py` the candidate changed, deleted or added put back as the base had it — run
   against the candidate's code: a base test that passed at the base must pass there too, so a
   test edited, masked or laundered in the candidate still counts (`test_masked`), unless the
   card's `droppable_tests` allows it. Skipped when the candidate touched none of those files.

When no blocking check reports its tests, test files are judged by path instead: a test file
of the base deleted (not renamed: git sees at least half its content in a new file) rejects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from a2a_tui.gate.cards.schema import Check, path_matches
from a2a_tui.gate.verification import baseline
from a2a_tui.gate.verification.checkout import Checkout, old_side
from a2a_tui.gate.verification.comparison import HOW, Comparison, Finding, compare
from a2a_tui.gate.verification.isolated import RunResult
from a2a_tui.gate.verification.reports import channel, summary
from a2a_tui.gate.verification.reports.model import Outcome, TestReport
from a2a_tui.gate.verification.results import CheckResult
from a2a_tui.gate.verification.structural import OwnHistory, droppable

if TYPE_CHECKING:
    from a2a_tui.gate.verification.step import StepContext

# Besides the card's red_paths: files that change how a base test runs.
OVERLAY_EXTRA = ["**/conftest.py"]
# A command that runs tests: its base is run even when the candidate's run wrote no report.
TEST_RUNNER = re.compile(r"\b(pytest|py\.test|--test|(npm|yarn|pnpm)( run)? test|jest|vitest"
                         r"|go test|gotestsum|cargo (test|nextest)|mvn|gradle|ctest|tox|nox"
                         r"|make test)\b")
CODES = ("report_incomplete", "test_dropped", "test_masked", "test_failed", "report_mismatch",
         "no_report", "no_tests", "test_count")
SHOWN = 20
STEP = "per-test"  # no check can take it (cards.STEP_NAMES)


@dataclass
class Judged:
    """One check's tests, judged."""

    check: str
    report: TestReport | None
    base: baseline.Base
    comparison: Comparison = field(default_factory=Comparison)
    problems: list[Finding] = field(default_factory=list)
    overlay: str = ""

    def line(self) -> str:
        ran = len(self.report.ran()) if self.report else 0
        base = self.base.report
        head = (f"check {self.check} ({self.report.runner if self.report else 'no report'}):"
                f" {ran} test(s) ran, {len(self.report.passed()) if self.report else 0} passed,"
                f" against {len(base.ran()) if base else 0} at the base ({self.base.source})")
        more = [f"{len(self.comparison.moved)} moved or renamed"] if self.comparison.moved else []
        more += [f"xpass: {', '.join(self.comparison.xpass[:SHOWN])}"] if self.comparison.xpass \
            else []
        more += [f"allowed by droppable_tests: {_names(self.comparison.allowed)}"] \
            if self.comparison.allowed else []
        more += [self.overlay] if self.overlay else []
        return "; ".join([head, *more])


def tests(c: StepContext, own: OwnHistory) -> CheckResult:
    """The step's result over every blocking check of the card."""
    judged = []
    for check in c.card.checks:
        run = c.evidence.get(check.name)
        res = next((r for r in c.v.results if r.name == check.name), None)
        if check.blocking and run is not None and res is not None and res.passed:
            found = _judge(c, own, check, run)
            if found is not None:
                judged.append(found)
    if not judged:
        return _by_files(c, own)
    problems = sorted((p for j in judged for p in j.problems), key=lambda f: CODES.index(f.code))
    counts = {"run": sum(len(j.report.ran()) for j in judged if j.report),
              "passed": sum(len(j.report.passed()) for j in judged if j.report),
              "masked": sum(j.comparison.masked for j in judged),
              "dropped": sum(j.comparison.dropped for j in judged)}
    blocking = c.rules.blocks("per_test")
    lines = "; ".join(j.line() for j in judged)
    if not problems:
        return CheckResult(STEP, STEP, blocking, True, detail=lines, tests=counts)
    return CheckResult(STEP, STEP, blocking, False, code=problems[0].code, tests=counts,
                       detail=_problem_text(problems) + f" — {lines}",
                       failed_tests=[p.test for p in problems if "::" in p.test][:50])


def _problem_text(problems: list[Finding]) -> str:
    out = []
    for code in CODES:
        mine = [p for p in problems if p.code == code]
        if mine:
            out.append(f"{code}: {_names(mine)}")
    return "; ".join(out)


def _names(found: list[Finding]) -> str:
    more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
    return ", ".join(f.line() for f in found[:SHOWN]) + more


def _judge(c: StepContext, own: OwnHistory, check: Check, run: RunResult) -> Judged | None:
    cand = run.report
    if cand is None and not check.report and not TEST_RUNNER.search(check.command):
        return None  # not a test command: exit codes only
    base = baseline.base_tests(c, own.base, check.name, check.command, check.report,
                               check.timeout_s)
    if cand is None and base.report is None:
        return None
    fp = baseline.fingerprint(check.command, check.report, c.card.env)
    baseline.record(c, check.name, fp, c.v.sha, "candidate", cand)
    j = Judged(check.name, cand, base)
    if cand is None:
        j.problems.append(Finding("(the report)", "no_report", "the base's run reported"
                                  f" {len(base.report.ran()) if base.report else 0} test(s),"
                                  " the candidate's wrote none"
                                  + (f" ({'; '.join(run.notes)})" if run.notes else "")))
        return j
    j.comparison = compare(base.report, cand, lambda t: droppable(c.card, t))
    j.problems += j.comparison.findings
    output = f"{run.stdout_tail}\n{run.stderr_tail}"
    j.problems += [Finding("(the report)", "report_mismatch", why)
                   for why in summary.disagreements(cand, output, run.code)]
    j.problems += witnessed(cand)
    if base.report is not None:
        _overlay(c, own, check, j)
    return j


def witnessed(report: TestReport) -> list[Finding]:
    """What the run's own channel holds against its report (reports/channel.py)."""
    return [Finding("(the run)", code, why) for code, why in channel.findings(report)]


def _overlay(c: StepContext, own: OwnHistory, check: Check, j: Judged) -> None:
    """Run the base's own test files against the candidate's code (see the module's 4.)."""
    assert j.base.report is not None
    wanted = [t for t, case in j.base.report.cases.items() if case.outcome is Outcome.PASSED]
    paths = [ch for ch in own.changes
             if path_matches(ch.path, [*c.card.red_paths, *OVERLAY_EXTRA])]
    if not wanted or not paths:
        return
    overlay = Checkout(c.g, c.v.sha, f"{c.v.attempt}-r{c.v.run}-overlay",
                       overlay=old_side(paths))
    with overlay:
        r = c.run_in(check.command, overlay, c.logs / f"{check.name}.overlay.log",
                     check.timeout_s, check.report)
    j.overlay = (f"the base's test files ({len(paths)} changed by the candidate) run against"
                 f" its code: exit {r.code}")
    seen = {p.test for p in j.problems}
    for tid in wanted:
        now = r.report.outcome(tid) if r.report else None
        if now is Outcome.PASSED or tid in seen:
            continue
        finding = Finding(tid, "test_masked", f"its base version {HOW[now].split(' (')[0]}"
                          " on the candidate's code: the candidate changed it")
        j.comparison.add(finding, droppable(c.card, tid))
        if not droppable(c.card, tid):
            j.problems.append(finding)


def _by_files(c: StepContext, own: OwnHistory) -> CheckResult:
    """No blocking check reports its tests: a deleted test file of the base rejects."""
    kept = {ch.new_blob for ch in own.changes if ch.status != "D"}
    gone = [ch.path for ch in own.changes
            if ch.status == "D" and path_matches(ch.path, c.card.red_paths)
            and ch.old_blob not in kept and not droppable(c.card, ch.path)]
    if gone:
        gone = [p for p in gone if p not in c.g.git.renames(own.base, c.v.sha)]
    blocking = c.rules.blocks("per_test")
    if gone:
        return CheckResult(STEP, STEP, blocking, False, code="test_dropped",
                           detail="no blocking check reports its tests, so test files are"
                           " judged: the candidate deletes test files of its base: "
                           + ", ".join(gone[:SHOWN]))
    return CheckResult(STEP, STEP, blocking, True,
                       detail="no blocking check reports its tests (exit codes only); no test"
                       " file of the base deleted")
