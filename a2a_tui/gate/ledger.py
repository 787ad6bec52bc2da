"""The log decides: the gate's state folded from the append-only event log.

The gate's tables (cards, attempts, submissions, verifications, check_results, test_reports,
reviews, review runs, issues and dispositions, approvals, ...) are a cache of the log: each row
is written in the transaction that appends the event explaining it, and anything that can open
the database file can also rewrite them. So the gate does not take them
on trust. `fold` replays the gate's events into the same rows, one handler per event kind
(`HANDLERS`: a new kind that changes gate state is one entry there); `compare` names the first
row that disagrees with the log; `rebuild` writes the tables again from it.

Before every gate decision the card's rows are compared with the log (`require_intact`), and
before every integrate the whole chain and every gate table are (`before_integrate`). A
disagreement, or a break in the events' hash chain (store/chain.py), freezes the gate: a
`store_tampered` event and a protected board item record it, gate writes refuse
(`store_tampered`, naming the first bad seq), reads go on, until the user repairs the store
(`a2a store rebuild`, or for a broken chain `a2a store reseal` after looking; cli/store_cmds.py).

Columns the log does not hold are not compared, and a rebuild keeps them from the rows it
replaces: an attempt's `claimed_ns`/`ended_ns` (the writer's clock; the log's are the events'
times) and a check's output tails and unrounded duration (its log file keeps the output).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.gate.model import contract_digest_of
from a2a_tui.gate.verdicts import ATTEMPT_STATE as ATTEMPT_AFTER
from a2a_tui.gate.verdicts import COMPLETED
from a2a_tui.store import Event, chain
from a2a_tui.store.migrate import schema_of

Row = dict[str, Any]


@dataclass(frozen=True)
class Table:
    """A gate table as the fold sees it: its key, the columns compared with the log, and the
    columns only the table holds (kept by a rebuild)."""

    name: str
    key: tuple[str, ...]
    compared: tuple[str, ...]
    kept: tuple[str, ...] = ()
    json_columns: tuple[str, ...] = ()


TABLES = (
    Table("cards", ("id",), ("id", "version", "digest", "contract_digest", "state", "fence",
                             "title", "body", "source_path", "updated_seq"),
          json_columns=("body",)),
    Table("card_versions", ("card_id", "version"), ("card_id", "version", "digest", "body", "seq"),
          json_columns=("body",)),
    Table("attempts", ("id",), ("id", "card_id", "n", "fence", "state", "branch", "worktree",
                                "worktree_state", "start_commit", "target_branch",
                                "card_version", "writer", "submission_n", "submitted_sha",
                                "rejections", "updated_seq"),
          kept=("claimed_ns", "ended_ns")),
    Table("submissions", ("attempt_id", "n"), ("attempt_id", "n", "sha", "card_version", "fence",
                                               "actor", "seq")),
    Table("verifications", ("attempt_id", "run"), ("attempt_id", "run", "submission_n", "sha",
                                                   "card_version", "state", "started_seq",
                                                   "ended_seq")),
    Table("check_results", ("seq",), ("attempt_id", "submission_n", "run", "sha", "card_version",
                                      "name", "kind", "blocking", "passed", "exit_code", "detail",
                                      "log_path", "seq"),
          kept=("id", "duration_s", "stdout_tail", "stderr_tail")),
    Table("integrations", ("attempt_id",), ("attempt_id", "state", "ref", "old_sha", "new_sha",
                                            "sync_worktree", "intent_seq", "outcome_seq")),
    Table("scores", ("attempt_id",), ("attempt_id", "outcome", "boundary", "boundary_reason",
                                      "taste", "taste_reason", "rounds", "rejections",
                                      "duration_s", "actor", "seq")),
    # A review's id is the seq of its `reviewed` event (migration 6 made older ones so too).
    Table("reviews", ("seq",), ("id", "attempt_id", "submission_n", "sha", "session", "verdict",
                                "notes", "seq", "run_id", "risks", "follow_up",
                                "report_digest")),
    Table("review_runs", ("id",), ("id", "attempt_id", "submission_n", "sha", "round", "follows",
                                   "checkout", "state", "session", "report", "requested_seq",
                                   "updated_seq")),
    Table("review_issues", ("review_id", "issue"), ("review_id", "attempt_id", "sha", "issue",
                                                    "title", "evidence", "seq")),
    Table("review_dispositions", ("seq",), ("seq", "attempt_id", "sha", "review_id", "issue",
                                            "decision", "reason", "actor", "user_input")),
    Table("review_overrides", ("seq",), ("seq", "attempt_id", "submission_n", "sha", "reason",
                                         "user_input")),
    Table("approvals", ("id",), ("id", "attempt_id", "submission_n", "sha", "card_version",
                                 "evidence", "user_input", "seq")),
    Table("approval_uses", ("approval_id",), ("approval_id", "attempt_id", "seq")),
    # The reports a verify judged (gate/verify/baseline.py); their tests stay in the event.
    Table("test_reports", ("seq",), ("seq", "attempt_id", "run", "sha", "check_name",
                                     "fingerprint", "source", "runner", "counts")),
)
BY_NAME = {t.name: t for t in TABLES}
# Tables whose rows hang off an attempt (the rest: cards and card_versions, by card).
PER_ATTEMPT = ("submissions", "verifications", "check_results", "integrations", "scores",
               "reviews", "review_runs", "review_issues", "review_dispositions",
               "review_overrides", "approvals", "approval_uses", "test_reports")


@dataclass
class Ledger:
    """The gate's rows as the log gives them: table name -> key -> row."""

    rows: dict[str, dict[tuple, Row]] = field(
        default_factory=lambda: {t.name: {} for t in TABLES})

    def get(self, table: str, *key: Any) -> Row | None:
        return self.rows[table].get(tuple(key))

    def put(self, table: str, row: Row) -> None:
        self.rows[table][tuple(row[k] for k in BY_NAME[table].key)] = row

    def set(self, table: str, key: tuple, **values: Any) -> None:
        """Change a row the way the gate's UPDATEs do; a row the log never made is an event
        out of order, which the comparison then shows (the table has the row, the log not)."""
        row = self.rows[table].get(key)
        if row is not None:
            row.update(values)

    def attempt(self, attempt_id: str) -> Row | None:
        return self.get("attempts", attempt_id)

    def last_verification(self, attempt_id: str) -> Row | None:
        """The attempt's latest verify run."""
        runs = [v for (aid, _), v in self.rows["verifications"].items() if aid == attempt_id]
        return max(runs, key=lambda v: v["run"], default=None)

    def last_verdict(self, attempt_id: str) -> Row | None:
        """The attempt's latest completed verify run (an interrupted one decided nothing)."""
        runs = [v for (aid, _), v in self.rows["verifications"].items()
                if aid == attempt_id and v["state"] in COMPLETED]
        return max(runs, key=lambda v: v["run"], default=None)

    def failed_blocking_check(self, attempt_id: str, run: int) -> Row | None:
        """The first blocking check of that run that did not pass."""
        return next((c for c in sorted(self.rows["check_results"].values(),
                                       key=lambda c: c["seq"])
                     if c["attempt_id"] == attempt_id and c["run"] == run and c["blocking"]
                     and not c["passed"]), None)


# --- the fold: one handler per event kind that changes the gate's tables ------------------------

def _card_body(ledger: Ledger, ev: Event, *, version: int, state: str | None) -> None:
    body = ev.payload["card"]
    card = ledger.get("cards", ev.task) or {"id": ev.task, "fence": 0, "state": "draft"}
    card.update(version=version, digest=ev.payload["digest"],
                contract_digest=contract_digest_of(body), title=body["title"], body=body,
                source_path=ev.payload.get("source"), updated_seq=ev.seq)
    if state is not None:
        card["state"] = state
    ledger.put("cards", card)


def _card_added(ledger: Ledger, ev: Event) -> None:
    _card_body(ledger, ev, version=ev.payload["version"], state="draft")
    ledger.put("card_versions", {"card_id": ev.task, "version": ev.payload["version"],
                                 "digest": ev.payload["digest"], "body": ev.payload["card"],
                                 "seq": ev.seq})


def _card_revised(ledger: Ledger, ev: Event) -> None:
    _card_body(ledger, ev, version=ev.payload["version"], state=None)


def _card_ready(ledger: Ledger, ev: Event) -> None:
    ledger.set("cards", (ev.task,), state="ready", updated_seq=ev.seq)


def _claimed(ledger: Ledger, ev: Event) -> None:
    p = ev.payload
    ledger.set("cards", (ev.task,), fence=p["fence"], updated_seq=ev.seq)
    ledger.put("attempts", {
        "id": ev.attempt, "card_id": ev.task, "n": int(ev.attempt.rsplit("-a", 1)[1]),
        "fence": p["fence"], "state": "claimed", "branch": p["branch"], "worktree": p["worktree"],
        "worktree_state": "pending", "start_commit": p["start_commit"],
        "target_branch": p["target_branch"], "card_version": p["card_version"],
        "writer": p["writer"], "submission_n": 0, "submitted_sha": None, "rejections": 0,
        "claimed_ns": ev.ts_ns, "ended_ns": None, "updated_seq": ev.seq})


def _attempt(**values: Any) -> Callable[[Ledger, Event], None]:
    """A handler that sets these attempt columns (and updated_seq)."""
    def handle(ledger: Ledger, ev: Event) -> None:
        ledger.set("attempts", (ev.attempt,), updated_seq=ev.seq, **values)
    return handle


def _ended(state: str) -> Callable[[Ledger, Event], None]:
    def handle(ledger: Ledger, ev: Event) -> None:
        ledger.set("attempts", (ev.attempt,), state=state, ended_ns=ev.ts_ns,
                   updated_seq=ev.seq)
    return handle


def _writer_bound(ledger: Ledger, ev: Event) -> None:
    ledger.set("attempts", (ev.attempt,), writer=ev.payload["to"], updated_seq=ev.seq)


def _worktree_failed(ledger: Ledger, ev: Event) -> None:
    p = ev.payload
    where = ("unknown" if not p.get("recovered") or p.get("branch_exists") or p.get("registered")
             else "removed")
    ledger.set("attempts", (ev.attempt,), state="failed", worktree_state=where,
               ended_ns=ev.ts_ns, updated_seq=ev.seq)


def _submitted(ledger: Ledger, ev: Event) -> None:
    p = ev.payload
    ledger.put("submissions", {"attempt_id": ev.attempt, "n": p["n"], "sha": p["sha"],
                               "card_version": p["card_version"], "fence": p["fence"],
                               "actor": ev.actor, "seq": ev.seq})
    ledger.set("attempts", (ev.attempt,), state="submitted", submission_n=p["n"],
               submitted_sha=p["sha"], card_version=p["card_version"], updated_seq=ev.seq)


def _score(ledger: Ledger, ev: Event, outcome: str) -> None:
    p = ev.payload
    if p.get("score") is None:   # an attempt abandoned before it submitted anything
        return
    ledger.put("scores", {"attempt_id": ev.attempt, "outcome": outcome, **p["score"],
                          "rounds": p["rounds"], "rejections": p["rejections"],
                          "duration_s": p["duration_s"], "actor": ev.actor, "seq": ev.seq})


def _abandoned(ledger: Ledger, ev: Event) -> None:
    _ended("abandoned")(ledger, ev)
    _score(ledger, ev, "abandoned")


def _verify_started(ledger: Ledger, ev: Event) -> None:
    p = ev.payload
    ledger.put("verifications", {"attempt_id": ev.attempt, "run": p["run"],
                                 "submission_n": p["submission"], "sha": p["sha"],
                                 "card_version": p["card_version"], "state": "running",
                                 "started_seq": ev.seq, "ended_seq": None})
    ledger.set("attempts", (ev.attempt,), state="verifying", updated_seq=ev.seq)


def _check_result(ledger: Ledger, ev: Event) -> None:
    p = ev.payload
    run = ledger.get("verifications", ev.attempt, p["run"]) or {}
    ledger.put("check_results", {
        "id": None, "attempt_id": ev.attempt, "submission_n": run.get("submission_n"),
        "run": p["run"], "sha": p["sha"], "card_version": p["card_version"], "name": p["name"],
        "kind": p["kind"], "blocking": int(p["blocking"]), "passed": int(p["passed"]),
        "exit_code": p["exit_code"], "duration_s": p["duration_s"], "detail": p["detail"],
        "stdout_tail": "", "stderr_tail": "", "log_path": p.get("log"), "seq": ev.seq})


def test_report_row(seq: int, attempt: str | None, p: dict[str, Any]) -> Row:
    """A `tests_reported` event's row in test_reports, as the verify writes it and the fold
    makes it again."""
    return {"seq": seq, "attempt_id": attempt, "run": p["run"], "sha": p["sha"],
            "check_name": p["check"], "fingerprint": p["fingerprint"], "source": p["source"],
            "runner": p["runner"],
            "counts": None if p["counts"] is None else json.dumps(p["counts"], sort_keys=True)}


def _tests_reported(ledger: Ledger, ev: Event) -> None:
    ledger.put("test_reports", test_report_row(ev.seq, ev.attempt, ev.payload))


def _verdict(verdict: str) -> Callable[[Ledger, Event], None]:
    """A completed verify's verdict (gate/verify/record.py): passed, rejected, or neither
    (flaky, contract_invalid: the attempt goes back to `submitted`, no strike)."""
    def handle(ledger: Ledger, ev: Event) -> None:
        p = ev.payload
        if ev.attempt is None or "run" not in p:
            return  # a card's contract refused at `card ready`: no verify run, no attempt
        v = p.get("verdict", verdict)
        ledger.set("verifications", (ev.attempt, p["run"]), state=v, ended_seq=ev.seq)
        ledger.set("attempts", (ev.attempt,), state=ATTEMPT_AFTER.get(v, "submitted"),
                   rejections=p["consecutive_rejections"], updated_seq=ev.seq)
    return handle


def _verify_interrupted(ledger: Ledger, ev: Event) -> None:
    """An interrupted run decided nothing: the attempt goes back to what the last completed
    verdict of its current submission made it (gate/verdicts.py), else `submitted`."""
    ledger.set("verifications", (ev.attempt, ev.payload["run"]), state="interrupted",
               ended_seq=ev.seq)
    att = ledger.attempt(ev.attempt)
    if att is None or att["state"] != "verifying":
        return
    last = ledger.last_verdict(ev.attempt)
    state = ("submitted" if last is None or last["submission_n"] != att["submission_n"]
             else ATTEMPT_AFTER.get(last["state"], "submitted"))
    ledger.set("attempts", (ev.attempt,), state=state, updated_seq=ev.seq)


def _integration_intent(ledger: Ledger, ev: Event) -> None:
    p = ev.payload
    ledger.put("integrations", {"attempt_id": ev.attempt, "state": "intent", "ref": p["ref"],
                                "old_sha": p["old"], "new_sha": p["new"],
                                "sync_worktree": p["sync_worktree"], "intent_seq": ev.seq,
                                "outcome_seq": None})
    ledger.set("attempts", (ev.attempt,), state="integrating", updated_seq=ev.seq)


def _integration(state: str, attempt_state: str | None) -> Callable[[Ledger, Event], None]:
    def handle(ledger: Ledger, ev: Event) -> None:
        ledger.set("integrations", (ev.attempt,), state=state, outcome_seq=ev.seq)
        if state == "integrated":
            _ended("integrated")(ledger, ev)
            _score(ledger, ev, "integrated")
        else:
            ledger.set("attempts", (ev.attempt,), state=attempt_state, updated_seq=ev.seq)
    return handle


def _resolved(ledger: Ledger, ev: Event) -> None:
    """The user's resolution of an `unknown` attempt (gate/resolve.py)."""
    as_ = ev.payload["as"]
    if as_ == "integrated":
        ledger.set("integrations", (ev.attempt,), state="integrated", outcome_seq=ev.seq)
        _ended("integrated")(ledger, ev)
        _score(ledger, ev, "integrated")
    elif as_ == "not-applied":
        ledger.set("integrations", (ev.attempt,), state="not_applied", outcome_seq=ev.seq)
        ledger.set("attempts", (ev.attempt,), state="verified", updated_seq=ev.seq)
    else:
        _ended("abandoned")(ledger, ev)


# --- reviews and approvals (gate/review*.py, gate/approvals.py) ---------------------------------

def _review_requested(ledger: Ledger, ev: Event) -> None:
    p = ev.payload
    ledger.put("review_runs", {
        "id": p["review"], "attempt_id": ev.attempt, "submission_n": p["submission"],
        "sha": p["sha"], "round": p["round"], "follows": p["follows"], "checkout": p["checkout"],
        "state": "requested", "session": None, "report": None, "requested_seq": ev.seq,
        "updated_seq": ev.seq})


def _review_started(ledger: Ledger, ev: Event) -> None:
    ledger.set("review_runs", (ev.payload["review"],), state="running", session=ev.session,
               report=ev.payload["report"], updated_seq=ev.seq)


def _review_launch_failed(ledger: Ledger, ev: Event) -> None:
    ledger.set("review_runs", (ev.payload["review"],), state="failed", updated_seq=ev.seq)


def _reviewed(ledger: Ledger, ev: Event) -> None:
    """A verdict; one given before reports (`block` with notes) has no run, risks or issues."""
    p = ev.payload
    ledger.put("reviews", {"id": ev.seq, "attempt_id": ev.attempt, "submission_n": p["submission"],
                           "sha": p["sha"], "session": ev.session, "verdict": p["verdict"],
                           "notes": p["notes"], "seq": ev.seq, "run_id": p.get("review"),
                           "risks": json.dumps(p.get("risks", [])),
                           "follow_up": int(p.get("recommends_follow_up", False)),
                           "report_digest": p.get("report_digest")})
    for issue in p.get("blocking_issues", []):
        ledger.put("review_issues", {"review_id": ev.seq, "attempt_id": ev.attempt,
                                     "sha": p["sha"], "issue": issue["id"],
                                     "title": issue["title"],
                                     "evidence": json.dumps(issue["evidence"]), "seq": ev.seq})


def _review_disposition(ledger: Ledger, ev: Event) -> None:
    p = ev.payload
    ledger.put("review_dispositions", {
        "seq": ev.seq, "attempt_id": ev.attempt, "sha": p["sha"], "review_id": p["review"],
        "issue": p["issue"], "decision": p["decision"], "reason": p["reason"], "actor": ev.actor,
        "user_input": p["user_input"]})


def _review_overridden(ledger: Ledger, ev: Event) -> None:
    p = ev.payload
    ledger.put("review_overrides", {"seq": ev.seq, "attempt_id": ev.attempt,
                                    "submission_n": p["submission"], "sha": p["sha"],
                                    "reason": p["reason"], "user_input": p["user_input"]})


def _integration_approved(ledger: Ledger, ev: Event) -> None:
    p = ev.payload
    ledger.put("approvals", {"id": p["approval"], "attempt_id": ev.attempt,
                             "submission_n": p["submission"], "sha": p["sha"],
                             "card_version": p["card_version"], "evidence": p["evidence"],
                             "user_input": p["user_input"], "seq": ev.seq})


def _approval_consumed(ledger: Ledger, ev: Event) -> None:
    ledger.put("approval_uses", {"approval_id": ev.payload["approval"], "attempt_id": ev.attempt,
                                 "seq": ev.seq})


HANDLERS: dict[str, Callable[[Ledger, Event], None]] = {
    "card_added": _card_added,
    "card_versioned": _card_added,      # a new version: as a new card, keeping the fence
    "card_revised": _card_revised,
    "card_ready": _card_ready,
    "claimed": _claimed,
    "attempt_superseded": _ended("superseded"),
    "worktree_created": _attempt(worktree_state="present"),
    "worktree_failed": _worktree_failed,
    "writer_bound": _writer_bound,
    "submitted": _submitted,
    "abandoned": _abandoned,
    "verify_started": _verify_started,
    "check_result": _check_result,
    "tests_reported": _tests_reported,
    "verified": _verdict("passed"),
    "rejected": _verdict("rejected"),
    "verify_flaky": _verdict("flaky"),
    "contract_invalid": _verdict("contract_invalid"),
    "verify_commit_missing": _verdict("commit_missing"),
    "verify_interrupted": _verify_interrupted,
    "integration_intent": _integration_intent,
    "integrated": _integration("integrated", None),
    "integration_not_applied": _integration("not_applied", "verified"),
    "integration_unknown": _integration("unknown", "unknown"),
    "worktree_removed": _attempt(worktree_state="removed"),
    "worktree_kept": _attempt(worktree_state="kept_dirty"),
    "worktree_unknown": _attempt(worktree_state="unknown"),
    "attempt_resolved": _resolved,
    # `review_refused` and `review_checkouts_reclaimed` change no table: they are not here.
    "review_requested": _review_requested,
    "review_started": _review_started,
    "review_launch_failed": _review_launch_failed,
    "reviewed": _reviewed,
    "review_disposition": _review_disposition,
    "review_overridden": _review_overridden,
    "integration_approved": _integration_approved,
    "approval_consumed": _approval_consumed,
}


def fold(events: Iterable[Event]) -> Ledger:
    """Replay the gate's events, in order, into the rows the gate's tables should hold."""
    ledger = Ledger()
    for ev in events:
        handler = HANDLERS.get(ev.kind)
        if handler is not None:
            handler(ledger, ev)
    return ledger


def gate_events(db, card_id: str | None = None) -> list[Event]:
    """The events the fold reads: every gate event, or one card's."""
    kinds = tuple(HANDLERS)
    sql = f"SELECT * FROM events WHERE kind IN ({','.join('?' * len(kinds))})"
    params: tuple = kinds
    if card_id is not None:
        sql, params = f"{sql} AND task = ?", (*kinds, card_id)
    return [Event.from_row(r) for r in db.all(f"{sql} ORDER BY seq", params)]


def load(db, card_id: str | None = None) -> Ledger:
    """The log's view of the gate (of one card, when given)."""
    return fold(gate_events(db, card_id))


# --- comparing the tables with the log ----------------------------------------------------------

@dataclass(frozen=True)
class Mismatch:
    """The first row where a table and the log disagree."""

    table: str
    key: tuple
    column: str
    in_table: Any
    in_log: Any
    seq: int | None   # the event the log's row comes from (None: the log has no such row)

    def describe(self) -> str:
        where = f"{self.table} {'/'.join(map(str, self.key))}"
        if self.column == "(row)" and self.in_log is None:
            return f"{where}: the table has a row the log never made"
        if self.column == "(row)":
            return f"{where}: the table lacks the row of event #{self.seq}"
        return (f"{where}: {self.column} is {self.in_table!r} in the table, the log says"
                f" {self.in_log!r} (event #{self.seq})")


def _row_seq(row: Row) -> int:
    for col in ("updated_seq", "seq", "ended_seq", "outcome_seq", "started_seq", "intent_seq"):
        if row.get(col) is not None:
            return int(row[col])
    return 0


def _table_rows(db, table: Table, card_id: str | None, attempts: set[str]) -> dict[tuple, Row]:
    sql, params = f"SELECT * FROM {table.name}", ()
    if card_id is not None:
        if table.name == "cards":
            sql, params = f"{sql} WHERE id = ?", (card_id,)
        elif table.name in ("card_versions", "attempts"):
            sql, params = f"{sql} WHERE card_id = ?", (card_id,)
        else:
            sql = f"{sql} WHERE attempt_id IN ({','.join('?' * len(attempts))})"
            params = tuple(attempts)
    out = {}
    for r in db.all(sql, params):
        row = dict(r)
        for col in table.json_columns:
            row[col] = json.loads(row[col])
        out[tuple(row[k] for k in table.key)] = row
    return out


def compare(db, ledger: Ledger, card_id: str | None = None) -> Mismatch | None:
    """The first disagreement (by the seq it goes back to) between the gate's tables and the
    log's fold; None when they agree. With `card_id`, that card's rows only."""
    attempts = set()
    if card_id is not None:
        attempts = {a for (a,) in ledger.rows["attempts"]} | {
            r["id"] for r in db.all("SELECT id FROM attempts WHERE card_id = ?", (card_id,))}
    found: list[Mismatch] = []
    for table in TABLES:
        have = _table_rows(db, table, card_id, attempts)
        want = ledger.rows[table.name]
        for key in have.keys() | want.keys():
            h, w = have.get(key), want.get(key)
            if h is None or w is None:
                found.append(Mismatch(table.name, key, "(row)", h and "present",
                                      w and "present", _row_seq(w) if w else None))
                continue
            for col in table.compared:
                if h[col] != w[col]:
                    found.append(Mismatch(table.name, key, col, h[col], w[col], _row_seq(w)))
                    break
    return min(found, key=lambda m: (m.seq is not None, m.seq or 0), default=None)


# --- freezing and repairing ---------------------------------------------------------------------

FREEZE_KINDS = ("store_tampered", "store_repaired")


def frozen(db) -> dict[str, Any] | None:
    """The payload of the `store_tampered` event that froze the gate, while no repair followed."""
    row = db.one("SELECT kind, payload FROM events WHERE kind IN (?, ?) ORDER BY seq DESC"
                 " LIMIT 1", FREEZE_KINDS)
    if row is None or row["kind"] != FREEZE_KINDS[0]:
        return None
    return json.loads(row["payload"])


def tampered_error(problem: dict[str, Any]) -> A2AError:
    return A2AError("store_tampered",
                    f"the store was changed outside a2a (first bad seq #{problem['seq']}:"
                    f" {problem['why']}); the gate is frozen until you repair it: `a2a store"
                    " verify` says what is wrong, `a2a store rebuild` rewrites the gate's tables"
                    " from the log, a broken event chain needs you to look (`a2a store reseal`)",
                    details=problem)


def freeze(g, problem: dict[str, Any]) -> A2AError:
    """Record the problem (once: not again while the same one holds) as a `store_tampered`
    event and a protected board item, if the store still takes writes; the error to raise."""
    # lazy: the board (and the collaboration records under it) only when the gate freezes; every
    # gate command imports this module
    from a2a_tui.collab.board import post_finding_in_tx

    held = frozen(g.store)
    if held is None or (held.get("seq"), held.get("why")) != (problem["seq"], problem["why"]):
        try:
            with g.store.write() as tx:
                tx.append("store_tampered", actor="gate", payload=problem)
                post_finding_in_tx(
                    tx, title=f"Store changed outside a2a at event #{problem['seq']}",
                    body=f"{problem['why']}\nThe gate is frozen: reads work, gate commands"
                         " refuse. `a2a store verify`, then `a2a store rebuild` (tables) or,"
                         " for a broken event chain, look at the events and `a2a store reseal`.",
                    category="security", blocking=True, actor="gate", session=None)
        except Exception:  # noqa: BLE001 -- a store that takes no writes still refuses below
            pass
    return tampered_error(problem)


def chain_problem(brk: chain.Break) -> dict[str, Any]:
    return {"seq": brk.seq, "why": brk.why, "what": "chain"}


def mismatch_problem(m: Mismatch) -> dict[str, Any]:
    return {"seq": m.seq or 0, "why": m.describe(), "what": "projection", "table": m.table,
            "key": list(m.key), "column": m.column}


def on_open(g) -> None:
    """At a command's start: record a chain break the store's open found, and rebuild gate
    tables that are missing (a cache is rebuilt when it is gone)."""
    if g.store.chain_break is not None:
        freeze(g, chain_problem(g.store.chain_break))
    present = {r[0] for r in g.store.all("SELECT name FROM sqlite_master WHERE type='table'")}
    missing = [t.name for t in TABLES if t.name not in present]
    if missing and frozen(g.store) is None:
        rebuild(g.store, reason=f"missing tables: {', '.join(missing)}", actor="gate")


def require_intact(g, card_id: str | None = None) -> Ledger | None:
    """Before a gate decision: refuse while the gate is frozen; check the chain break found at
    open; compare the card's rows with the log (and return the log's view of the card)."""
    held = frozen(g.store)
    if held is not None:
        raise tampered_error(held)
    if g.store.chain_break is not None:
        raise freeze(g, chain_problem(g.store.chain_break))
    if card_id is None:
        return None
    ledger, mismatch = _against_log(g.store, card_id)
    if mismatch is not None:
        raise freeze(g, mismatch_problem(mismatch))
    return ledger


def _against_log(store, card_id: str | None = None) -> tuple[Ledger, Mismatch | None]:
    # One snapshot for the log and the tables: a gate write landing in between (its event and
    # its row commit together) must not look like a row the log never made.
    with store.snapshot() as tx:
        ledger = load(tx, card_id)
        return ledger, compare(tx, ledger, card_id)


def before_integrate(g, card_id: str) -> Ledger:
    """Before the target moves: the chain after the checkpoint (checked at open), every link
    of the card's own events wherever they sit in the log, and the card's tables against the
    log. Returns the log's view of the card the decision reads. The whole chain is walked by
    `a2a store verify`; at integrate it would cost ~16 µs per event of the log, however old
    (`bench/bench_store_chain.py`), for nothing a decision on this card reads."""
    require_intact(g)
    events = gate_events(g.store, card_id)
    brk = chain.check_around(g.store.conn, [e.seq for e in events])
    if brk is not None:
        raise freeze(g, chain_problem(brk))
    ledger, mismatch = _against_log(g.store, card_id)
    if mismatch is not None:
        raise freeze(g, mismatch_problem(mismatch))
    return ledger


def verify(db) -> dict[str, Any]:
    """The whole check, read-only: the chain from the first event, then every gate table."""
    brk = chain.check(db.conn)
    if brk is not None:
        return {"intact": False, **chain_problem(brk)}
    _, mismatch = _against_log(db)
    if mismatch is not None:
        return {"intact": False, **mismatch_problem(mismatch)}
    return {"intact": True, "events": db.last_seq(), "frozen": frozen(db)}


def rebuild(store, *, reason: str, actor: str) -> dict[str, Any]:
    """Write every gate table again from the log, in one transaction."""
    with store.write() as tx:
        return rebuild_in(tx, reason=reason, actor=actor)


def rebuild_in(tx, *, reason: str, actor: str) -> dict[str, Any]:
    """Write every gate table again from the log in the open transaction (tables that are gone
    are created from the schema first; columns the log lacks are kept from the replaced rows).
    Records `projections_rebuilt` with the first difference it found."""
    ledger = load(tx)
    present = {r[0] for r in tx.all("SELECT name FROM sqlite_master WHERE type='table'")}
    differed = None if not present >= {t.name for t in TABLES} else compare(tx, ledger)
    for table in TABLES:
        _rewrite(tx, table, ledger.rows[table.name], table.name in present)
    first = differed.describe() if differed else None
    seq = tx.append("projections_rebuilt", actor=actor, payload={
        "reason": reason, "tables": [t.name for t in TABLES], "first_difference": first})
    return {"rebuilt": [t.name for t in TABLES], "seq": seq, "first_difference": first}


def repair(tx, *, actor: str, how: str) -> int | None:
    """Lift the freeze (`store_repaired`), if the gate is frozen; its seq."""
    held = frozen(tx)
    if held is None:
        return None
    return tx.append("store_repaired", actor=actor, payload={"how": how, "was": held})


def reseal(tx, *, from_seq: int, reason: str, actor: str) -> dict[str, Any]:
    """Accept the events as they now are from `from_seq` on: compute their hashes again (the
    append-only trigger is dropped and made again in this transaction) and move the checkpoint
    to the end. A person does this after looking at those events; `reason` says what they saw."""
    tx.execute("DROP TRIGGER IF EXISTS events_no_update")
    prev = tx.one("SELECT hash FROM events WHERE seq = ?", (from_seq - 1,))
    prev = prev[0] if prev is not None else chain.GENESIS
    n = 0
    for row in tx.all("SELECT seq, ts_ns, kind, actor, task, attempt, session, payload, hash"
                      " FROM events WHERE seq >= ? ORDER BY seq", (from_seq,)):
        h = chain.link(prev, *row[:8])
        if h != row[8]:
            tx.execute("UPDATE events SET hash = ? WHERE seq = ?", (h, row[0]))
            n += 1
        prev = h
    tx.execute(schema_of("events")["trigger_sql"]["events_no_update"])
    seq = tx.append("chain_resealed", actor=actor,
                    payload={"from_seq": from_seq, "rehashed": n, "reason": reason})
    last, tip_hash = chain.tip(tx.conn)
    tx.execute("INSERT INTO chain_checkpoint(id, seq, hash) VALUES (1, ?, ?) ON CONFLICT(id)"
               " DO UPDATE SET seq = excluded.seq, hash = excluded.hash", (last, tip_hash))
    return {"from_seq": from_seq, "rehashed": n, "seq": seq}


def _rewrite(tx, table: Table, rows: dict[tuple, Row], present: bool) -> None:
    ddl = schema_of(table.name)
    old: dict[tuple, Row] = {}
    if present:
        old = {tuple(r[k] for k in table.key): dict(r) for r in tx.all(
            f"SELECT * FROM {table.name}")}
        for name, _sql in ddl["trigger"]:
            tx.execute(f"DROP TRIGGER IF EXISTS {name}")
        tx.execute(f"DELETE FROM {table.name}")
    else:
        for _name, sql in ddl["table"] + ddl["index"]:
            tx.execute(sql)
    for key, row in sorted(rows.items(), key=lambda kv: _row_seq(kv[1])):
        row = dict(row)
        for col in table.kept:
            if key in old and old[key].get(col) is not None:
                row[col] = old[key][col]
        for col in table.json_columns:
            row[col] = _card_text(row[col])
        cols = [c for c in row if c in ddl["columns"]]  # an id None: SQLite numbers the row
        tx.execute(f"INSERT INTO {table.name}({','.join(cols)}) VALUES"
                   f" ({','.join('?' * len(cols))})", [row[c] for c in cols])
    for _name, sql in ddl["trigger"]:
        tx.execute(sql)


def _card_text(body: dict[str, Any]) -> str:
    """A card body as cards_ops stores it: the model's field order (the log's payload has its
    keys sorted)."""
    from pydantic import ValidationError

    from a2a_tui.gate.cards import Card  # lazy: pydantic, only when a table is rewritten

    try:
        return json.dumps(Card.model_validate(body).body())
    except ValidationError:  # a body an older card model accepted: same content, sorted keys
        return json.dumps(body)
