"""The thresholds of gate.toml (rule 6; gate/cards/thresholds.py), evaluated on a check's output
after it ran: one result each (`<check>/<threshold>`, kind `threshold`), in the chain, recorded
in its `check_result` event with what was measured and against what, and in the verdict.

The baseline a `no_drop` threshold is held to is read from the log, never from a file the
candidate could write: the value the same threshold measured on the commit last integrated into
the attempt's target branch (the one its attempt submitted, at its latest run). None yet: the
first measure passes and becomes the baseline once integrated.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from a2a_tui.gate.cards.gate_rules import GateRules
from a2a_tui.gate.cards.thresholds import Threshold
from a2a_tui.gate.verification.isolated import RunResult
from a2a_tui.gate.verification.results import CheckResult

if TYPE_CHECKING:  # annotations only: the ledger's package is not needed to run this
    from a2a_tui.gate.ledger.records import AttemptRecord

READ_BYTES = 16 << 20   # of a log, its end: totals come last, and a log has no size limit


def results(db, rules: GateRules, att: AttemptRecord, check: str, run: RunResult
            ) -> list[CheckResult]:
    """One result per threshold of gate.toml that reads `check`, from the run's output."""
    found = [t for t in rules.thresholds if t.check == check]
    if not found:
        return []
    output = _output(run.log)
    return [_result(t, _measure(t, output, run), _baseline(db, att, t) if t.no_drop else None)
            for t in found]


def _output(log: Path) -> str:
    """The command's stdout and stderr as its log keeps them (not the header, which quotes
    the command itself)."""
    with open(log, "rb") as f:
        f.seek(0, 2)
        f.seek(max(0, f.tell() - READ_BYTES))
        text = f.read().decode("utf-8", errors="replace")
    return text.split("\n--- stdout\n", 1)[-1]


def _measure(t: Threshold, output: str, run: RunResult) -> float | None:
    if run.timed_out:
        return None   # a cut output measures nothing
    if t.count is not None:
        pattern = t.pattern()
        return sum(1 for line in output.splitlines() if pattern.search(line))
    last = None
    for m in t.pattern().finditer(output):
        last = m
    try:
        return float(last.group(1)) if last is not None else None
    except (TypeError, ValueError):
        return None


def _baseline(db, att: AttemptRecord, t: Threshold) -> tuple[float, str] | None:
    """(the value, its attempt) at the last integration into the attempt's target that
    measured this threshold."""
    row = db.one(
        "SELECT json_extract(e.payload, '$.threshold.value') AS v, i.attempt_id"
        " FROM integrations i JOIN attempts a ON a.id = i.attempt_id"
        " JOIN events e ON e.attempt = i.attempt_id AND e.kind = 'check_result'"
        " WHERE i.state = 'integrated' AND a.target_branch = ?"
        " AND json_extract(e.payload, '$.name') = ?"
        " AND json_extract(e.payload, '$.sha') = a.submitted_sha"
        " AND json_extract(e.payload, '$.threshold.value') IS NOT NULL"
        " ORDER BY i.outcome_seq DESC, e.seq DESC LIMIT 1",
        (att.target_branch, f"{t.check}/{t.name}"))
    return None if row is None else (float(row[0]), row[1])


def _number(x: float) -> str:
    return f"{x:g}"


def _result(t: Threshold, value: float | None, base: tuple[float, str] | None) -> CheckResult:
    name = f"{t.check}/{t.name}"
    facts: dict[str, Any] = {"name": t.name, "check": t.check, "value": value,
                             "at_least": t.at_least, "at_most": t.at_most,
                             "no_drop": t.no_drop, "baseline": base[0] if base else None,
                             "baseline_attempt": base[1] if base else None}
    what = "lines matching count" if t.count is not None else "value"
    if value is None:
        return CheckResult(name, "threshold", t.blocking, False, code="threshold_unmeasured",
                           detail=f"{t.name}: the output of {t.check} has no {what} to read:"
                                  " not measured", threshold=facts)
    said = f"{t.name} {_number(value)}"
    if t.at_least is not None and value < t.at_least:
        return _failed(t, facts, "threshold_not_met",
                       f"{said}, below its minimum {_number(t.at_least)}")
    if t.at_most is not None and value > t.at_most:
        return _failed(t, facts, "threshold_not_met",
                       f"{said}, above its maximum {_number(t.at_most)}")
    if base is not None and value < base[0]:
        return _failed(t, facts, "threshold_dropped",
                       f"{said}, below {_number(base[0])}, its value when {base[1]} was"
                       " integrated")
    held = [f"at least {_number(t.at_least)}" if t.at_least is not None else "",
            f"at most {_number(t.at_most)}" if t.at_most is not None else "",
            (f"not below {_number(base[0])} ({base[1]})" if base else "no baseline yet")
            if t.no_drop else ""]
    return CheckResult(name, "threshold", t.blocking, True, threshold=facts,
                       detail=f"{said} ({'; '.join(h for h in held if h)})")


def _failed(t: Threshold, facts: dict[str, Any], code: str, detail: str) -> CheckResult:
    return CheckResult(f"{t.check}/{t.name}", "threshold", t.blocking, False, code=code,
                       threshold=facts,
                       detail=detail + ("" if t.blocking else " (recorded, not blocking)"))
