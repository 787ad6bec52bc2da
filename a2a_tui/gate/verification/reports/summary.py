"""The runner's own closing summary, read from its output, held against the report it wrote.

A report is written by the process under test, and so is the summary; but a report rewritten
after the run (an `atexit` hook, a test that edits the file) no longer agrees with the summary
the runner printed, nor with its exit code. The last summary in the output counts:

| runner | its summary line(s) |
|---|---|
| pytest | `2 failed, 5 passed, 1 skipped, 1 xfailed in 0.12s` |
| node --test | `ℹ tests 8` / `# tests 8`, then pass, fail, cancelled, skipped, todo |
| jest | `Tests:       1 failed, 1 skipped, 1 todo, 2 passed, 5 total` |
| vitest | `Tests  1 failed \\| 3 passed \\| 1 skipped (5)` |
| gotestsum | `DONE 12 tests, 1 skipped, 2 failures in 0.5s` |
| cargo-nextest | `Summary [ 0.5s] 12 tests run: 11 passed, 1 failed, 2 skipped` |
| Maven Surefire | `Tests run: 12, Failures: 1, Errors: 0, Skipped: 2` |
| ctest | `95% tests passed, 1 tests failed out of 20` |
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from a2a_tui.gate.verification.reports.model import FAILING, MASKED, TestReport


@dataclass(frozen=True)
class Summary:
    """What the runner said at the end: tests that passed, that failed or errored, and in all
    (None where it does not say)."""

    runner: str
    passed: int
    failed: int
    total: int | None


def _ints(text: str) -> dict[str, int]:
    return {w.lower(): int(n) for n, w in re.findall(r"(\d+) ([A-Za-z]+)", text)}


def _pytest(text: str) -> Summary | None:
    lines = re.findall(r"^[= ]*((?:\d+ \w+(?:, )?)+) in [\d.]+s\b.*$", text, re.M)
    lines += re.findall(r"^[= ]*(no tests ran) in [\d.]+s", text, re.M)
    if not lines:
        return None
    n = _ints(lines[-1])
    passed, failed = n.get("passed", 0) + n.get("xpassed", 0), n.get("failed", 0)
    errors = n.get("errors", n.get("error", 0))
    total = passed + failed + errors + n.get("skipped", 0) + n.get("xfailed", 0)
    return Summary("pytest", passed, failed + errors, total)


_NODE = re.compile(r"^\s*(?:ℹ|#) (tests|pass|fail|cancelled|skipped|todo) (\d+)\s*$", re.M)


def _node(text: str) -> Summary | None:
    found: dict[str, int] = {}
    for word, n in _NODE.findall(text):
        if word == "tests":
            found = {}  # a new summary starts
        found[word] = int(n)
    if "tests" not in found or "pass" not in found:
        return None
    return Summary("node", found["pass"], found.get("fail", 0) + found.get("cancelled", 0),
                   found["tests"])


def _jest(text: str) -> Summary | None:
    lines = re.findall(r"^Tests:\s+(.*\d+ total)\s*$", text, re.M)
    if not lines:
        return None
    n = _ints(lines[-1])
    return Summary("jest", n.get("passed", 0), n.get("failed", 0), n.get("total"))


def _vitest(text: str) -> Summary | None:
    lines = re.findall(r"^\s*Tests\s+(.*)\((\d+)\)\s*$", text, re.M)
    if not lines:
        return None
    n = _ints(lines[-1][0])
    return Summary("vitest", n.get("passed", 0), n.get("failed", 0), int(lines[-1][1]))


def _gotestsum(text: str) -> Summary | None:
    lines = re.findall(r"^DONE (\d+) tests?((?:, \d+ \w+)*) in [\d.]+s", text, re.M)
    if not lines:
        return None
    total, rest = int(lines[-1][0]), _ints(lines[-1][1])
    failed = rest.get("failures", rest.get("failure", 0)) + rest.get("errors",
                                                                       rest.get("error", 0))
    return Summary("go", total - failed - rest.get("skipped", 0), failed, total)


def _nextest(text: str) -> Summary | None:
    lines = re.findall(r"Summary \[[^\]]*\]\s+(\d+) tests? run: (.*)$", text, re.M)
    if not lines:
        return None
    run, n = int(lines[-1][0]), _ints(lines[-1][1])
    failed = n.get("failed", 0) + n.get("timed", 0)
    return Summary("nextest", n.get("passed", 0), failed, run + n.get("skipped", 0))


def _surefire(text: str) -> Summary | None:
    lines = re.findall(r"Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)",
                       text)
    if not lines:
        return None
    run, failures, errors, skipped = map(int, lines[-1])
    return Summary("surefire", run - failures - errors - skipped, failures + errors, run)


def _ctest(text: str) -> Summary | None:
    lines = re.findall(r"\d+% tests passed, (\d+) tests? failed out of (\d+)", text)
    if not lines:
        return None
    failed, total = map(int, lines[-1])
    # "out of" leaves disabled tests out, which its report lists: no total to hold it to
    return Summary("ctest", total - failed, failed, None)


PARSERS = {"pytest": _pytest, "node": _node, "node-junit": _node, "tap": _node, "jest": _jest,
           "vitest": _vitest, "go": _gotestsum, "nextest": _nextest, "surefire": _surefire,
           "ctest": _ctest, "libtest": lambda _: None}  # libtest's: a2a's runner prints it


def find(runner: str, output: str) -> Summary | None:
    """The runner's closing summary in its output (for a dialect of unknown runner, the first
    parser that finds one)."""
    for name in runner.split("+"):
        if name in PARSERS:
            return PARSERS[name](output)
    for parse in dict.fromkeys(PARSERS.values()):
        found = parse(output)
        if found is not None:
            return found
    return None


def disagreements(report: TestReport, output: str, exit_code: int | None) -> list[str]:
    """Where the report says better than the runner's summary or exit code did (empty: it
    agrees, or there is nothing to hold it against)."""
    found: list[str] = []
    failing = len([c for c in report.cases.values() if c.outcome in FAILING])
    if exit_code == 0 and failing:
        found.append(f"the report has {failing} failing test(s) but the command exited 0")
    s = find(report.runner, output)
    if s is None:
        return found
    passed = len(report.passed())  # pytest writes an xpass as a pass, and counts it so
    if passed > s.passed:
        found.append(f"the report has {passed} passing test(s), the runner's summary"
                     f" {s.passed}")
    # ctest counts a test it could not run among the failed; its report says "notrun"
    held = failing + (len([c for c in report.cases.values() if c.outcome in MASKED])
                      if s.runner == "ctest" else 0)
    if s.failed and not held:
        found.append(f"the runner's summary counts {s.failed} failed, the report none")
    if s.total is not None and len(report.cases) > s.total:
        found.append(f"the report has {len(report.cases)} test(s), the runner's summary"
                     f" {s.total}")
    return found
