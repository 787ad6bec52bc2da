"""Independent review: the verdict of the reviewer session launched for the submitted SHA.

A verdict is heard only from the reviewer session `a2a review start` launched for this exact
SHA: not the writer, launched after this submission, naming the current candidate. It comes as
a Markdown report ending in a verdict block (report.py); a malformed report is refused
before anything is written. The verdict is advice: a `fail`'s blocking issues stop integration
of that SHA until the executive controller or the user disposes of each (dispositions.py); a
pass approves nothing on its own (the checks still decide).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.escalate import tell_dispatcher
from a2a_tui.gate.ledger import GateEvent, Row
from a2a_tui.gate.ledger.records import AttemptRecord
from a2a_tui.gate.model import CommandResult
from a2a_tui.gate.reviews.launch import report_copy
from a2a_tui.gate.reviews.report import Report, parse_report
from a2a_tui.gate.roles import require_role
from a2a_tui.payloads import reviews as pl
from a2a_tui.payloads.reviews import ReviewRefused
from a2a_tui.queue import wake

MAX_REPORT = 256 * 1024     # a report is a document, not a log


@dataclass(frozen=True)
class Reviewed(CommandResult):
    attempt: str
    sha: str
    review: str
    round: int
    verdict: str                   # pass | pass_with_risks | fail
    blocking_issues: tuple[str, ...]
    risks: tuple[str, ...]
    recommends_follow_up: bool
    session: str
    advisory: bool = True          # a review can block, never approve


def review(g: GateContext, attempt_id: str, sha: str, path: str) -> Reviewed:
    """Record the report at `path` as this reviewer session's verdict on `sha`."""
    text, raw = read_report(path)
    report = parse_report(text, path)
    att = g.attempt(attempt_id)
    ledger.require_intact(g, att.card_id)
    sha_in, sha = sha, sha.strip().lower()

    def refuse(code: str, message: str) -> A2AError:
        with g.store.write() as tx:
            tx.append("review_refused", actor=g.caller.actor, task=att.card_id,
                      attempt=attempt_id, session=g.caller.session,
                      payload=ReviewRefused(code=code, message=message, sha=sha_in,
                                            verdict=report.verdict))
        return A2AError(code, message)

    # The user and the other roles do not review: the user decides with dispositions, an
    # override, integrate or abandon.
    require_role(g, "review verdict", attempt=att)
    session, sub, run = _fresh_run(g, att, sha, sha_in, refuse)
    check_evidence(g, report, sha, path)
    with g.store.write() as tx:
        if tx.one("SELECT 1 FROM reviews WHERE run_id = ?", (run["id"],)):
            raise A2AError("already_reviewed", f"review {run['id']} has its verdict already")
        told = _record(g, tx, att, run, sub, report, Path(path), raw, text)
    if told is not None:
        wake(g.repo)   # the executive that dispatched the attempt is told (after the commit)
    _keep_copy(g, run["id"], text)
    return Reviewed(attempt_id, sha, run["id"], run["round"], report.verdict,
                    tuple(i.id for i in report.blocking_issues), tuple(report.risks),
                    report.recommends_follow_up, session["id"])


def _fresh_run(g: GateContext, att: AttemptRecord, sha: str, sha_in: str,
               refuse: Callable[[str, str], A2AError]) -> tuple[Row, Row, Row]:
    """The caller's session, the current submission and the review run it was launched for,
    when the caller may give this verdict: never the writer, the SHA the current candidate,
    the session launched after it, to review it."""
    attempt_id = att.id
    session = g.store.one("SELECT * FROM sessions WHERE id=?", (g.caller.session,))
    if g.caller.actor == att.writer or _ever_wrote(g, attempt_id, g.caller.actor):
        raise refuse("reviewer_is_writer", f"{g.caller.describe()} wrote {attempt_id}: a review"
                     " must be independent")
    sub = g.store.one("SELECT * FROM submissions WHERE attempt_id=? AND n=?",
                      (attempt_id, att.submission_n))
    if sub is None or sub["sha"] != sha:
        raise refuse("stale_sha", f"{sha_in[:12]} is not the current candidate of {attempt_id}"
                     f" ({sub['sha'][:12] if sub else 'none submitted'})")
    if session["launch_seq"] < sub["seq"]:
        raise refuse("reviewer_not_fresh",
                     f"session {session['id']} was started before this submission; a review of"
                     f" it is launched with `a2a review start {attempt_id}`")
    run = g.store.one("SELECT * FROM review_runs WHERE session = ? AND attempt_id = ? AND sha = ?",
                      (session["id"], attempt_id, sha))
    if run is None:
        raise refuse("review_not_started", f"session {session['id']} was not launched to review"
                     f" {sha[:12]} (`a2a review start {attempt_id}` launches the reviewer)")
    return session, sub, run


def _record(g: GateContext, tx, att: AttemptRecord, run: Row, sub: Row, report: Report,
            path: Path, raw: bytes, text: str) -> int | None:
    """The verdict recorded (the review, its id its event's seq, and its issues: written by
    the fold) and the dispatcher told, in the open transaction; the told dispatch, if any."""
    attempt_id, sha = att.id, run["sha"]
    issues = [i.model_dump() for i in report.blocking_issues]
    digest = "sha256:" + hashlib.sha256(raw).hexdigest()
    ledger.record(tx, GateEvent.REVIEWED, actor=g.caller.actor, task=att.card_id,
                  attempt=attempt_id, session=g.caller.session,
                  payload=pl.Reviewed(review=run["id"], sha=sha, submission=sub["n"],
                                      round=run["round"], verdict=report.verdict,
                                      blocking_issues=issues, risks=report.risks,
                                      recommends_follow_up=report.recommends_follow_up,
                                      report=str(path.resolve()), report_digest=digest,
                                      notes=text))
    ids = ", ".join(i.id for i in report.blocking_issues)
    return tell_dispatcher(tx, attempt_id, f"The review of {attempt_id} at {sha[:12]}:"
                           f" {report.verdict}" + (
                               f", blocking issues {ids} (`a2a review show {attempt_id}`,"
                               f" then `a2a review dispose` each)" if ids else
                               f"; `a2a review show {attempt_id}` says what still stops"
                               " integration") + ".")


def read_report(path: str) -> tuple[str, bytes]:
    """The report's text (and bytes); an unreadable, empty or huge file is `bad_report`."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise A2AError("bad_report", f"--file {path}: {exc.strerror or exc}", exit_code=2) from None
    if len(raw) > MAX_REPORT:
        raise A2AError("bad_report", f"--file {path}: {len(raw)} bytes; a report is at most"
                       f" {MAX_REPORT}", exit_code=2)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise A2AError("bad_report", f"--file {path}: not UTF-8 text", exit_code=2) from None
    return text, raw


def check_evidence(g: GateContext, report: Report, sha: str, name: str) -> None:
    """Every `file:line` of a blocking issue names a file of the candidate and a line in it."""
    for n, issue in enumerate(report.blocking_issues):
        for k, (path, first, last) in enumerate(issue.places()):
            lines = g.git.line_count(sha, path)
            field = f"blocking_issues[{n}].evidence[{k}]"
            if lines is None:
                raise A2AError("bad_verdict", f"{name}: verdict block: field '{field}': no file"
                               f" {path} at {sha[:12]}", exit_code=2)
            if last > max(lines, 1) or first > last:
                span = f"{first}" if first == last else f"{first}-{last}"
                raise A2AError("bad_verdict", f"{name}: verdict block: field '{field}': {path}"
                               f" has {lines} lines at {sha[:12]}, not {span}", exit_code=2)


def _keep_copy(g: GateContext, run_id: str, text: str) -> None:
    # The reviewer's file may go with its session folder; a follow-up is pointed at this copy.
    dest = report_copy(g.repo, run_id)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(text, encoding="utf-8")


def _ever_wrote(g: GateContext, attempt_id: str, actor: str) -> bool:
    row = g.store.one("SELECT 1 FROM events WHERE attempt=? AND kind IN ('writer_bound','claimed')"
                      " AND (json_extract(payload,'$.to')=? OR json_extract(payload,'$.writer')=?)"
                      " LIMIT 1", (attempt_id, actor, actor))
    return row is not None
