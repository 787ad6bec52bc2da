"""Test reports kept in the log, and the base's outcomes of a check taken from there or run.

Every report the gate judges is recorded as a `tests_reported` event — the candidate's run of
each check, and a run on the base — holding its tests compactly (file -> test -> outcome) and
its counts; the `test_reports` table (folded from those events by the ledger) finds them by
commit and check fingerprint (its command, report and env). The base's outcomes come from the
log when it has them for that commit and fingerprint: a `base` run, or the candidate run of a
verify that passed (the verified run that integrated the target head: its SHA is the next
attempts' base). Otherwise the check runs on the base in a checkout of its own, and that run is
recorded: the next attempt on the same target head finds it. An event taken from the log is
checked against the hash chain before it is believed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from a2a_tui.gate import ledger
from a2a_tui.gate.ledger import GateEvent
from a2a_tui.gate.verification.checkout import Checkout
from a2a_tui.gate.verification.isolated import RunResult
from a2a_tui.gate.verification.reports.model import TestReport
from a2a_tui.payloads import verify as pv
from a2a_tui.store import chain

if TYPE_CHECKING:
    from a2a_tui.gate.context import GateContext
    from a2a_tui.gate.verification.step import StepContext

# A change of how reports are read or asked for makes older base runs not comparable.
VERSION = 1


def fingerprint(command: str, report: str | None, env: dict[str, str]) -> str:
    """What makes two runs of a check comparable on one commit."""
    raw = json.dumps({"command": command, "report": report, "env": env, "v": VERSION},
                     sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(raw.encode()).hexdigest()


@dataclass(frozen=True)
class Base:
    """A check's tests at the base: `report` None when the run there wrote none."""

    report: TestReport | None
    source: str                    # where they come from, for the result's detail
    run: RunResult | None = None   # the run, when it ran now


def record(c: StepContext, name: str, fp: str, sha: str, source: str,
           report: TestReport | None) -> int:
    """Append the report as a `tests_reported` event (and its row); its seq."""
    payload = {"run": c.v.run, "sha": sha, "check": name, "fingerprint": fp, "source": source,
               "runner": report.runner if report else None,
               "counts": report.counts() if report else None,
               "tests": report.by_file() if report else {}}
    with c.g.store.write() as tx:
        return ledger.record(tx, GateEvent.TESTS_REPORTED, actor="gate", task=c.task,
                             attempt=c.v.attempt, payload=pv.TestsReported.of(payload)).seq


def lookup(g: GateContext, sha: str, fp: str) -> Base | None:
    """The base's report of this check from the log, if a run of it on `sha` is there."""
    rows = g.store.all(
        "SELECT t.seq, t.source, t.attempt_id FROM test_reports t LEFT JOIN verifications v"
        " ON v.attempt_id = t.attempt_id AND v.run = t.run WHERE t.sha = ? AND"
        " t.fingerprint = ? AND (t.source = 'base' OR v.state = 'passed')"
        " ORDER BY t.seq DESC LIMIT 1", (sha, fp))
    if not rows:
        return None
    seq, source, attempt = rows[0]
    brk = chain.check_around(g.store.conn, [seq])
    if brk is not None:
        raise ledger.freeze(g, ledger.chain_problem(brk))
    ev = g.store.one("SELECT payload FROM events WHERE seq = ? AND kind = 'tests_reported'",
                     (seq,))
    p = json.loads(ev["payload"]) if ev else {}
    if p.get("sha") != sha or p.get("fingerprint") != fp:
        return None  # the row does not say what its event says: the ledger's check finds it
    report = None if p["runner"] is None else TestReport.from_files(p["runner"], p["tests"])
    where = "a run on the base" if source == "base" else f"the verified run of {attempt}"
    return Base(report, f"from the log (#{seq}: {where})")


def base_tests(c: StepContext, sha: str, name: str, command: str, report: str | None,
               timeout: int | None) -> Base:
    """The check's tests on the base `sha`: from the log, else run there now and recorded."""
    fp = fingerprint(command, report, c.card.env)
    found = lookup(c.g, sha, fp)
    if found is not None:
        return found
    bare = Checkout(c.g, sha, f"{c.v.attempt}-r{c.v.run}-base")
    with bare:
        r = c.run_in(command, bare, c.logs / f"{name}.base.log", timeout, report, commit=sha)
    record(c, name, fp, sha, "base", r.report)
    return Base(r.report, f"run on the base {sha[:12]} now", r)
