"""Objective facts about an attempt, recorded beside the person's scores when it ends
(`integrated` and `abandoned` events, `facts`): rounds, wall time, rejections by step, and the
lines its candidate changed. All read from the event log."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from a2a_tui.gate.ledger.records import AttemptRecord
from a2a_tui.jsontypes import JsonObject, JsonValue
from a2a_tui.kinds import GateEvent

VERIFY_EVENTS = (GateEvent.VERIFIED, GateEvent.REJECTED, GateEvent.VERIFY_FLAKY)


@dataclass(frozen=True)
class ObjectiveFacts:
    """What the log says of an attempt when it ends, beside the person's scores."""

    rounds: int                           # submissions
    wall_time_s: float
    rejections_by_step: dict[str, int]
    changed_lines: JsonValue              # {added, removed} as verify measured; None: never

    def to_json(self) -> JsonObject:
        """As the `integrated`/`abandoned` event holds it (its `facts`)."""
        return {"rounds": self.rounds, "wall_time_s": self.wall_time_s,
                "rejections_by_step": dict(self.rejections_by_step),
                "changed_lines": self.changed_lines}


def objective_facts(tx, att: AttemptRecord, now_ns: int) -> ObjectiveFacts:
    """Rounds, wall time, rejections by step and the candidate's changed lines.

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
    return ObjectiveFacts(att.submission_n, round((now_ns - att.claimed_ns) / 1e9, 3),
                          dict(steps), lines)
