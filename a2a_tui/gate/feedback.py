"""Rejection feedback: written into the writer's pane as a `⟦门禁 #n⟧` dispatch.

First error and its context first, the full log by reference. After `feedback_limit`
consecutive rejections of one attempt the automatic feedback stops and the executive
controller (or the user) decides.
"""

from __future__ import annotations

import re
from typing import Any

from a2a_tui.queue import enqueue_in_tx

FEEDBACK_LINES = 30
# Check output often carries colours and other escapes; a dispatch is plain text.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-_]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def plain(text: str) -> str:
    """Text safe to paste as a prompt: escapes dropped, other control characters removed."""
    return _CONTROL.sub("", _ANSI.sub("", text.replace("\r\n", "\n")))


def rejection_text(att, v) -> str:
    first = v.first_failure()
    lines = [f"The gate rejected {att['id']} (submission {v.submission}, {v.sha[:12]},"
             f" run {v.run})."]
    if first is not None:
        lines.append(f"First failure: {first.name} ({first.kind}): {first.detail}")
        tail = (first.stderr_tail.strip() or first.stdout_tail.strip()).splitlines()
        if tail:
            lines.append("Context:")
            lines += ["  " + ln for ln in tail[-FEEDBACK_LINES:]]
        if first.log_path:
            lines.append(f"Full log: {first.log_path}")
    others = [r.name for r in v.results if r.blocking and not r.passed and r is not first
              and not r.skipped]
    if others:
        lines.append("Also failing: " + ", ".join(others))
    lines.append(f"Fix it, commit, and submit again: a2a submit {att['id']} --sha <full sha>"
                 f" --card-version <n> --fence {att['fence']}")
    return plain("\n".join(lines))


def queue_rejection_feedback(g, tx, att, v, rejections: int) -> dict[str, Any]:
    """Queue the feedback to the writer's pane, or record why it was not sent."""
    limit = g.config.feedback_limit
    writer = att["writer"]
    payload: dict[str, Any] = {"run": v.run, "sha": v.sha, "consecutive_rejections": rejections}
    if not writer.startswith("session:"):
        payload["sent"] = False
        payload["why"] = "the writer is not a managed session"
    elif rejections > limit:
        payload["sent"] = False
        payload["why"] = (f"{rejections} consecutive rejections (limit {limit}): automatic feedback"
                          " stops; the executive controller or the user decides")
    else:
        session = writer.split(":", 1)[1]
        dispatch = enqueue_in_tx(tx, session, rejection_text(att, v), source="gate", actor="gate",
                                 attempt=att["id"])
        payload["sent"] = True
        payload["dispatch"] = dispatch
    tx.append("gate_feedback", actor="gate", task=att["card_id"], attempt=att["id"],
              payload=payload)
    return payload
