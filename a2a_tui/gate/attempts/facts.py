"""Objective facts about an attempt, recorded beside the person's scores when it ends
(`integrated` and `abandoned` events, `facts`): rounds, wall time, rejections by step, and the
lines its candidate changed. All read from the event log."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from a2a_tui.gate.ledger.records import AttemptRecord
from a2a_tui.kinds import GateEvent

VERIFY_EVENTS = (GateEvent.VERIFIED, GateEvent.REJECTED, GateEvent.VERIFY_FLAKY)


def objective_facts(tx, att: AttemptRecord, now_ns: int) -> dict[str, Any]:
    """{rounds, wall_time_s, rejections_by_step: {step: n}, changed_lines: {added, removed}}.

    `rounds` is the number of submissions; `changed_lines` is the candidate's own diff as its
    last completed verify measured it, or None when the current submission was never verified.
    """
    steps: Counter[str] = Counter()
    lines = None
    rows = tx.all(f"SELECT kind, payload FROM events WHERE attempt = ? AND kind IN"
                  f" ({','.join('?' * len(VERIFY_EVENTS))}) ORDER BY seq",
                  (att.id, *VERIFY_EVENTS))
    for r in rows:
        p = json.loads(r["payload"])
        if r["kind"] == GateEvent.REJECTED:
            steps[p.get("first_failure_step") or p.get("first_failure") or "unknown"] += 1
        if p.get("submission") == att.submission_n:
            lines = p.get("changed_lines")
    return {"rounds": att.submission_n,
            "wall_time_s": round((now_ns - att.claimed_ns) / 1e9, 3),
            "rejections_by_step": dict(steps), "changed_lines": lines}
