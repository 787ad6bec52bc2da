"""Each typed event kind takes its payload type and nothing else (a2a_tui/payloads): the append
refuses a dict, another kind's type or none, before anything is written; a field of the wrong
type fails where the payload is made; the reader fills what an older event lacks and leaves out
what no field names."""

from __future__ import annotations

import dataclasses

import pytest

from a2a_tui.gate import ledger
from a2a_tui.gate.ledger import reviews as review_fold
from a2a_tui.kinds import GateEvent
from a2a_tui.payloads import PAYLOADS, PayloadError, payload_of
from a2a_tui.payloads.reviews import IntegrationApproved, Reviewed
from a2a_tui.payloads.targets import TargetDiverged, TargetObserved, TargetRestored
from a2a_tui.store import Event, Store

SHA = "a" * 40


@pytest.fixture
def s(tmp_path):
    with Store(tmp_path / "a2a.db") as store:
        yield store


@pytest.mark.parametrize("payload, named", [
    ({"target": "main", "head": SHA, "source": "claim"}, "not dict"),
    (TargetDiverged(target="main", expected=SHA, observed=SHA), "not TargetDiverged"),
    (None, "not no payload"),
])
def test_an_append_takes_its_kinds_type_and_nothing_else(s, payload, named):
    with pytest.raises(PayloadError, match=f"target_observed takes a TargetObserved payload,"
                                           f" {named}"):
        with s.write() as tx:
            tx.append(GateEvent.TARGET_OBSERVED, actor="gate", payload=payload)
    assert s.last_seq() == 0   # nothing written


def test_a_kind_with_no_type_refuses_a_payload_type(s):
    with pytest.raises(PayloadError, match="note has no payload type"):
        with s.write() as tx:
            tx.append("note", actor="user", payload=TargetObserved(target="main", head=SHA,
                                                                   source="claim"))


def test_the_gates_record_takes_the_type_too(s):
    with pytest.raises(PayloadError, match="takes a TargetObserved payload, not dict"):
        with s.write() as tx:
            ledger.record(tx, GateEvent.TARGET_OBSERVED, actor="gate",
                          payload={"target": "main", "head": SHA, "source": "claim"})
    with s.write() as tx:
        ev = ledger.record(tx, GateEvent.TARGET_OBSERVED, actor="gate",
                           payload=TargetObserved(target="main", head=SHA, source="claim"))
    assert ev.payload == {"target": "main", "head": SHA, "source": "claim"}
    assert s.one("SELECT baseline FROM gate_targets WHERE branch = 'main'")[0] == SHA


def test_a_field_of_the_wrong_type_fails_where_the_payload_is_made():
    with pytest.raises(PayloadError, match=r"reviewed payload: submission = '1' is not int"):
        Reviewed(sha=SHA, submission="1", verdict="pass")
    with pytest.raises(PayloadError, match="risks"):
        Reviewed(sha=SHA, submission=1, verdict="pass", risks=[3])
    with pytest.raises(TypeError, match="verdict"):
        Reviewed(sha=SHA, submission=1)   # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Reviewed(sha=SHA, submission=1, verdict="pass").verdict = "block"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del Reviewed(sha=SHA, submission=1, verdict="pass").verdict
    with pytest.raises(TypeError, match="unexpected keyword argument 'verdikt'"):
        Reviewed(sha=SHA, submission=1, verdict="pass", verdikt="x")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Reviewed(SHA, 1, "pass")   # type: ignore[misc]  # keywords only


def test_a_payload_compares_hashes_and_shows_by_its_fields():
    a = TargetDiverged(target="main", expected=SHA, observed="b" * 40)
    same = TargetDiverged(target="main", expected=SHA, observed="b" * 40)
    other = TargetDiverged(target="main", expected=SHA, observed="c" * 40)
    assert a == same and hash(a) == hash(same) and a != other
    assert a != TargetObserved(target="main", head=SHA, source="claim")
    assert repr(a).startswith("TargetDiverged(target='main', expected=") and "reflog=()" in repr(a)
    assert dataclasses.replace(a, observed="c" * 40) == other


def test_a_payload_is_stored_under_its_keys_and_read_back_the_same():
    p = TargetRestored(target="main", from_=SHA, head="b" * 40, moved=True, reason="r",
                       user_input="U-1", worktree_synced=None)
    stored = p.to_json()
    assert stored["from"] == SHA and "from_" not in stored   # `from`: a Python keyword
    assert payload_of("target_restored", stored) == p


def test_the_reader_fills_what_an_older_event_lacks_and_leaves_out_what_no_field_names():
    # A verdict an a2a from before reports wrote: no run, round, risks or issues; and a key a
    # later a2a might add.
    p = payload_of("reviewed", {"sha": SHA, "submission": 1, "verdict": "block",
                                "notes": "no test", "later": 7})
    assert isinstance(p, Reviewed)
    assert (p.review, p.round, p.risks, p.blocking_issues, p.recommends_follow_up) == \
        (None, None, (), (), False)
    assert not hasattr(p, "later")
    # An approval from before migration 14 (no expiry, no target).
    a = payload_of("integration_approved", {"approval": "A-1", "user_input": "U-1", "sha": SHA,
                                            "submission": 1, "card_version": 1, "evidence": "e"})
    assert isinstance(a, IntegrationApproved) and (a.expires_ns, a.target_branch) == (None, None)
    # A key every event of the kind holds, missing: None, for the fold to show, not a crash.
    assert payload_of("target_observed", {"target": "main"}).head is None
    # A kind with no type yet: its dict.
    assert payload_of("note", {"x": 1}) == {"x": 1}


def test_an_older_event_folds_with_its_defaults():
    events = [
        Event(1, 1, "target_observed", "gate", None, None, None,
              {"target": "main", "head": SHA, "source": "claim"}),
        # A divergence from before it named its board item.
        Event(2, 2, "target_diverged", "gate", None, None, None,
              {"target": "main", "expected": SHA, "observed": "b" * 40}),
    ]
    row = ledger.fold(events).get("gate_targets", "main")
    assert (row["diverged_head"], row["diverged_seq"], row["finding"]) == ("b" * 40, 2, None)


def test_every_kind_the_gates_fold_applies_has_a_payload_type():
    assert set(ledger.HANDLERS) == set(GateEvent) <= set(PAYLOADS)
    assert set(review_fold.HANDLERS) <= set(PAYLOADS)
    assert all(t.KIND == k for k, t in PAYLOADS.items())


def test_a_subclass_type_checks_its_own_fields_after_its_base_was_made():
    from a2a_tui.payloads.verify import Rejected, Verified

    Verified(run=1)   # the base's check first
    assert Rejected(run=1, step="tests").step == "tests"
    with pytest.raises(PayloadError, match="step = 3"):
        Rejected(run=1, step=3)


def test_every_kind_a2a_appends_or_reads_has_a_payload_type():
    # The kinds as the events reference finds them in the code: every append of a2a's, every
    # kind the fold and the metrics read (docs/refgen/scan.py), with no exception.
    import importlib
    import sys
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs"
    sys.path.insert(0, str(docs))
    try:
        found = importlib.import_module("refgen.events_ref").kinds()
    finally:
        sys.path.remove(str(docs))
    assert len(found) > 100, sorted(found)
    assert sorted(set(found) - set(PAYLOADS)) == []
    assert all(t.KIND == k for k, t in PAYLOADS.items())
