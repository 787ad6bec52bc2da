"""Spot checks (seed 004 5.4: "门禁之外加一道人工抽检，定期抽查通过的产物，看有没有明显的应试
痕迹"): every Nth integration (`spot_check_every` of the gate rules, the user's; 0: never), a
board item asks the user to re-check one integrated attempt of the last N: its diff, its
evidence, its scores.
Which one is drawn from the integration's own event (its seq's hash), so nobody picks it and an
agent cannot count on its own being left out.

The user answers with `a2a spot-check ATTEMPT --ok` or `--flag --reason ...` (or the
workbench's key on the board item): `spot_check_done`, with the user input, closes the item.
Flagged ones are a metric (metrics/views.py `first_pass` -> `spot_checks`): how often an
attempt the gate let in looked wrong to a person.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from a2a_tui.collab.board import close_in_tx, post_finding_in_tx
from a2a_tui.collab.user_input import record_user_input_in_tx
from a2a_tui.errors import A2AError
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.model import CommandResult
from a2a_tui.gate.roles import admit
from a2a_tui.kinds import EventKind
from a2a_tui.payloads.sessions import SpotCheckDone, SpotCheckRequested


@dataclass(frozen=True)
class SpotChecked(CommandResult):
    attempt: str
    verdict: str              # ok | flagged
    reason: str
    user_input: str


def after_integrated(tx, every: int, seq: int) -> str | None:
    """In the transaction of integration `seq`: when it is an Nth one, ask the user to re-check
    one of the last N integrated attempts (returns the attempt asked about)."""
    if every <= 0:
        return None
    done = tx.all("SELECT seq, attempt, task FROM events WHERE kind = 'integrated'"
                  " ORDER BY seq DESC LIMIT ?", (every,))
    n = tx.one("SELECT COUNT(*) FROM events WHERE kind = 'integrated'")[0]
    if n % every != 0 or not done:
        return None
    pick = done[int(hashlib.sha256(str(seq).encode()).hexdigest(), 16) % len(done)]
    aid = pick["attempt"]
    item = post_finding_in_tx(
        tx, title=f"Spot check: re-check {aid}", category="acceptance", blocking=False,
        body=f"Integration {n} (every {every}): look again at {aid}, integrated: its diff (`a2a"
        f" diff {aid}`), its evidence (`a2a log {aid}`, `a2a review show {aid}`) and its scores."
        f" Then `a2a spot-check {aid} --ok`, or `--flag --reason \"...\"` (f on this item in"
        " the workbench) if the gate let something through it should not have.", actor="gate",
        session=None,
        task=pick["task"], attempt=aid)
    tx.append("spot_check_requested", actor="gate", task=pick["task"], attempt=aid,
              payload=SpotCheckRequested(item=item, integration=n, every=every,
                                         drawn_from=seq))
    return aid


def answer(g: GateContext, attempt_id: str, *, flag: bool, reason: str = "",
           source: str = "cli") -> SpotChecked:
    """The user's verdict on a spot check asked about `attempt_id` (the user's alone)."""
    admit(g, "spot-check", attempt_id)
    if flag and not reason.strip():
        raise A2AError("usage", "--flag says why (--reason)", exit_code=2)
    verdict = "flagged" if flag else "ok"
    with g.store.write() as tx:
        asked = tx.one("SELECT seq, task, json_extract(payload, '$.item') AS item FROM events"
                       " WHERE kind = ? AND attempt = ? ORDER BY seq DESC LIMIT 1",
                       (EventKind.SPOT_CHECK_REQUESTED.value, attempt_id))
        if asked is None:
            raise A2AError("no_spot_check", f"no spot check asks about {attempt_id}")
        done = tx.one("SELECT 1 FROM events WHERE kind = ? AND attempt = ? AND seq > ?",
                      (EventKind.SPOT_CHECK_DONE.value, attempt_id, asked["seq"]))
        if done is not None:
            raise A2AError("no_spot_check", f"the spot check of {attempt_id} was answered")
        uid = record_user_input_in_tx(tx, "action", f"spot check {attempt_id}: {verdict}"
                                      + (f": {reason}" if reason else ""), source=source,
                                      ref=asked["item"], attempt=attempt_id)
        tx.append("spot_check_done", actor="user", task=asked["task"],
                  attempt=attempt_id, payload=SpotCheckDone(verdict=verdict, reason=reason,
                                                            user_input=uid,
                                                            asked=asked["seq"]))
        close_in_tx(tx, asked["item"], f"spot check {verdict} ({uid})", actor="user",
                    session=None, role=None)
    return SpotChecked(attempt_id, verdict, reason, uid)
