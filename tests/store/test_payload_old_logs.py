"""A log written before event kinds had payload types still reads and folds the same.

Each file in main_logs/ is the store of a gate test as a2a's main wrote it (main_logs/harvest.py
says how): its events byte for byte, the gate's tables as that code's fold wrote them, and the
Events panel's sentence of each event. Today's code reads those events through the payload
types (a2a_tui/payloads: `payload_of`, tolerant of keys a type lacks or adds) and must fold them
to the same rows, in a real store, and say them the same.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from a2a_tui.gate import ledger
from a2a_tui.gate.ledger.tables import TABLES
from a2a_tui.payloads import PAYLOADS
from a2a_tui.sentences import sentence
from a2a_tui.store import Event, Store

LOGS = sorted((Path(__file__).parent / "main_logs").glob("*.json"))


def _old(path: Path) -> dict:
    return json.loads(path.read_text())


def _events(log: dict) -> list[Event]:
    return [Event(e["seq"], e["ts_ns"], e["kind"], e["actor"], e["task"], e["attempt"],
                  e["session"], json.loads(e["payload"])) for e in log["events"]]


def _store_of(log: dict, where: Path) -> Store:
    """A real store holding the old log and the tables the old code wrote, as they were."""
    s = Store(where / "a2a.db")
    with s.write() as tx:
        for e in log["events"]:
            tx.execute(f"INSERT INTO events({','.join(e)}) VALUES ({','.join('?' * len(e))})",
                       tuple(e.values()))
        for name, rows in log["tables"].items():
            for r in rows:
                tx.execute(f"INSERT INTO {name}({','.join(r)}) VALUES"
                           f" ({','.join('?' * len(r))})", tuple(r.values()))
    return s


def test_the_old_logs_hold_the_typed_kinds():
    kinds = {e["kind"] for p in LOGS for e in _old(p)["events"]}
    # Every typed kind the gate folds whose command a test can drive without a pane, at least.
    assert {"review_requested", "review_started", "reviewed", "review_disposition",
            "review_overridden", "integration_approved", "approval_consumed",
            "target_observed", "target_diverged", "target_adopted", "target_restored"} <= kinds
    assert kinds & set(PAYLOADS)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_an_old_log_folds_to_the_tables_its_code_wrote(path, tmp_path):
    log = _old(path)
    with _store_of(log, tmp_path) as s:
        assert ledger.verify(s).intact   # the chain holds and every checked table agrees
        folded = ledger.load(s)
    for t in TABLES:   # the unchecked tables too, column by column
        want = {tuple(r[k] for k in t.key): r for r in log["tables"][t.name]}
        got = folded.rows[t.name]
        assert set(got) == set(want), t.name
        for key, row in got.items():
            for col in t.compared:
                have = row[col]
                if col in t.json_columns:
                    have = json.loads(json.dumps(have))
                    assert have == json.loads(want[key][col]), (t.name, key, col)
                else:
                    assert (have.value if hasattr(have, "value") else have) == want[key][col], \
                        (t.name, key, col)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_an_old_log_is_said_as_its_code_said_it(path):
    log = _old(path)
    assert [sentence(e) for e in _events(log)] == log["sentences"]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_an_old_log_gives_the_metrics_its_code_gave(path, tmp_path):
    from a2a_tui import metrics

    log = _old(path)
    with _store_of(log, tmp_path) as s:
        assert json.loads(json.dumps(metrics.compute_json(s), default=str)) == log["metrics"]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_every_typed_payload_main_wrote_passes_its_types_check(path):
    """What main wrote is what the types must accept when written now: each typed event's
    payload, made again from its keys, passes the check a new append makes, and is stored
    with the same values (a key the type adds reads as its default)."""
    for e in _old(path)["events"]:
        t = PAYLOADS.get(e["kind"])
        if t is None:
            continue
        raw = json.loads(e["payload"])
        again = t.of(raw).to_json()
        assert {k: again[k] for k in raw} == raw, e["seq"]
