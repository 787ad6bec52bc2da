"""Escalations: what the gate cannot decide goes to a person, as a board item for the executive
controller and the user (a protected one: only the user closes it), with a line in the
executive controller's pane when one is live.

- `contract_invalid`: the card's contract does not hold (a program missing, a file absent), at
  `card ready` or at a verify;
- `verify_flaky`: a check passed and failed on the same candidate;
- `test_suspect`: the same test failed in two consecutive verifies: is the test itself wrong?
- `feedback_stopped`: the rejection that ends automatic feedback, with the attempt's history;
- `verify_commit_missing`: the submitted commit is gone from the repository.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from a2a_tui.collab.board import post_finding_in_tx
from a2a_tui.collab.delivery import live_session, session_is_live
from a2a_tui.gate.model import VerifyState
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads.verify import FeedbackStopped, TestSuspect
from a2a_tui.queue import enqueue_in_tx

if TYPE_CHECKING:  # annotations only
    from a2a_tui.gate.ledger.records import AttemptRecord

# Protected: acceptance conditions are the user's to close (collab/roles.py).
CATEGORY = "acceptance"
VERDICT_EVENTS = ("verified", "rejected", "verify_flaky", "contract_invalid",
                  "verify_commit_missing")


def raise_item(tx, att: AttemptRecord | None, title: str, body: str, *, blocking: bool = False,
               task: str | None = None) -> tuple[str, bool]:
    """Post the item (about an attempt, or a card when `att` is None) and tell the live executive
    controller; (item id, whether a dispatch was queued)."""
    attempt = att.id if att is not None else None
    item = post_finding_in_tx(tx, title=title, body=body, category=CATEGORY, blocking=blocking,
                              actor="gate", session=None,
                              task=att.card_id if att is not None else task, attempt=attempt)
    executive = live_session(tx, "executive")
    if executive:
        enqueue_in_tx(tx, executive, f"Board {item}, for you and the user: {title}"
                      f" (a2a board show {item})", source="gate", actor="gate", attempt=attempt)
    return item, executive is not None


def tell_dispatcher(tx, attempt_id: str, text: str) -> int | None:
    """Tell the executive controller that dispatched the attempt (gave it a worker with its
    task: `a2a session new worker --attempt A --assign`, an `attempt_assigned` event) what just
    happened to it, in its pane, if it is still live: the submission to verify, the verdict to
    act on. Nothing when the user dispatched it (they see it on the Gate panel)."""
    given = tx.one("SELECT actor FROM events WHERE kind = 'attempt_assigned' AND attempt = ?"
                   " ORDER BY seq DESC LIMIT 1", (attempt_id,))
    if given is None or not given["actor"].startswith("session:"):
        return None
    sid = given["actor"].removeprefix("session:")
    row = tx.one("SELECT role FROM sessions WHERE id = ?", (sid,))
    if row is None or row["role"] != "executive" or not session_is_live(tx, sid):
        return None
    return enqueue_in_tx(tx, sid, text, source="gate", actor="gate", attempt=attempt_id)


def card_contract_invalid(tx, card_id: str, version: int, problems: list[str]
                          ) -> tuple[str | None, bool]:
    """`card ready` refused a card's contract: one item per card version while it stays open
    (a second try of the same card does not repeat it)."""
    title = f"{card_id} v{version}: the card's contract does not hold"
    open_item = tx.one("SELECT i.id FROM board_items i WHERE i.task = ? AND i.title = ? AND"
                       " NOT EXISTS (SELECT 1 FROM board_records r WHERE r.item_id = i.id AND"
                       " r.kind = 'close')", (card_id, title))
    if open_item is not None:
        return open_item["id"], False
    lines = "\n".join(f"- {p}" for p in problems)
    return raise_item(tx, None, title,
                      f"`a2a card ready {card_id}` was refused: the card's contract does not"
                      f" hold against the target's head.\n{lines}\nFix the card (`e` on the Gate"
                      f" panel, or `a2a card edit {card_id}`) or the gate rules"
                      " (.a2a/gate.toml), then mark it ready again.",
                      task=card_id)


def contract_invalid(tx, att: AttemptRecord, v) -> tuple[str, bool]:
    problems = "\n".join(f"- {p}" for p in v.contract_problems)
    item, queued = raise_item(
        tx, att, f"{att.card_id}: the card's contract does not hold ({att.id} not judged)",
        f"Verify run {v.run} of {att.id} ({v.sha[:12]}) did not run: the card's contract"
        f" failed its precheck.\n{problems}\nThis is the card's problem, not the worker's: no"
        f" strike was counted. Fix the card (`e` then `r` on the Gate panel, or `a2a card edit"
        f" {att.card_id}` then `a2a card ready {att.card_id}`) or the gate rules"
        " (.a2a/gate.toml), then verify again.")
    return item, queued


def commit_missing(tx, att: AttemptRecord, v) -> tuple[str, bool]:
    return raise_item(
        tx, att, f"{att.id}: the submitted commit {v.sha[:12]} is missing: the verdict is"
        " unknown",
        f"Verify run {v.run} of {att.id} found no commit {v.sha} in the repository, though"
        f" it was one when it was submitted (kept under refs/a2a/submitted/{att.id}/): its"
        " refs were removed and git's garbage collector took it. That is no judgement of the"
        " work, and no strike was counted. Put the commit back (from a clone, a backup, the"
        " worker's worktree) and verify again, ask the worker to submit again, or abandon the"
        " attempt.")


def flaky(tx, att: AttemptRecord, v) -> tuple[str, bool]:
    names = v.flaky_checks()
    item, queued = raise_item(
        tx, att, f"{att.id}: flaky check {', '.join(names)}: the verdict is unknown",
        f"On {v.sha[:12]} (run {v.run}) {', '.join(names)} both passed and failed. The gate"
        " counts that as neither a pass nor a failure: the attempt cannot be integrated and the"
        " gate will not run the check until it passes. Look at the check (and its logs under"
        f" .a2a/logs/{att.id}/run{v.run}/): fix the test, the environment, or the card.")
    return item, queued


def test_suspects(tx, att: AttemptRecord, v) -> bool:
    """When a test failed in this rejected run and in the previous completed one, ask for a
    review of the test itself (once per test and attempt)."""
    now = failing_tests(v.results)
    prev = tx.one("SELECT run, state FROM verifications WHERE attempt_id = ? AND run < ? AND"
                  " state NOT IN ('running', 'interrupted') ORDER BY run DESC LIMIT 1",
                  (att.id, v.run))
    if not now or prev is None or prev["state"] != VerifyState.REJECTED:
        return False
    before = set(_failing_in_run(tx, att.id, prev["run"]))
    raised = {t for r in tx.all("SELECT payload FROM events WHERE attempt = ? AND"
                                " kind = 'test_suspect'", (att.id,))
              for t in TestSuspect.read(json.loads(r["payload"])).tests}
    tests = [t for t in now if t in before and t not in raised]
    if not tests:
        return False
    item, queued = raise_item(
        tx, att, f"{att.id}: review the test {tests[0]}"
        + (f" (and {len(tests) - 1} more)" if len(tests) > 1 else ""),
        f"The same test failed in two consecutive verifies of {att.id} (runs {prev['run']}"
        f" and {v.run}): {', '.join(tests)}. The candidate changed in between; the test may be"
        " wrong, not the code. Please review the test itself before more rounds are spent.")
    tx.append("test_suspect", actor="gate", task=att.card_id, attempt=att.id,
              payload=TestSuspect(tests=tests, runs=[prev["run"], v.run], item=item))
    return queued


def failing_tests(results) -> list[str]:
    """The tests a run failed: from its test report (any runner), else the check's name."""
    out: list[str] = []
    for r in results:
        if r.kind in ("command", "red") and not r.passed and not r.skipped:
            out += [t for t in (r.failed_tests or [r.name]) if t not in out]
    return out


def _failing_in_run(tx, attempt: str, run: int) -> list[str]:
    out: list[str] = []
    for row in tx.all("SELECT payload FROM events WHERE attempt = ? AND kind = 'check_result'"
                      " AND json_extract(payload, '$.run') = ?", (attempt, run)):
        p = json.loads(row["payload"])
        if p.get("kind") in ("command", "red") and not p["passed"] and not p.get("skipped"):
            out += p.get("failed_tests") or [p["name"]]
    return out


def feedback_stopped(tx, att: AttemptRecord, v, rejections: int, limit: int) -> bool:
    history = attempt_history(tx, att.id)
    lines = [f"- run {h['run']} (submission {h['submission']}, {h['sha'][:12]}): {h['verdict']}"
             + (f" at {h['step']}/{h['check']}" if h["check"] else "")
             + (f": {h['first_error']}" if h["first_error"] else "")
             + (f" — log {h['log']}" if h["log"] else "") for h in history]
    body = (f"{att.id} was rejected {rejections} times in a row: automatic feedback to its"
            f" writer stops here (limit {limit}).\nHistory:\n" + "\n".join(lines)
            + "\nYour decision: more rounds (`a2a feedback more"
            f" {att.id} --rounds N`), a new attempt (`a2a claim {att.card_id}"
            f" --supersede`), or abandon (`a2a abandon {att.id} --score ... --reason ...`).")
    item, queued = raise_item(tx, att, f"{att.id}: rejected {rejections} times, automatic"
                              " feedback stopped", body, blocking=True)
    tx.append("feedback_stopped", actor="gate", task=att.card_id, attempt=att.id,
              payload=FeedbackStopped(rejections=rejections, limit=limit, item=item,
                                      history=history))
    return queued


def attempt_history(tx, attempt: str) -> list[JsonObject]:
    """Each completed verify of the attempt: its verdict, first failure and log."""
    rows = tx.all(f"SELECT kind, payload FROM events WHERE attempt = ? AND kind IN"
                  f" ({','.join('?' * len(VERDICT_EVENTS))}) ORDER BY seq",
                  (attempt, *VERDICT_EVENTS))
    out = []
    for r in rows:
        p = json.loads(r["payload"])
        if "run" not in p or p.get("where") == "card ready":
            continue
        out.append({"run": p["run"], "submission": p.get("submission"), "sha": p.get("sha", ""),
                    "verdict": p.get("verdict") or r["kind"], "check": p.get("first_failure"),
                    "step": p.get("first_failure_step"), "first_error": p.get("first_error"),
                    "log": p.get("log")})
    return out
