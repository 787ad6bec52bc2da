"""The red step: the candidate's new tests fail on its base and pass on the candidate, and no test
that ran on the base is gone from the candidate.

Runs of the card's `red_command`, each with the card's `red_timeout_s` (or the gate's default):
1. on the base with the candidate's test files laid over it (`red_paths`): must fail;
2. on the candidate: must pass;
3. when the command runs pytest, on the bare base as well: every test that ran there must run
   on the candidate too — not deleted, deselected, skipped or marked xfail, in code or in
   configuration — unless the card's `droppable_tests` allows it (judged from junit XML).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from a2a_tui.gate.cards import path_matches
from a2a_tui.gate.verify import junit
from a2a_tui.gate.verify.checkout import Checkout, Workspace
from a2a_tui.gate.verify.results import CheckResult
from a2a_tui.gate.verify.run import RunResult
from a2a_tui.gate.verify.structural import OwnHistory, droppable

if TYPE_CHECKING:
    from a2a_tui.gate.verify.chain import Chain

WHY_GONE = {"skipped": "skipped", "xfail": "marked xfail", None: "deleted or deselected"}


@dataclass
class RedPlan:
    """What the chain hands the red step."""

    ctx: Chain
    base: str
    own: OwnHistory
    blocking: bool


def runs_pytest(command: str) -> bool:
    """Whether the command runs pytest (`pytest ...`, `python -m pytest ...`)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    return any(w.rsplit("/", 1)[-1] in ("pytest", "py.test") for w in words)


class _Tampered(Exception):
    """A checkout changed outside a2a before a run (checkout.py): the run does not happen."""


def red(plan: RedPlan, ws: Workspace, logs: Path) -> CheckResult:
    """The red step's result. The candidate's run happens in the workspace `ws` (compared
    afterwards by the chain); the base's runs in checkouts of their own, the candidate's test
    files written over one of them from the candidate's blobs."""
    c = plan.ctx
    card = c.card
    command = card.red_command
    assert command
    tests = [ch for ch in plan.own.changes if path_matches(ch.path, card.red_paths)]
    name = f"{c.v.attempt}-r{c.v.run}"

    def run(co: Checkout | Workspace, where: Path, log: str) -> RunResult:
        found = co.unexpected()
        if found:
            raise _Tampered(f"before the red run {log}, its checkout changed outside a2a:"
                            f" {', '.join(found[:20])}; it did not run there")
        return c.run_in(command, where, logs / f"{log}.log", card.red_timeout_s)

    try:
        baseline = None
        if runs_pytest(command):
            bare = Checkout(c.g, plan.base, f"{name}-base")
            with bare:
                baseline = run(bare, bare.path, "red-base")
        overlay = Checkout(c.g, plan.base, f"{name}-red", overlay=tests)
        with overlay:
            on_base = run(overlay, overlay.path, "red-start")
        on_candidate = run(ws, ws.path(), "red-candidate")
    except _Tampered as exc:
        return CheckResult("red", "red", True, False, code="tree_modified", detail=str(exc))
    return _judge(plan, len(tests), baseline, on_base, on_candidate)


def _judge(plan: RedPlan, n_tests: int, baseline: RunResult | None, on_base: RunResult,
           on_candidate: RunResult) -> CheckResult:
    card = plan.ctx.card
    dur = sum(r.duration_s for r in (baseline, on_base, on_candidate) if r is not None)
    problems: list[tuple[str, str, RunResult]] = []
    base = ("the start commit" if plan.base == plan.ctx.att["start_commit"]
            else f"its base {plan.base[:12]} (the target merged in)")
    if on_base.passed:
        problems.append(("not_red", f"the new tests pass on {base}: they do not test the"
                         f" problem ({n_tests} test file(s) laid over it)", on_base))
    if not on_candidate.passed:
        why = (f"timed out after {on_candidate.timeout_s}s" if on_candidate.timed_out
               else f"exit {on_candidate.code}")
        problems.append(("not_green", f"the red command fails on the candidate ({why})",
                         on_candidate))
    gone = _dropped(card, baseline, on_candidate)
    if gone:
        problems.append(("test_dropped", "tests of the base that no longer run on the candidate:"
                         " " + ", ".join(gone[:20]), on_candidate))
    if not problems:
        to = f", timed out after {on_base.timeout_s}s" if on_base.timed_out else ""
        kept = f"; {len(baseline.report.ran())} test(s) of the base all ran" \
            if baseline is not None and baseline.report else ""
        return CheckResult("red", "red", plan.blocking, True, exit_code=0, duration_s=dur,
                           detail=f"red on {base} (exit {on_base.code}{to}), green on"
                           f" candidate{kept}", log_path=str(on_candidate.log))
    code, _, run = problems[0]
    return CheckResult("red", "red", plan.blocking, False, exit_code=run.code, duration_s=dur,
                       code=code, detail="; ".join(p[1] for p in problems),
                       stdout_tail=run.stdout_tail, stderr_tail=run.stderr_tail,
                       log_path=str(run.log), first_error=run.excerpt.line,
                       error_context=run.excerpt.context,
                       failed_tests=run.report.failed()[:50] if run.report else [])


def _dropped(card, baseline: RunResult | None, candidate: RunResult) -> list[str]:
    if baseline is None or baseline.report is None:
        return []
    before = baseline.report.ran()
    if candidate.report is None:
        return ["all of them: the candidate's run wrote no junit report (pytest's junitxml"
                " turned off?)"] if before else []
    after = candidate.report.outcomes
    gone = []
    for test in sorted(before):
        outcome = after.get(test)
        if outcome in junit.RAN or droppable(card, test):
            continue
        gone.append(f"{test} ({WHY_GONE.get(outcome, outcome)})")
    return gone
