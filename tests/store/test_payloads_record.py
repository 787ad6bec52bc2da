"""The collaboration's, the boundary's, the record's and the house's kinds take their payload
type too (a2a_tui/payloads/collab.py, boundary.py, record.py, house.py): each has one, an
append with a dict for it is refused before anything is written, and what is read back is the
type, tolerant of an older event."""

from __future__ import annotations

import pytest

from a2a_tui.payloads import PAYLOADS, PayloadError, payload_of
from a2a_tui.store import Store

KINDS = (
    "project_profile_confirmed", "user_input", "inbox_posted", "board_item_posted",
    "board_item_answered", "board_item_closed", "collab_refused", "role_forbidden",
    "caller_unidentified", "broker_refused", "broker_peer_mismatch", "broker_exited",
    "initialized", "store_identified", "pid_namespace_recorded", "store_tampered",
    "store_repaired", "projections_rebuilt", "chain_resealed", "store_restored",
    "store_backed_up", "store_trouble", "orchestrator_started", "orchestrator_stopped",
    "settings_loaded", "settings_refused", "workbench_up", "demo_step",
)


@pytest.fixture
def s(tmp_path):
    with Store(tmp_path / "a2a.db") as store:
        yield store


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_has_a_payload_type_and_refuses_a_dict(s, kind):
    t = PAYLOADS.get(kind)
    assert t is not None and t.KIND == kind
    with pytest.raises(PayloadError, match=f"{kind} takes a {t.__name__} payload, not dict"):
        with s.write() as tx:
            tx.append(kind, actor="user", payload={"id": "X-1"})
    assert s.last_seq() == 0   # nothing written


def test_a_field_of_the_wrong_type_fails_where_it_is_made():
    from a2a_tui.payloads.collab import BoardItemClosed
    from a2a_tui.payloads.house import DemoStep

    with pytest.raises(PayloadError, match="demo_step payload: step = '1' is not int"):
        DemoStep(step="1", text="hello")
    with pytest.raises(TypeError, match="reason"):
        BoardItemClosed(id="Q-1")   # type: ignore[call-arg]


def test_an_older_event_reads_with_its_defaults():
    # A store made before stores had ids: its `initialized` names only the target branch.
    p = payload_of("initialized", {"target_branch": "main"})
    assert (p.target_branch, p.store_id, p.pid_namespace, p.replaces) == ("main", None, None,
                                                                           None)
    # An answer from before `adopted` was written; a key no field names is left out.
    a = payload_of("board_item_answered", {"id": "Q-1", "user_input": "U-1", "later": 1})
    assert (a.option, a.adopted) == (None, False) and not hasattr(a, "later")
    # A refusal names only what it was about.
    r = payload_of("collab_refused", {"code": "user_only", "message": "m", "what": "x"})
    assert (r.what, r.item, r.kind) == ("x", None, None)
    # `from`, a Python keyword, is stored as such.
    from a2a_tui.payloads.record import StoreRestored

    restored = StoreRestored(from_="/b.db", last_seq=3)
    assert restored.to_json()["from"] == "/b.db"
    assert payload_of("store_restored", restored.to_json()) == restored
