"""What a test report says, whatever wrote it: each test, where it lives, and how it ended."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from enum import StrEnum


class Outcome(StrEnum):
    """How one test ended, normalised across runners."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"              # it could not run to a verdict (setup, collection, a crash)
    SKIPPED = "skipped"          # not run: skip, ignore, disabled, not run
    XFAIL = "xfail"              # expected to fail and failed: pytest xfail, node todo
    XPASS = "xpass"              # expected to fail and passed (node todo that passes)


# Tests that ran to a verdict (skipped ones did not).
RAN = frozenset({Outcome.PASSED, Outcome.FAILED, Outcome.ERROR, Outcome.XFAIL, Outcome.XPASS})
FAILING = frozenset({Outcome.FAILED, Outcome.ERROR})
# Outcomes that hide a test's verdict: it ran (or not) and cannot fail the run.
MASKED = frozenset({Outcome.SKIPPED, Outcome.XFAIL, Outcome.XPASS})
# The worst outcome wins when a report names one test twice (a teardown error after a pass).
_ORDER = (Outcome.PASSED, Outcome.XPASS, Outcome.XFAIL, Outcome.SKIPPED, Outcome.ERROR,
          Outcome.FAILED)


def worst(a: Outcome | None, b: Outcome) -> Outcome:
    return b if a is None or _ORDER.index(b) > _ORDER.index(a) else a


@dataclass
class Witness:
    """What a2a's reporters wrote on a run's channel (channel.py): per runner process, its
    start and its end-of-run record."""

    started: dict[str, str] = field(default_factory=dict)    # id -> runner
    ended: dict[str, dict] = field(default_factory=dict)     # id -> end record
    missing: list[str] = field(default_factory=list)  # runners named on the command, silent

    def unfinished(self) -> list[str]:
        return [f"{runner} started and never wrote its end-of-run record (the process ended"
                " before its run did: a test exited it?)"
                for rid, runner in self.started.items() if rid not in self.ended] + [
            f"the command names a2a's {runner} reporter and it never wrote (the process ended"
            " before the runner loaded it: its configuration exited?)" for runner in self.missing]

    def count(self, outcome: str) -> int:
        return sum(int(e.get("counts", {}).get(outcome, 0)) for e in self.ended.values())

    def todo(self) -> set[str]:
        """jest's `test.todo` placeholders, by their describe chain and title."""
        return {t for e in self.ended.values() for t in e.get("todo", [])}

    def no_assertions(self) -> list[str]:
        return [t for e in self.ended.values() for t in e.get("no_assertions", [])]


@dataclass(frozen=True)
class TestCase:
    """One test. `file` is where it lives (a file, or the runner's container for it: a Go
    package, a Java class, a Rust test binary; '' when the report does not say); `key` is the
    test within it (classes and name, or a suite chain and name). A test moved to another file
    keeps its key."""

    __test__ = False  # not a pytest test class, whatever its name

    file: str
    key: str
    outcome: Outcome

    @property
    def id(self) -> str:
        return f"{self.file}::{self.key}" if self.file else self.key


@dataclass(frozen=True)
class TestReport:
    """Every test of one run, by id; `runner` names the dialect it was read as."""

    __test__ = False

    runner: str
    cases: dict[str, TestCase] = field(default_factory=dict)
    # What a2a's own reporters wrote on the run's channel (channel.py), when they did.
    witness: Witness | None = field(default=None, compare=False)
    # Skipped tests its suites count but do not list (libtest leaves an ignored test out).
    unlisted_skipped: int = 0

    def outcome(self, test_id: str) -> Outcome | None:
        case = self.cases.get(test_id)
        return case.outcome if case else None

    def ran(self) -> list[str]:
        return [t for t, c in self.cases.items() if c.outcome in RAN]

    def passed(self) -> list[str]:
        return [t for t, c in self.cases.items() if c.outcome is Outcome.PASSED]

    def failed(self) -> list[str]:
        return [t for t, c in self.cases.items() if c.outcome in FAILING]

    def counts(self) -> dict[str, int]:
        """How many tests ended each way, and how many ran."""
        n = Counter(c.outcome.value for c in self.cases.values())
        return {**{o.value: n.get(o.value, 0) for o in Outcome}, "ran": len(self.ran()),
                "total": len(self.cases)}

    def by_file(self) -> dict[str, dict[str, str]]:
        """The compact form the log keeps: file -> key -> outcome."""
        out: dict[str, dict[str, str]] = {}
        for c in sorted(self.cases.values(), key=lambda c: (c.file, c.key)):
            out.setdefault(c.file, {})[c.key] = c.outcome.value
        return out

    @classmethod
    def from_files(cls, runner: str, files: dict[str, dict[str, str]]) -> TestReport:
        """The report back from its compact form (`by_file`)."""
        cases = [TestCase(f, k, Outcome(o)) for f, keys in files.items() for k, o in keys.items()]
        return cls(runner, {c.id: c for c in cases})

    def merged(self, other: TestReport) -> TestReport:
        """Both reports' tests (a test in both: the worse outcome)."""
        runner = self.runner if self.runner == other.runner else f"{self.runner}+{other.runner}"
        both = build(runner, [*self.cases.values(), *other.cases.values()])
        return replace(both, witness=self.witness or other.witness,
                       unlisted_skipped=self.unlisted_skipped + other.unlisted_skipped)


def build(runner: str, found: list[TestCase]) -> TestReport:
    """A report of these cases; a test named twice keeps its worse outcome."""
    cases: dict[str, TestCase] = {}
    for c in found:
        mine = cases.get(c.id)
        cases[c.id] = c if mine is None else TestCase(c.file, c.key, worst(mine.outcome,
                                                                            c.outcome))
    return TestReport(runner, cases)
