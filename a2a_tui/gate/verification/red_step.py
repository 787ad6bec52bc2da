"""The red step: the candidate's new tests fail on its base and pass on the candidate, and no
test of the base is dropped or masked.

Runs of the card's `red_command` (its report: pytest's and node's automatic, else `red_report`,
as a check's `report`), each with the card's `red_timeout_s` (or the gate's default):
1. on the base with the candidate's test files laid over it (`red_paths`): must fail;
2. on the candidate: must pass;
3. when the runs report their tests (any adapter, reports/), the base's own tests too (from the
   log, else run on the bare base: baseline.py). Then, test by test: the red tests — those that
   fail in 1 and did not fail on the bare base — exist, and each passes in 2 (not skipped,
   xfail/todo or missing). A test that fails on the bare base (the user wrote the failing test
   first) and passes in 2 is a red test when its base version passes on the candidate's
   code: as 2 when the candidate changed no test file, else a run of the base's test files over
   the candidate (4); a test changed to pass instead is `test_masked`. Every base test that
   passed still passes and no test the candidate adds or changes ends skipped or xfail/todo
   (comparison.py), unless `droppable_tests` allows it; the candidate's report agrees with its
   run's summary and exit code. A red test that passes on the candidate without running an
   assertion (a2a's reporter counts them: pytest, jest) is not one (`no_assertions`); a test
   failing on the bare base that is gone or masked on the candidate is dropped or masked;
4. when 3 needs it: the base's test files (`red_paths`, conftest.py) over the candidate.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from a2a_tui.gate.cards.schema import path_matches
from a2a_tui.gate.verification import baseline
from a2a_tui.gate.verification.checkout import (
    Checkout,
    Tampered,
    Workspace,
    new_side,
    old_side,
)
from a2a_tui.gate.verification.comparison import HOW, Comparison, Finding, compare
from a2a_tui.gate.verification.isolated import RunResult
from a2a_tui.gate.verification.per_test import CODES, OVERLAY_EXTRA, witnessed
from a2a_tui.gate.verification.reports import (
    FAILING,
    MASKED,
    Outcome,
    TestReport,
    summary,
)
from a2a_tui.gate.verification.results import CheckResult, from_run
from a2a_tui.gate.verification.structural import OwnHistory, droppable

if TYPE_CHECKING:
    from a2a_tui.gate.verification.step import StepContext

SHOWN = 20


@dataclass
class RedPlan:
    """What the chain hands the red step."""

    ctx: StepContext
    base: str
    own: OwnHistory
    blocking: bool


@dataclass(frozen=True)
class RedRuns:
    on_base: RunResult             # the candidate's tests laid over the base
    on_candidate: RunResult
    bare: baseline.Base | None     # the base's own tests, when the runs report tests
    authored: RunResult | None = None  # the base's test files over the candidate (see 3.)


def red(plan: RedPlan, ws: Workspace, logs: Path) -> CheckResult:
    """The red step's result. The candidate's run happens in the workspace `ws` (compared
    afterwards by the chain); the base's runs in checkouts of their own, the candidate's test
    files written over one of them from the candidate's blobs."""
    c = plan.ctx
    card = c.card
    command = card.red_command
    assert command
    tests = [ch for ch in plan.own.changes if path_matches(ch.path, card.red_paths)]
    try:
        overlay = Checkout(c.g, plan.base, f"{c.v.attempt}-r{c.v.run}-red",
                           overlay=new_side(tests))
        with overlay:
            on_base = c.run_in(command, overlay, logs / "red-start.log", card.red_timeout_s,
                               card.red_report, commit=plan.base)
        on_candidate = c.run_in(command, ws, logs / "red-candidate.log", card.red_timeout_s,
                                card.red_report)
        bare, authored = None, None
        if on_base.report or on_candidate.report or card.red_report:
            bare = baseline.base_tests(c, plan.base, "red", command, card.red_report,
                                       card.red_timeout_s)
            baseline.record(c, "red", baseline.fingerprint(command, card.red_report, card.env),
                            c.v.sha, "candidate", on_candidate.report)
            authored = _authored(plan, RedRuns(on_base, on_candidate, bare), logs)
    except Tampered as exc:
        return CheckResult("red", "red", True, False, code="tree_modified",
                           detail=f"a checkout of the red step changed outside a2a before its"
                                  f" run: {exc}; it did not run there")
    return _judge(plan, len(tests), RedRuns(on_base, on_candidate, bare, authored))


def _anyway(runs: RedRuns) -> list[str]:
    """Tests that fail on the bare base and pass on the candidate: the user's own failing
    test, when the candidate did not change it."""
    bare, cand = runs.bare, runs.on_candidate.report
    if cand is None or bare is None or bare.report is None:
        return []
    return [t for t in bare.report.failed() if cand.outcome(t) is Outcome.PASSED]


def _authored(plan: RedPlan, runs: RedRuns, logs: Path) -> RunResult | None:
    """The base's test files run over the candidate's code, when the candidate changed one and
    a test of the base that failed there passes on the candidate; else None (the candidate's
    own run is that run when it changed no test file)."""
    c, card = plan.ctx, plan.ctx.card
    paths = [ch for ch in plan.own.changes
             if path_matches(ch.path, [*card.red_paths, *OVERLAY_EXTRA])]
    if not paths or not _anyway(runs):
        return None
    assert card.red_command
    overlay = Checkout(c.g, c.v.sha, f"{c.v.attempt}-r{c.v.run}-red-authored",
                       overlay=old_side(paths))
    with overlay:
        return c.run_in(card.red_command, overlay, logs / "red-authored.log",
                        card.red_timeout_s, card.red_report)


def _judge(plan: RedPlan, n_tests: int, runs: RedRuns) -> CheckResult:
    on_base, on_candidate = runs.on_base, runs.on_candidate
    dur = sum(r.duration_s for r in (on_base, on_candidate, runs.authored,
                                     runs.bare.run if runs.bare else None) if r is not None)
    base = ("the start commit" if plan.base == plan.ctx.start_commit
            else f"its base {plan.base[:12]} (the target merged in)")
    problems: list[tuple[str, str, RunResult]] = []
    if on_base.passed:
        problems.append(("not_red", f"the new tests pass on {base}: they do not test the"
                         f" problem ({n_tests} test file(s) laid over it)", on_base))
    if not on_candidate.passed:
        why = (f"timed out after {on_candidate.timeout_s}s" if on_candidate.timed_out
               else f"exit {on_candidate.code}")
        problems.append(("not_green", f"the red command fails on the candidate ({why})",
                         on_candidate))
    red_tests, findings, cmp = _per_test(plan, runs)
    empty = any(f.code == "no_assertions" for f in findings)  # says why there is none
    if red_tests is not None and not red_tests and not on_base.passed and not empty:
        problems.append(("not_red", f"on {base} only tests that fail there anyway fail: the new"
                         " tests do not test the problem", on_base))
    counts = None
    if runs.bare is not None:
        cand = on_candidate.report
        counts = {"run": len(cand.ran()) if cand else 0,
                  "passed": len(cand.passed()) if cand else 0,
                  "masked": cmp.masked if cmp else 0, "dropped": cmp.dropped if cmp else 0}
    for code in (*CODES, "no_assertions"):
        mine = [f for f in findings if f.code == code]
        if mine:
            more = f" and {len(mine) - SHOWN} more" if len(mine) > SHOWN else ""
            problems.append((code, f"{code}: " + ", ".join(f.line() for f in mine[:SHOWN])
                             + more, on_candidate))
    if not problems:
        to = f", timed out after {on_base.timeout_s}s" if on_base.timed_out else ""
        named = f"; failing there: {', '.join(red_tests[:SHOWN])}" if red_tests else ""
        bare = runs.bare.report if runs.bare else None
        kept = f"; {len(bare.passed())} passing test(s) of the base all still pass" \
            if bare is not None else ""
        return CheckResult("red", "red", plan.blocking, True, exit_code=0, duration_s=dur,
                           detail=f"red on {base} (exit {on_base.code}{to}{named}), green on"
                           f" candidate{kept}", log_path=str(on_candidate.log), tests=counts)
    code, _, run = problems[0]
    return from_run("red", "red", plan.blocking, run, passed=False, code=code,
                    detail="; ".join(p[1] for p in problems), duration_s=dur, tests=counts)


def _allowed(plan: RedPlan):
    return lambda test: droppable(plan.ctx.card, test)


def _per_test(plan: RedPlan, runs: RedRuns
              ) -> tuple[list[str] | None, list[Finding], Comparison | None]:
    """The red tests (None: the runs do not report tests), what the reports show wrong, and
    the candidate's tests against the base's."""
    bare = runs.bare.report if runs.bare else None
    on_base, cand = runs.on_base.report, runs.on_candidate.report
    if runs.bare is None:
        return None, [], None
    if cand is None:
        n = len(bare.ran()) if bare else 0
        return None, [Finding("(the report)", "no_report", f"the base's run reported {n}"
                              " test(s), the candidate's wrote none")], None
    cmp = compare(bare, cand, _allowed(plan))
    found = list(cmp.findings)
    found += [Finding("(the report)", "report_mismatch", why) for why in summary.disagreements(
        cand, f"{runs.on_candidate.stdout_tail}\n{runs.on_candidate.stderr_tail}",
        runs.on_candidate.code)]
    found += witnessed(cand)
    if on_base is None:
        return None, found, cmp
    red_tests = [t for t in on_base.failed()
                 if (bare.outcome(t) if bare else None) not in FAILING]
    for t in _anyway(runs):
        theirs = runs.authored.report if runs.authored else cand
        if theirs is not None and theirs.outcome(t) is Outcome.PASSED:
            red_tests.append(t)
        elif not droppable(plan.ctx.card, t):
            found.append(Finding(t, "test_masked", "failing on the base, passing on the"
                                 " candidate, but its base version still fails on the"
                                 " candidate's code: the test was changed, not the code"))
    found += _failing_hidden(plan, bare, cand, {f.test for f in found})
    empty = set(cand.witness.no_assertions()) if cand.witness else set()
    found += [Finding(t, "no_assertions", "it fails on the base and passes on the candidate"
                      " without running an assertion: not a red test")
              for t in red_tests if t in empty]
    red_tests = [t for t in red_tests if t not in empty]
    seen = {f.test for f in found}
    for t in red_tests:
        now = cand.outcome(t)
        if now is Outcome.PASSED or t in seen or droppable(plan.ctx.card, t):
            continue
        code = ("test_dropped" if now is None else "test_masked" if now in MASKED
                else "test_failed")
        found.append(Finding(t, code, f"red on the base, {HOW[now]} on the candidate"))
    return red_tests, found, cmp


def _failing_hidden(plan: RedPlan, bare: TestReport | None, cand: TestReport,
                    seen: set[str]) -> list[Finding]:
    """A test failing on the bare base (the user's own failing test) must pass on the
    candidate: gone or masked (skipped, ignored, xfail/todo) there it is dropped or masked."""
    out = []
    for t in bare.failed() if bare else []:
        now = cand.outcome(t)
        if (now is None or now in MASKED) and t not in seen and not droppable(plan.ctx.card, t):
            code = "test_dropped" if now is None else "test_masked"
            out.append(Finding(t, code, f"failing on the base, {HOW[now]} on the candidate"))
    return out
