"""What a verify run finds: one result per step (or check), and the run's verdict."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from a2a_tui.jsontypes import JsonObject

if TYPE_CHECKING:
    from a2a_tui.gate.verification.isolated import RunResult

# The steps of the chain, in order. `checks` are the card's own commands; `tree` is the check
# that a step left the checkout as the SHA has it.
STEPS = ("precheck", "sanity", "boundary", "drift", "provenance", "red", "checks", "threshold",
         "tree", "per-test", "artifacts")


@dataclass
class CheckResult:
    name: str
    kind: str                      # precheck | sanity | ... | red | command | tree | artifacts
    blocking: bool
    passed: bool
    exit_code: int | None = None
    duration_s: float = 0.0
    detail: str = ""
    stdout_tail: str = ""
    stderr_tail: str = ""
    log_path: str | None = None
    skipped: bool = False
    code: str | None = None        # why it failed: a stable rejection code (docs/reference/gate.md)
    step: str = ""
    first_error: str = ""          # the first error line of its output (excerpt.py)
    error_context: tuple[str, ...] = ()  # a few lines around it, itself included
    failed_tests: list[str] = field(default_factory=list)  # from the run's test report
    # red and per-test: how many tests ran, passed, were masked and dropped (the metrics read it)
    tests: dict[str, int] | None = None
    # a threshold (thresholds.py): what it measured, its limits and the baseline it was held to
    threshold: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        self.step = self.step or ("checks" if self.kind == "command" else self.kind)

    def to_json(self) -> JsonObject:
        return {"name": self.name, "kind": self.kind, "step": self.step, "code": self.code,
                "blocking": self.blocking, "passed": self.passed, "exit_code": self.exit_code,
                "duration_s": round(self.duration_s, 3), "detail": self.detail,
                "skipped": self.skipped, "first_error": self.first_error,
                "error_context": list(self.error_context),
                "failed_tests": self.failed_tests, "tests": self.tests,
                **({"threshold": self.threshold} if self.threshold is not None else {}),
                "stdout_tail": self.stdout_tail,
                "stderr_tail": self.stderr_tail, "log": self.log_path}


def from_run(name: str, kind: str, blocking: bool, run: RunResult, *, passed: bool,
             detail: str, code: str | None = None, duration_s: float | None = None,
             tests: dict[str, int] | None = None) -> CheckResult:
    """A check's result from the run that decided it: its exit code, duration (unless the step
    adds up several runs), output tails, log, first error and failed tests. The one place a run
    becomes a result (the card's checks: chain.py; red: red_step.py)."""
    return CheckResult(name, kind, blocking, passed, exit_code=run.code,
                       duration_s=run.duration_s if duration_s is None else duration_s,
                       detail=detail, code=code, stdout_tail=run.stdout_tail,
                       stderr_tail=run.stderr_tail, log_path=str(run.log),
                       first_error=run.excerpt.line, error_context=run.excerpt.context,
                       failed_tests=run.report.failed()[:50] if run.report else [], tests=tests)


def skipped(name: str, kind: str, blocking: bool, why: str) -> CheckResult:
    return CheckResult(name, kind, blocking, False, skipped=True, code="skipped",
                       detail=f"skipped: {why}")


@dataclass
class Verification:
    attempt: str
    run: int
    sha: str
    card_version: int
    submission: int
    results: list[CheckResult] = field(default_factory=list)
    rules_digest: str = ""
    gate_rules: dict[str, Any] = field(default_factory=dict)  # digest, path, warnings
    changed_lines: dict[str, int] | None = None  # the candidate's own diff: added, removed
    contract_problems: list[str] = field(default_factory=list)  # the precheck's findings
    # Checks that passed now but failed in an earlier run of this same SHA, card and rules.
    flaky_across_runs: list[str] = field(default_factory=list)
    # The room every run of the candidate's code had (confine/checks.py `Sandbox.record`).
    confinement: dict[str, Any] = field(default_factory=dict)

    def failures(self) -> list[CheckResult]:
        """Blocking results that did not pass and were not skipped, in chain order."""
        return [r for r in self.results if r.blocking and not r.passed and not r.skipped]

    @property
    def verdict(self) -> str:
        failures = self.failures()
        if any(r.code == "contract_invalid" for r in failures):
            return "contract_invalid"
        if any(r.code == "commit_missing" for r in failures):
            return "commit_missing"
        if failures and all(r.code == "flaky" for r in failures):
            return "flaky"
        if failures:
            return "rejected"
        return "flaky" if self.flaky_across_runs else "passed"

    @property
    def passed(self) -> bool:
        return self.verdict == "passed"

    def flaky_checks(self) -> list[str]:
        return [r.name for r in self.failures() if r.code == "flaky"] + self.flaky_across_runs

    def tests(self) -> dict[str, int] | None:
        """The run's test counts: the per-test step's, else the red step's (None: no report)."""
        found = {r.name: r.tests for r in self.results if r.tests is not None}
        return found.get("per-test", found.get("red"))

    def first_failure(self) -> CheckResult | None:
        failures = self.failures()
        return failures[0] if failures else None
