"""Model behaviour, recorded apart (seed 003 四, "区分模型行为和协调缺陷"): "有一类问题是模型在
还有已授权工作时就结束回合。我把它归为模型行为，单独记录，不当作分工协调的缺陷去整改".

A turn that ends while authorised work remains is the model's doing, not a defect of the
coordination: the worker's Stop (its CLI's own signal that the turn ended) while the attempt it
writes owes work (claimed, or rejected and not submitted again), with no question asked in the
turn (no permission wait, no board question of that session) and no error (a StopFailure is the
CLI's error, not the model's choice). Such a Stop is recorded as `model_stopped_early`, in the
signal's own transaction (the orchestrator hands `on_signal` to the ingestion), with the CLI,
model and effort of the session, so that the metrics count it per model, apart from rejections,
stalls and feedback stops (metrics/views.py `first_pass`).
"""

from __future__ import annotations

import json

from a2a_tui.gate.attempts.leases import OWING
from a2a_tui.gate.ledger.records import read_attempt
from a2a_tui.payloads.sessions import ModelStoppedEarly, Signal

ERROR_STOPS = ("StopFailure",)   # the CLI stopped on an error (an API failure): not the model's


def on_signal(tx, sid: str) -> int | None:
    """After signal ingestion, in its transaction: record `model_stopped_early` when the
    signal just recorded for session `sid` is such a Stop (returns its seq; None otherwise)."""
    ev = tx.one("SELECT seq, payload FROM events WHERE kind = 'signal' AND session = ?"
                " ORDER BY seq DESC LIMIT 1", (sid,))
    if ev is None:
        return None
    p = Signal.read(json.loads(ev["payload"]))
    if p.kind != "stop" or p.from_ != "busy" or p.ignored or p.event in ERROR_STOPS:
        return None
    s = tx.one("SELECT attempt_id, cli, model, effort, role FROM sessions WHERE id = ?", (sid,))
    att = read_attempt(tx, s["attempt_id"]) if s is not None else None
    if att is None or att.writer != f"session:{sid}" or att.state not in OWING:
        return None
    began = tx.one("SELECT MAX(seq) FROM events WHERE kind = 'signal' AND session = ? AND seq < ?"
                   " AND json_extract(payload, '$.kind') = 'prompt'", (sid, ev["seq"]))[0] or 0
    if _asked(tx, sid, began, ev["seq"]):
        return None
    # spelled here, as every kind the gate appends (tests/gate/test_gate_fold_writer.py); the
    # registry names it for the metrics (kinds.EventKind.MODEL_STOPPED_EARLY)
    return tx.append("model_stopped_early", actor="gate", task=att.card_id,
                     attempt=att.id, session=sid,
                     payload=ModelStoppedEarly(signal=ev["seq"], turn_began=began,
                                               state=att.state, cli=s["cli"], model=s["model"],
                                               effort=s["effort"]))


def _asked(tx, sid: str, after: int, before: int) -> bool:
    """Whether session `sid` asked something between the two seqs: a wait on the user
    (permission prompt) or a board question."""
    waited = tx.one("SELECT 1 FROM events WHERE kind = 'signal' AND session = ? AND seq > ?"
                    " AND seq < ? AND json_extract(payload, '$.kind') = 'waiting' LIMIT 1",
                    (sid, after, before))
    asked = tx.one("SELECT 1 FROM events WHERE kind = 'board_item_posted' AND session = ?"
                   " AND seq > ? AND seq < ? AND json_extract(payload, '$.kind') = 'question'"
                   " LIMIT 1", (sid, after, before))
    return waited is not None or asked is not None
