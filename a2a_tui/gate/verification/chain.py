"""The chain, in order: precheck, sanity, boundary, drift, provenance, red, the card's checks,
per-test (each blocking check's tests held to the base's: per_test.py), artifacts. Each yields
one result (a run step also a `<step>/tree` result when it changed a tracked file). After a
blocking failure the rest is reported `skipped` when the gate rules say
`stop_at_first_blocking_failure` (the default); a failed precheck or sanity always stops it.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from a2a_tui.confine.checks import Sandbox
from a2a_tui.gate.cards import precheck
from a2a_tui.gate.cards.gate_rules import GateRules
from a2a_tui.gate.cards.schema import Card, Check, glob_to_regex
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.ledger.records import AttemptRecord
from a2a_tui.gate.verification import per_test, reports, structural, thresholds
from a2a_tui.gate.verification.checkout import Checkout, Tampered, Workspace
from a2a_tui.gate.verification.interrupt import Cancel, VerifyInterrupted
from a2a_tui.gate.verification.isolated import RunResult, run
from a2a_tui.gate.verification.red_step import RedPlan, red
from a2a_tui.gate.verification.reports import channel
from a2a_tui.gate.verification.results import CheckResult, Verification, from_run, skipped
from a2a_tui.git import GitError

Progress = Callable[[str, CheckResult | None], None]


@dataclass
class Chain:
    g: GateContext
    att: AttemptRecord
    v: Verification
    card: Card
    rules: GateRules
    logs: Path
    progress: Progress
    env: dict[str, str]
    cancel: Cancel | None = None
    sandbox: Sandbox | None = None       # every run of the candidate's code is confined in it
    halted: str | None = None
    pending: list[tuple[str, str, bool]] = field(default_factory=list)
    # Each check's run that decided it (the last), for the tests step.
    evidence: dict[str, RunResult] = field(default_factory=dict)
    tracked_files: dict[str, set[str]] = field(default_factory=dict)

    @property
    def task(self) -> str:
        return self.att.card_id

    @property
    def start_commit(self) -> str:
        return self.att.start_commit

    def run_in(self, command: str, where: Checkout | Workspace, log: Path, timeout: int | None,
               report: str | None = None, commit: str | None = None) -> RunResult:
        """Run a command in a checkout of `commit` (default: the candidate), compared in full
        first (`Tampered`: someone else wrote there, and nothing runs); a `report` the card
        names is collected from the checkout afterwards (reports/auto.py)."""
        cwd = where.ready()
        declared = reports.Declared(report) if report else None
        if declared:
            declared.snapshot(cwd)
        r = run(command, cwd, timeout_s=self.rules.timeout(timeout), log=log, env=self.env,
                cancel=self.cancel, sandbox=self.sandbox)
        if declared is None:
            return r
        commit = commit or self.v.sha
        if commit not in self.tracked_files:
            self.tracked_files[commit] = set(self.g.git.files(commit))
        found = declared.collect(cwd, self.tracked_files[commit], log.with_suffix(".report"))
        both = found if r.report is None or found is None else r.report.merged(found)
        both = channel.attach(both, log) if both is not None else None
        return dataclasses.replace(r, report=both, notes=(*r.notes, *declared.notes))

    def add(self, res: CheckResult) -> CheckResult:
        self.v.results.append(res)
        self.pending = [p for p in self.pending if p[0] != res.name]
        if (res.blocking and not res.passed and not res.skipped and self.halted is None
                and self.rules.stop_at_first_blocking_failure):
            self.halted = f"an earlier blocking check failed ({res.name})"
        return res

    def start(self, name: str) -> bool:
        """Announce a step; False when it must be skipped instead."""
        stop = self.cancel() if self.cancel else None
        if stop:
            raise VerifyInterrupted(*stop)
        if self.halted:
            return False
        self.progress(name, None)
        return True

    def skip(self, name: str) -> Iterator[CheckResult]:
        """The step reported `skipped`, unless it was reported already."""
        for pending, kind, blocking in self.pending:
            if pending == name:
                yield self.add(skipped(name, kind, blocking, self.halted or ""))
                return

    def skip_rest(self, why: str) -> Iterator[CheckResult]:
        self.halted = self.halted or why
        for name, _, _ in list(self.pending):
            yield from self.skip(name)


def run_chain(c: Chain) -> Iterator[CheckResult]:
    card, rules, git, v = c.card, c.rules, c.g.git, c.v
    c.pending = [("sanity", "sanity", True),
                 *((s, s, rules.blocks(s)) for s in ("boundary", "drift", "provenance")),
                 *([("red", "red", rules.blocks("red"))] if card.red_command else []),
                 *((ch.name, "command", ch.blocking) for ch in card.checks),
                 (per_test.STEP, per_test.STEP, rules.blocks("per_test")),
                 *([("artifacts", "artifacts", rules.blocks("artifacts"))]
                   if card.artifacts else [])]
    for name, step, why in (("precheck", _precheck, "the card's contract is invalid"),
                            ("sanity", _sanity, "sanity failed")):
        c.start(name)
        res = c.add(step(c))
        yield res
        if not res.passed:  # nothing after these can be judged
            yield from c.skip_rest(why)
            return
    own = structural.own_history(git, c.att.start_commit, v.sha,
                                 git.ref_value(f"refs/heads/{c.att.target_branch}"))
    v.changed_lines = dict(zip(("added", "removed"), git.numstat(own.base, v.sha), strict=True))
    steps = {"boundary": lambda: structural.boundary(git, card, v.sha, own,
                                                     rules.blocks("boundary"), rules.limits),
             "drift": lambda: structural.drift(card, own, rules.blocks("drift")),
             "provenance": lambda: structural.provenance(c.g, c.att, card, own,
                                                         rules.blocks("provenance"))}
    for name, step in steps.items():
        if c.start(name):
            yield c.add(step())
        else:
            yield from c.skip(name)
    ws = Workspace(c.g, v.sha, f"{v.attempt}-r{v.run}")
    try:
        yield from _in_workspace(c, ws, own)
    finally:
        ws.close()
    if card.artifacts:
        if c.start("artifacts"):
            yield c.add(_artifacts(c))
        else:
            yield from c.skip("artifacts")


def _in_workspace(c: Chain, ws: Workspace, own: structural.OwnHistory
                  ) -> Iterator[CheckResult]:
    """The steps that run the candidate's code, each in the workspace's private checkout: red,
    the card's checks, then the per-test step on what they reported."""
    card, rules = c.card, c.rules
    if card.red_command:
        if not c.start("red"):
            yield from c.skip("red")
        else:
            tree = yield from _checkout(c, ws, "red", "red")
            if tree is not None:
                yield c.add(red(RedPlan(c, own.base, own, rules.blocks("red")), ws, c.logs))
                yield from _tree_result(c, ws, "red", ws.changed())
    for check in card.checks:
        if not c.start(check.name):
            yield from c.skip(check.name)
            continue
        yield from _command(c, ws, check)
    if c.start(per_test.STEP):
        try:
            yield c.add(per_test.tests(c, own))
        except Tampered as exc:
            yield from _tampered(c, per_test.STEP, per_test.STEP, rules.blocks("per_test"), exc)
    else:
        yield from c.skip(per_test.STEP)


def _checkout(c: Chain, ws: Workspace, name: str, kind: str):
    """The workspace's checkout, or a failed result (and a stop) when git cannot make it."""
    try:
        return ws.path()
    except GitError as exc:
        yield c.add(CheckResult(name, kind, True, False, code="checkout_failed",
                                detail=f"no checkout of {c.v.sha[:12]}: {exc.message}"))
        yield from c.skip_rest("the candidate cannot be checked out")
        return None


def _command(c: Chain, ws: Workspace, check: Check) -> Iterator[CheckResult]:
    """One of the card's checks; a blocking failure is run again up to `flaky_reruns` times."""
    runs: list[RunResult] = []
    changed: list[str] = []
    for n in range(c.rules.flaky_reruns + 1 if check.blocking else 1):
        if runs and runs[-1].passed:
            break
        tree = yield from _checkout(c, ws, check.name, "command")
        if tree is None:
            return
        log = c.logs / (f"{check.name}.rerun{n}.log" if n else f"{check.name}.log")
        try:
            runs.append(c.run_in(check.command, ws, log, check.timeout_s, check.report))
        except Tampered as exc:
            yield from _tampered(c, check.name, "command", check.blocking, exc)
            return
        changed += [p for p in ws.changed() if p not in changed]
    c.evidence[check.name] = runs[-1]
    yield c.add(_check_result(check, runs, changed))
    yield from _tree_result(c, ws, check.name, changed)
    for res in thresholds.results(c.g.store, c.rules, c.att, check.name, runs[-1]):
        yield c.add(res)


def _tampered(c: Chain, name: str, kind: str, blocking: bool, exc: Tampered
              ) -> Iterator[CheckResult]:
    """A run that did not happen: its checkout changed since a2a last saw it (someone else
    wrote there). The tree result says what changed; it always blocks (the evidence could not
    be trusted), whatever the gate rules say of `tree`."""
    yield c.add(CheckResult(
        f"{name}/tree", "tree", True, False, code="tree_modified",
        detail=f"before {name} ran, its checkout changed outside a2a: {exc}; it did not run"
               " there"))
    yield c.add(CheckResult(name, kind, blocking, False, code="tree_modified",
                            detail=f"not run: its checkout changed before it ran (see"
                                   f" {name}/tree)"))


def _check_result(check: Check, runs: list[RunResult], changed: list[str]) -> CheckResult:
    first, last = runs[0], runs[-1]
    ended = sum(r.ended for r in runs)
    left = f"; {ended} process(es) left behind were ended" if ended else ""
    tree = "" if changed else "; checkout unchanged"
    if first.passed:
        return _from_run(check, first, True, None, f"exit 0{tree}{left}")
    what = (f"timed out after {first.timeout_s}s" if first.timed_out
            else f"exit {first.code}")
    reruns = len(runs) - 1
    if last.passed:
        return _from_run(check, first, False, "flaky",
                         f"{what}, then passed on rerun {reruns}: the result is unknown"
                         f" (flaky){tree}{left}")
    again = (f"; failed again on {reruns} rerun{'s' if reruns > 1 else ''}" if reruns else "")
    return _from_run(check, first, False, "check_timeout" if first.timed_out else "check_failed",
                     f"{what}{again}{tree}{left}")


def _from_run(check: Check, r: RunResult, passed: bool, code: str | None,
              detail: str) -> CheckResult:
    return from_run(check.name, "command", check.blocking, r, passed=passed, code=code,
                    detail=detail)


def _tree_result(c: Chain, ws: Workspace, step: str, changed: list[str]
                 ) -> Iterator[CheckResult]:
    if changed:
        yield c.add(CheckResult(
            f"{step}/tree", "tree", c.rules.blocks("tree"), False, code="tree_modified",
            detail=f"{step} changed tracked files of {c.v.sha[:12]}: {', '.join(changed[:20])};"
                   " the next step had a fresh checkout"))


def _precheck(c: Chain) -> CheckResult:
    runner = precheck.Runner(c.g.git, c.att.start_commit, c.env.get("PATH", os.defpath))
    found = precheck.problems(c.card, c.rules, runner)
    c.v.contract_problems = found
    if found:
        return CheckResult("precheck", "precheck", True, False, code="contract_invalid",
                           detail="the card's contract is invalid: " + "; ".join(found))
    return CheckResult("precheck", "precheck", True, True,
                       detail="programs found and allowed, named files in the start commit")


def _sanity(c: Chain) -> CheckResult:
    v, att, git = c.v, c.att, c.g.git
    problems, code = [], None
    if not git.object_is_commit(v.sha):
        # It was a commit when it was submitted (submit checks it, and pins it): it vanished
        # since, which says nothing of the worker's work (record.py: no strike, the user's).
        problems.append(f"the submitted commit {v.sha[:12]} is no longer in this repository"
                        f" (refs/a2a/submitted/{v.attempt}/ and every other ref to it are gone)")
        code = "commit_missing"
    elif not git.is_ancestor(att.start_commit, v.sha):
        problems.append("does not descend from the start commit")
        code = "not_descendant"
    card = c.g.store.one("SELECT version, fence FROM cards WHERE id=?", (att.card_id,))
    if card["version"] != v.card_version:
        problems.append(f"card is now version {card['version']},"
                        f" submission was for {v.card_version}")
        code = code or "stale_card_version"
    if card["fence"] != att.fence:
        problems.append(f"fence {att.fence} is no longer current ({card['fence']})")
        code = code or "stale_fence"
    return CheckResult("sanity", "sanity", True, not problems, code=code,
                       detail="; ".join(problems) or "SHA exists, descends from start, fence and"
                       " card version current")


def _artifacts(c: Chain) -> CheckResult:
    """Every path in the card's `artifacts` is in the candidate (a glob: at least one match)."""
    git, sha, wanted = c.g.git, c.v.sha, c.card.artifacts
    literal = [a for a in wanted if not any(ch in a for ch in "*?[")]
    present = git.paths_exist(sha, literal)
    missing = [a for a in literal if not present[a]]
    globs = [a for a in wanted if a not in literal]
    if globs:
        files = git.files(sha)
        missing += [g for g in globs if not any(glob_to_regex(g).match(f) for f in files)]
    blocking = c.rules.blocks("artifacts")
    if missing:
        return CheckResult("artifacts", "artifacts", blocking, False, code="artifact_missing",
                           detail="the candidate lacks: " + ", ".join(missing))
    return CheckResult("artifacts", "artifacts", blocking, True,
                       detail=f"all {len(wanted)} artifact(s) present")
