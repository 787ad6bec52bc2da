"""Independent review: a fresh reviewer session, not the writer, started after the submission.

The verdict is bound to the exact SHA. It is advisory: a `block` stops integration of that SHA,
a `pass` approves nothing on its own (the checks still decide).
"""

from __future__ import annotations

from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.roles import require_role

VERDICTS = ("pass", "block")


def review(g: GateContext, attempt_id: str, sha: str, verdict: str, notes: str) -> dict[str, Any]:
    """A reviewer session's advisory verdict on the attempt's current candidate."""
    att = g.attempt(attempt_id)
    ledger.require_intact(g, att["card_id"])
    if verdict not in VERDICTS:
        raise A2AError("bad_verdict",
                       f"verdict must be one of {', '.join(VERDICTS)}, not {verdict!r}")
    if not notes.strip():
        raise A2AError("notes_required", "a review needs notes: what was read and why this verdict")

    def refuse(code: str, message: str) -> A2AError:
        with g.store.write() as tx:
            tx.append("review_refused", actor=g.caller.actor, task=att["card_id"],
                      attempt=attempt_id, session=g.caller.session,
                      payload={"code": code, "message": message, "sha": sha, "verdict": verdict})
        return A2AError(code, message)

    # The user and the other roles do not review: the user decides with integrate/abandon.
    require_role(g, "review", attempt=att)
    session = g.store.one("SELECT * FROM sessions WHERE id=?", (g.caller.session,))
    if g.caller.actor == att["writer"] or _ever_wrote(g, attempt_id, g.caller.actor):
        raise refuse("reviewer_is_writer", f"{g.caller.describe()} wrote {attempt_id}: a review"
                     " must be independent")
    sub = g.store.one("SELECT * FROM submissions WHERE attempt_id=? AND n=?",
                      (attempt_id, att["submission_n"]))
    if sub is None or sub["sha"] != sha.strip().lower():
        raise refuse("stale_sha", f"{sha[:12]} is not the current candidate of {attempt_id}"
                     f" ({sub['sha'][:12] if sub else 'none submitted'})")
    if session["launch_seq"] < sub["seq"]:
        raise refuse("reviewer_not_fresh",
                     f"session {session['id']} was started before this submission; start a fresh"
                     " reviewer session for it")
    with g.store.write() as tx:
        seq = tx.append("reviewed", actor=g.caller.actor, task=att["card_id"], attempt=attempt_id,
                        session=g.caller.session,
                        payload={"sha": sub["sha"], "submission": sub["n"], "verdict": verdict,
                                 "notes": notes})
        tx.execute("INSERT INTO reviews(attempt_id, submission_n, sha, session, verdict, notes,"
                   " seq) VALUES (?,?,?,?,?,?,?)",
                   (attempt_id, sub["n"], sub["sha"], g.caller.session, verdict, notes, seq))
    return {"attempt": attempt_id, "sha": sub["sha"], "verdict": verdict,
            "session": g.caller.session, "advisory": True}


def blocking_review(g: GateContext, attempt_id: str, sha: str):
    """The latest `block` review of this SHA, if any."""
    return g.store.one("SELECT * FROM reviews WHERE attempt_id=? AND sha=? AND verdict='block'"
                       " ORDER BY seq DESC LIMIT 1", (attempt_id, sha))


def _ever_wrote(g: GateContext, attempt_id: str, actor: str) -> bool:
    row = g.store.one("SELECT 1 FROM events WHERE attempt=? AND kind IN ('writer_bound','claimed')"
                      " AND (json_extract(payload,'$.to')=? OR json_extract(payload,'$.writer')=?)"
                      " LIMIT 1", (attempt_id, actor, actor))
    return row is not None
