"""The run's own channel: end-of-run records written by a2a's reporters, not by the tests.

For each run the gate makes a token (kept in its own memory) and names a file beside the log
(`<log>.witness`); a2a's reporter inside the runner — the pytest plugin, the jest and vitest
reporters (witness/; named on the card, `--reporters="$A2A_JEST_REPORTER"`,
`--reporter="$A2A_VITEST_REPORTER"`) and the `node --test` reporter (node_reporter.mjs) —
appends a start record when the runner loads it and an end-of-run record with its own counts
when the run finishes, each with the token. What the gate concludes:
- a runner that started and never wrote its end-of-run record (a test ended the process early)
  makes the run `report_incomplete`, whatever its exit code; so does a command that names
  a2a's jest or vitest reporter whose run never loaded it (a configuration file that ended the
  process first);
- the report file is a second witness: more passing or fewer failing tests than the reporters
  counted is `report_mismatch`;
- a passing test that ran no assertion is named (`no_assertions`, pytest and jest/vitest).
A record without the token is not the reporter's and is ignored.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from dataclasses import replace
from pathlib import Path

from a2a_tui.gate.verification.reports.model import (
    Outcome,
    TestCase,
    TestReport,
    Witness,
    build,
)

SUFFIX = ".witness"
WITNESS = Path(__file__).with_name("witness")
_TOKENS: dict[str, str] = {}
_EXPECTED: dict[str, list[str]] = {}
# The variables naming a2a's reporters on a check's command, and the runner each is for.
# (Not cargo's runner: `cargo test --doc` runs no binary through it, and a binary asked for
# its own format runs unchanged.)
NAMED = {"A2A_JEST_REPORTER": "jest", "A2A_VITEST_REPORTER": "vitest"}
_SEEN: dict[str, Witness] = {}  # read, for a report the card declares (chain.run_in)
KEPT = 64


def env_for(base: dict[str, str], log: Path, command: str = "") -> dict[str, str]:
    """The variables that open the run's channel: its file and token, the pytest plugin, the
    jest and vitest reporters (those `command` names must write there)."""
    path = log.with_suffix(SUFFIX)
    path.unlink(missing_ok=True)
    token = secrets.token_hex(16)
    _TOKENS[str(log)] = token
    _EXPECTED[str(log)] = [runner for var, runner in NAMED.items() if var in command]
    pythonpath = os.pathsep.join(p for p in (str(WITNESS), base.get("PYTHONPATH")) if p)
    return {"A2A_REPORT_CHANNEL": str(path), "A2A_REPORT_TOKEN": token,
            "PYTHONPATH": pythonpath,
            "A2A_JEST_REPORTER": str(WITNESS / "a2a_jest.cjs"),
            "A2A_VITEST_REPORTER": str(WITNESS / "a2a_vitest.mjs"),
            "A2A_CARGO_RUNNER": f"{sys.executable} -I {WITNESS / 'a2a_libtest.py'}"}


def read(log: Path) -> Witness | None:
    """The records of the run beside `log` that carry its token (None: no reporter wrote)."""
    token = _TOKENS.pop(str(log), None)
    expected = _EXPECTED.pop(str(log), [])
    try:
        text = log.with_suffix(SUFFIX).read_text(errors="replace")
    except OSError:
        text = ""
    w = Witness()
    for line in text.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if not isinstance(rec, dict) or token is None or rec.get("token") != token:
            continue
        rid = str(rec.get("id"))
        if rec.get("event") == "start":
            w.started[rid] = str(rec.get("runner"))
        elif rec.get("event") == "end":
            w.ended[rid] = rec
    w.missing = [r for r in expected if r not in w.started.values()]
    if not (w.started or w.ended or w.missing):
        return None
    _SEEN[str(log)] = w
    while len(_SEEN) > KEPT:
        _SEEN.pop(next(iter(_SEEN)))
    return w


def report(w: Witness | None) -> TestReport | None:
    """The tests a2a's cargo runner saw libtest run (a2a_libtest.py): its end records are the
    report, each test under its binary's target name."""
    cases = [TestCase(str(e.get("binary", "")), str(name), Outcome(outcome))
             for e in (w.ended.values() if w else ()) if e.get("runner") == "libtest"
             for name, outcome in dict(e.get("tests") or {}).items()]
    ran = w is not None and any(e.get("runner") == "libtest" for e in w.ended.values())
    return build("libtest", cases) if ran else None


def attach(report: TestReport, log: Path) -> TestReport:
    """A report the card declares, with what the run's channel saw (read by read_auto): a
    jest-junit testcase that is one of jest's `test.todo` placeholders (jest-junit writes them
    as passed) becomes a todo (xfail); the tests a reporter names as ran without an assertion
    (`file::title`) are named as the report names them."""
    w = report.witness or _SEEN.pop(str(log), None)
    if w is None:
        return report
    todo = w.todo()
    cases = [TestCase(c.file, c.key, Outcome.XFAIL)
             if c.outcome is Outcome.PASSED and c.key.strip() in todo else c
             for c in report.cases.values()]
    out = build(report.runner, cases)
    ended = {rid: {**e, "no_assertions": _as_named(out, e.get("no_assertions") or [])}
             for rid, e in w.ended.items()}
    return replace(out, witness=replace(w, ended=ended),
                   unlisted_skipped=report.unlisted_skipped)


def _as_named(report: TestReport, tests: list[str]) -> list[str]:
    """Each `file::title` as the report's id for it: itself, else the one case of that title
    (jest-junit keys a test by its title and names no file), in that file when it says."""
    by_title: dict[str, list[TestCase]] = {}
    for c in report.cases.values():
        by_title.setdefault(c.key.strip(), []).append(c)
    out = []
    for t in tests:
        file, _, title = t.partition("::")
        found = by_title.get(title, [])
        same = [c for c in found if c.file == file]
        match = same or (found if len(found) == 1 else [])
        out += [t] if t in report.cases else [c.id for c in match]
    return out


def findings(report: TestReport) -> list[tuple[str, str]]:
    """(code, why) of each thing the run's channel holds against its report."""
    w = report.witness
    if w is None:
        return []
    out = [("report_incomplete", why) for why in w.unfinished()]
    runners = set(w.started.values())
    if out or not w.ended or not set(report.runner.split("+")) <= runners:
        return out  # a runner without a2a's reporter: its counts are not held here
    passed, failed = w.count("passed"), w.count("failed") + w.count("error")
    if len(report.passed()) > passed:
        out.append(("report_mismatch", f"the report has {len(report.passed())} passing"
                    f" test(s), a2a's reporter counted {passed}"))
    if failed and not report.failed():
        out.append(("report_mismatch", f"a2a's reporter counted {failed} failing test(s), the"
                    " report none"))
    return out
