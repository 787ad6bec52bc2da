"""Taking an attempt back from its writer only once the writer is done with it (seed 003 四:
"等待超时不代表 worker 挂了 ... 回收前要确认 agent 已经空闲、交付也已提交，只看到提交落地是不够的").

`abandon`, `claim --supersede` and `reclaim` end or clean up an attempt a session may still be
writing. Before any of them the gate looks at two facts it does not take from the agent:

- the writer's pane, as the signals left it (the `sessions` projection the panes write from the
  CLI's own hooks, a2a_tui/panes/): idle or exited may be taken back; busy (a turn under way),
  waiting (a permission prompt) or unknown (a2a cannot tell) may not. A session with no pane
  (named writer, never started) runs nothing.
- its delivery: the head of the attempt's clone is the start commit or the last submitted
  commit. Commits past the last submission are work the writer made and never handed in: taking
  the attempt now would bury them (they stay in the clone, but no verify, review or metric sees
  them). For `reclaim` the attempt has ended already, and its ending (abandon, supersede,
  integrate) was where its delivery was settled: only the pane counts.

Otherwise the command is refused, saying why and what can be done: wait for the turn to end
(the Sessions panel shows it), have the writer submit, or, the user alone, `--force`, which
is recorded with what it overrode (`forced` in the event's payload).
"""

from __future__ import annotations

from dataclasses import dataclass

from a2a_tui.errors import A2AError
from a2a_tui.gate.attempts import clones
from a2a_tui.gate.ledger.records import AttemptRecord
from a2a_tui.gate.roles import require_role
from a2a_tui.jsontypes import JsonObject

# Pane states a writer may be taken back in; every other one (busy, waiting, unknown) holds it.
SETTLED = ("idle", "exited")
_WHY = {"busy": "is busy (a turn is under way)",
        "waiting": "is waiting on a prompt of its CLI (a permission, a question)",
        "unknown": "is in an unknown state (a2a has no signal that tells what it is doing)"}


@dataclass(frozen=True)
class Holdup:
    """One reason an attempt cannot be taken from its writer now."""

    code: str      # writer_busy | delivery_unsubmitted
    reason: str

    def to_json(self) -> JsonObject:
        return {"code": self.code, "reason": self.reason}


def _holdup(code: str, reason: str) -> Holdup:
    """A holdup; its code is an error code of the refusal (docs/refgen/scan.py finds it)."""
    return Holdup(code, reason)


def writer_session(att: AttemptRecord) -> str | None:
    """The session id of the attempt's writer (None: the user writes it)."""
    writer = att.writer or ""
    return writer.removeprefix("session:") if writer.startswith("session:") else None


def pane_holdup(db, att: AttemptRecord) -> Holdup | None:
    """Why the writer's pane holds the attempt (None: it is idle, exited, or has no pane)."""
    sid = writer_session(att)
    if sid is None:
        return None
    row = db.one("SELECT state, in_flight FROM sessions WHERE id = ?", (sid,))
    if row is None or (row["state"] in SETTLED and row["in_flight"] is None):
        return None
    why = _WHY.get(row["state"], f"is {row['state']}")
    if row["state"] in SETTLED:
        why = f"has dispatch #{row['in_flight']} in flight"
    return _holdup("writer_busy", f"its writer, session {sid}, {why}")


def delivery_holdup(att: AttemptRecord, head: str | None) -> Holdup | None:
    """Why the writer's delivery holds the attempt: commits in its clone past the last
    submission (`head`: the clone's head, read before the transaction; None: no clone)."""
    if writer_session(att) is None or head is None:
        return None
    if head in (att.start_commit, att.submitted_sha):
        return None
    last = (f"its last submission ({att.submitted_sha[:12]})" if att.submitted_sha
            else "nothing submitted")
    return _holdup("delivery_unsubmitted", f"its clone's head {head[:12]} was never submitted"
                  f" ({last})")


def clone_head(att: AttemptRecord) -> str | None:
    """The head of the attempt's clone, read outside any transaction (git)."""
    return clones.head_of(att)


def holdups(db, att: AttemptRecord, head: str | None, *, delivery: bool = True) -> list[Holdup]:
    """Every reason the attempt cannot be taken from its writer now (empty: it can)."""
    found = [pane_holdup(db, att), delivery_holdup(att, head) if delivery else None]
    return [h for h in found if h is not None]


def permit_force(g, att: AttemptRecord, what: str) -> None:
    """`--force` is the user's alone: a session asking for it is refused and recorded."""
    require_role(g, "force", attempt=att, detail=f" ({what})")


def settle(db, att: AttemptRecord, head: str | None, *, what: str, force: bool,
           delivery: bool = True) -> list[JsonObject]:
    """Refuse `what` on the attempt while something holds it, naming every reason and the way
    out; with `force` (the caller was permitted it), return what was overridden, to record."""
    found = holdups(db, att, head, delivery=delivery)
    if not found or force:
        return [h.to_json() for h in found]
    sid = writer_session(att)
    ways = []
    if any(h.code == "writer_busy" for h in found):
        ways.append(f"wait until session {sid} is idle (the Sessions panel), or end it"
                    f" (`a2a session end {sid}`)")
    if any(h.code == "delivery_unsubmitted" for h in found):
        ways.append(f"have it submit its work (`a2a submit {att.id} ...`)")
    ways.append("or, the user alone, --force (recorded)")
    raise A2AError(found[0].code, f"{what} {att.id} refused: "
                   + "; ".join(h.reason for h in found) + ". " + "; ".join(ways),
                   details={"holdups": [h.to_json() for h in found]})
