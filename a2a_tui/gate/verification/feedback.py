"""Rejection feedback: written into the writer's pane as a `⟦门禁 #n⟧` dispatch.

It names the failed step and check, then the first error line (verify/excerpt.py) with a few
lines of context, then where the full log is; escapes stripped, the whole capped. After the gate
rules' `feedback_rounds` consecutive rejections of one attempt the automatic feedback stops and
a person decides (escalate.py); the user may grant more rounds (`a2a feedback more`).
"""

# Imports inside functions: what only `a2a feedback more` needs loads there.

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from a2a_tui import quoting
from a2a_tui.errors import A2AError
from a2a_tui.gate.model import CommandResult
from a2a_tui.payloads.verify import FeedbackRoundsAdded, GateFeedback
from a2a_tui.queue import enqueue_in_tx

if TYPE_CHECKING:  # annotations only: the ledger's package is not needed to run this
    from a2a_tui.gate.ledger.records import AttemptRecord

MAX_CHARS = 2000
CONTEXT_LINE = 200
# Check output often carries colours and other escapes; a dispatch is plain text.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-_]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def plain(text: str) -> str:
    """Text safe to paste as a prompt: escapes dropped, other control characters removed."""
    return _CONTROL.sub("", _ANSI.sub("", text.replace("\r\n", "\n")))


def limit(tx, att: AttemptRecord, rounds: int) -> int:
    """The attempt's feedback limit: the gate rules' rounds plus those the user granted."""
    added = tx.one("SELECT COALESCE(SUM(json_extract(payload, '$.rounds')), 0) FROM events"
                   " WHERE attempt = ? AND kind = 'feedback_rounds_added'", (att.id,))[0]
    return rounds + int(added)


def rejection_text(att: AttemptRecord, v, *, last: bool = False) -> str:
    first = v.first_failure()
    head = (f"The gate rejected {att.id} at step {first.step}, check {first.name}"
            if first else f"The gate rejected {att.id}")
    lines = [f"{head} (run {v.run}, submission {v.submission}, {v.sha[:12]}):"]
    tail: list[str] = []
    if first is not None:
        lines.append(first.first_error or first.detail)
        if first.first_error:
            tail.append(f"Result: {first.detail}")
        if first.log_path:
            tail.append(f"Full log: {first.log_path}")
    others = [r.name for r in v.failures() if r is not first]
    if others:
        tail.append("Also failing: " + ", ".join(others))
    if last:
        tail.append("This is the last automatic feedback: a person decides what happens next.")
    tail.append(f"Fix it, commit, and submit again: a2a submit {att.id} --sha <full sha>"
                f" --card-version <n> --fence {att.fence}")
    context = [ln[:CONTEXT_LINE] for ln in (first.error_context if first else ())]
    budget = MAX_CHARS - sum(len(x) + 1 for x in lines + tail) - 10
    shown = []
    for ln in context:
        if budget - len(ln) - 3 < 0:
            break
        shown.append("  " + ln)
        budget -= len(ln) + 3
    if len(shown) > 1:
        lines += ["Context:", *shown]
    # The check's output is the candidate's code's: its lines kept, nothing in it a marker.
    return quoting.body(plain("\n".join(lines + tail)))[:MAX_CHARS]


@dataclass(frozen=True)
class Feedback:
    """A rejection's feedback: queued to the writer's pane as a dispatch, or why it was not."""

    run: int
    sha: str
    consecutive_rejections: int
    limit: int
    dispatch: int | None = None      # the dispatch queued (None: not sent)
    why: str | None = None           # why it was not sent

    @property
    def sent(self) -> bool:
        return self.dispatch is not None

    def payload(self) -> GateFeedback:
        """The `gate_feedback` event's payload."""
        return GateFeedback(run=self.run, sha=self.sha,
                            consecutive_rejections=self.consecutive_rejections,
                            limit=self.limit, sent=self.sent, dispatch=self.dispatch,
                            why=None if self.sent else self.why)


def queue_rejection_feedback(tx, att: AttemptRecord, v, rejections: int, max_rounds: int
                             ) -> Feedback:
    """Queue the feedback to the writer's pane, or record why it was not sent."""
    writer = att.writer
    dispatch, why = None, None
    if not writer.startswith("session:"):
        why = "the writer is not a managed session"
    elif rejections > max_rounds:
        why = (f"{rejections} consecutive rejections (limit {max_rounds}): automatic"
               " feedback stopped; the executive controller or the user decides")
    else:
        session = writer.split(":", 1)[1]
        text = rejection_text(att, v, last=rejections == max_rounds)
        dispatch = enqueue_in_tx(tx, session, text, source="gate", actor="gate",
                                 attempt=att.id)
    fb = Feedback(v.run, v.sha, rejections, max_rounds, dispatch, why)
    tx.append("gate_feedback", actor="gate", task=att.card_id, attempt=att.id,
              payload=fb.payload())
    return fb


@dataclass(frozen=True)
class RoundsAdded(CommandResult):
    attempt: str
    added: int
    limit: int                       # the attempt's limit of automatic feedback rounds now
    rejections: int                  # its consecutive rejections so far
    user_input: str


def more_rounds(g, attempt_id: str, rounds: int) -> RoundsAdded:
    """The user grants an attempt `rounds` more rounds of automatic feedback (a user input)."""
    from a2a_tui.collab.user_input import record_user_input_in_tx
    from a2a_tui.gate.cards.gate_rules import current
    from a2a_tui.gate.ledger.records import read_attempt

    if not g.caller.is_user:
        raise A2AError("user_only", f"more feedback rounds are the user's to grant;"
                       f" {g.caller.describe()} is a managed session")
    if not 1 <= rounds <= 100:
        raise A2AError("bad_rounds", f"--rounds {rounds}: give 1 to 100", exit_code=2)
    g.attempt(attempt_id)
    base = current(g).rules.feedback_rounds
    with g.store.write() as tx:
        att = read_attempt(tx, attempt_id)
        assert att is not None   # g.attempt above found it, and attempts are never deleted
        uid = record_user_input_in_tx(tx, "action", f"feedback more {attempt_id} --rounds"
                                      f" {rounds}", source="cli", attempt=attempt_id)
        tx.append("feedback_rounds_added", actor="user", task=att.card_id, attempt=attempt_id,
                  payload=FeedbackRoundsAdded(rounds=rounds, user_input=uid))
        new_limit = limit(tx, att, base)
    return RoundsAdded(attempt_id, rounds, new_limit, att.rejections, uid)
