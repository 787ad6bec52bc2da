"""The kinds of sessions, panes, dispatches and the gate's diagnostics take their payload types
too (a2a_tui/payloads: sessions.py, dispatch.py, and the gate's modules): the append refuses a
dict for each, before anything is written; what older events lack reads as the default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from a2a_tui.payloads import PAYLOADS, PayloadError, payload_of
from a2a_tui.store import Store

GATE_SIDE = (
    "card_weakening_refused", "attempt_assigned", "submit_refused", "gate_feedback",
    "feedback_stopped", "feedback_rounds_added", "test_suspect", "gate_rules_changed",
    "rules_accepted", "integrate_refused", "target_restore_intent", "target_restore_failed",
    "review_refused", "review_checkouts_reclaimed")
PANES = (
    "session_launching", "session_launched", "session_ended", "pane_exited", "signal",
    "signal_quarantined", "spool_flooded", "human_intervention", "pane_hint", "pane_stalled",
    "turn_reminded", "turn_stopped", "model_stopped_early", "spot_check_requested",
    "spot_check_done", "pane_paused", "pane_resumed", "pane_released", "dispatch_queued",
    "dispatch_sending", "dispatch_sent", "dispatch_confirmed", "dispatch_done",
    "dispatch_not_sent", "dispatch_unknown", "dispatch_enter_resent", "dispatch_ended",
    "user_called", "attention_seen")


@pytest.fixture
def s(tmp_path):
    with Store(tmp_path / "a2a.db") as store:
        yield store


def test_each_kind_of_sessions_panes_and_the_gates_diagnostics_has_a_payload_type():
    missing = [k for k in (*GATE_SIDE, *PANES) if k not in PAYLOADS]
    assert missing == []
    assert all(PAYLOADS[k].KIND == k for k in (*GATE_SIDE, *PANES))


@pytest.mark.parametrize("kind", [*GATE_SIDE, *PANES])
def test_an_append_of_a_dict_for_the_kind_is_refused(s, kind):
    with pytest.raises(PayloadError, match=f"{kind} takes a .* payload, not dict"):
        with s.write() as tx:
            tx.append(kind, actor="orchestrator", payload={"n": 1})
    assert s.last_seq() == 0


def test_what_an_older_event_lacks_reads_as_its_default():
    # A pane exit recorded by a launch that found the CLI gone at once: only its reason.
    p = payload_of("pane_exited", {"reason": "the CLI exited at once"})
    assert (p.reason, p.pane, p.why, p.found_at) == ("the CLI exited at once", None, None, None)
    # A signal a hook wrote before `hint`, `ignored`...: None; `from` under its keyword name.
    sig = payload_of("signal", {"kind": "stop", "from": "busy", "to": "idle", "later": 1})
    assert (sig.kind, sig.from_, sig.to, sig.finished, sig.ignored) == \
        ("stop", "busy", "idle", None, None)
    assert not hasattr(sig, "later")
    # An intervention typed in a pane (older: `kind`), and one by a commit (`via`).
    typed = payload_of("human_intervention", {"user_input": "U-1", "kind": "typed_in_pane"})
    assert (typed.kind, typed.via) == ("typed_in_pane", None)
    # The three-strike stop recorded as feedback not sent, before `limit` was kept.
    fb = payload_of("gate_feedback", {"run": 1, "sha": "a" * 40, "consecutive_rejections": 4,
                                      "sent": False, "why": "4 consecutive rejections"})
    assert (fb.sent, fb.limit, fb.dispatch) == (False, None, None)


# The stores of a2a's main's own tests (main_logs/harvest_panes.py), as main wrote them: each is
# also read by test_payload_old_logs.py, which holds its sentences, metrics and gate tables to
# what main's code gave.
LOGS = sorted((Path(__file__).parent / "main_logs").glob("panes_*.json"))
# The kinds a test of main writes: all but a claim's assignment, a dispatch called off or ended
# with its session, a refused submission, a restore git refused and review checkouts reclaimed.
HARVESTED = (set(GATE_SIDE) | set(PANES)) - {
    "attempt_assigned", "dispatch_ended", "dispatch_not_sent", "submit_refused",
    "target_restore_failed", "review_checkouts_reclaimed"}


def test_the_old_logs_hold_these_kinds():
    kinds = {e["kind"] for p in LOGS for e in json.loads(p.read_text())["events"]}
    assert HARVESTED <= kinds, sorted(HARVESTED - kinds)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_each_payload_main_wrote_reads_through_its_type_with_every_key(path):
    """Each event of these kinds, as main stored it, reads as its kind's type, every key of it
    under a field of that type with main's value (nothing main wrote is lost to the type)."""
    mine = set(GATE_SIDE) | set(PANES)
    for e in json.loads(path.read_text())["events"]:
        if e["kind"] not in mine:
            continue
        raw = json.loads(e["payload"])
        p = payload_of(e["kind"], raw)
        assert type(p) is PAYLOADS[e["kind"]], e["seq"]
        assert {k: v for k, v in p.to_json().items() if k in raw} == raw, (e["seq"], e["kind"])
