"""The payloads of a verify run (gate/verification/; folded by gate/ledger/attempts.py): its
start, each check's result, the tests read, and the verdict it ends with."""

from __future__ import annotations

from typing import Any

from a2a_tui.kinds import GateEvent as G
from a2a_tui.payloads.base import Payload, payload


@payload(G.VERIFY_STARTED)
class VerifyStarted(Payload):
    run: int
    sha: str
    submission: int
    card_version: int
    rules_digest: str | None = None


@payload(G.CHECK_RESULT)
class CheckResult(Payload):
    """One check of a run (gate/verification/results.py `CheckResult.to_json`, without the
    output tails: its log file keeps them)."""

    run: int
    sha: str
    card_version: int
    rules_digest: str | None = None
    name: str
    kind: str
    step: str | None = None
    code: str | None = None
    blocking: bool
    passed: bool
    exit_code: int | None = None
    duration_s: float | None = None
    detail: str | None = None
    skipped: bool = False
    first_error: str | None = None
    error_context: list[Any] = ()   # type: ignore[assignment]
    failed_tests: Any = None
    tests: Any = None
    threshold: dict[str, Any] | None = None
    log: str | None = None


@payload(G.TESTS_REPORTED)
class TestsReported(Payload):
    """A check's tests as read from its report (`source`: the candidate, or the base)."""

    __test__ = False   # not a pytest class
    run: int
    sha: str
    check: str
    fingerprint: str
    source: str
    runner: str | None = None
    counts: dict[str, Any] | None = None
    tests: dict[str, Any] | None = None


@payload(G.VERIFIED)
class Verified(Payload):
    """A completed run's verdict (gate/verification/record.py): the run, its first failure, the
    checks and thresholds, the attempt's consecutive rejections. A `contract_invalid` of
    `card ready` has no run."""

    run: int | None = None
    sha: str | None = None
    card_version: int | None = None
    submission: int | None = None
    rules_digest: str | None = None
    verdict: str | None = None
    passed: bool | None = None
    consecutive_rejections: int | None = None
    first_failure: str | None = None
    first_failure_step: str | None = None
    first_failure_code: str | None = None
    first_error: str | None = None
    log: str | None = None
    changed_lines: dict[str, Any] | None = None
    tests: dict[str, Any] | None = None
    confinement: Any = None
    checks: list[dict[str, Any]] = ()       # type: ignore[assignment]
    thresholds: list[dict[str, Any]] = ()   # type: ignore[assignment]


@payload(G.REJECTED)
class Rejected(Verified):
    """A rejection; `step` and `code` are the metrics' names of the failure, when a run named
    them (else its first failure's)."""

    step: str | None = None
    code: str | None = None


@payload(G.VERIFY_COMMIT_MISSING)
class VerifyCommitMissing(Verified):
    item: str | None = None   # the board item raised


@payload(G.VERIFY_FLAKY)
class VerifyFlaky(Verified):
    flaky: list[str] = ()   # type: ignore[assignment]
    item: str | None = None


@payload(G.CONTRACT_INVALID)
class ContractInvalid(Verified):
    """The card's contract failed its precheck: at `card ready` (the card, version and commit)
    or in a verify (the run)."""

    where: str | None = None
    card: str | None = None
    version: int | None = None
    start_commit: str | None = None
    problems: list[Any] = ()   # type: ignore[assignment]
    item: str | None = None


@payload(G.VERIFY_INTERRUPTED)
class VerifyInterrupted(Payload):
    run: int
    sha: str | None = None
    why: str | None = None
    recovered: bool = False


@payload("gate_feedback")
class GateFeedback(Payload):
    """A rejection's feedback queued to the writer (`dispatch`), or held (`sent` false, and
    why: the three-strike stop, before `feedback_stopped`; or no managed writer)."""

    run: int
    sha: str
    consecutive_rejections: int
    limit: int | None = None
    sent: bool
    dispatch: int | None = None
    why: str | None = None


@payload("feedback_stopped")
class FeedbackStopped(Payload):
    """Automatic feedback stopped: the rejections, the limit, the board item, each run's
    verdict (escalate.py `attempt_history`)."""

    rejections: int | None = None
    limit: int | None = None
    item: str | None = None
    history: list[dict[str, Any]] = ()   # type: ignore[assignment]


@payload("feedback_rounds_added")
class FeedbackRoundsAdded(Payload):
    rounds: int
    user_input: str


@payload("test_suspect")
class TestSuspect(Payload):
    """Tests that failed in two consecutive verifies (`runs`), and the board item raised."""

    __test__ = False   # not a pytest class
    tests: list[str]
    runs: list[int]
    item: str | None = None


# A completed run's verdict event, by kind (gate/verification/record.py records one).
VERDICTS: dict[str, type[Verified]] = {t.KIND: t for t in (
    Verified, Rejected, VerifyCommitMissing, VerifyFlaky, ContractInvalid)}

TYPES: tuple[type[Payload], ...] = (
    VerifyStarted, CheckResult, TestsReported, *VERDICTS.values(), VerifyInterrupted,
    GateFeedback, FeedbackStopped, FeedbackRoundsAdded, TestSuspect)
