"""The logs main wrote before the collaboration's, the boundary's, the record's and the house's
kinds had payload types (main_logs/record_*.json, made as main_logs/harvest_record.py says)
still read: every event of those kinds reads through its type, each field the value main wrote
(or its default where main wrote none). test_payload_old_logs.py holds the same logs to the
tables, the sentences and the metrics main's code gave."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from a2a_tui.payloads import PAYLOADS, payload_of

from .test_payloads_record import KINDS

LOGS = sorted((Path(__file__).parent / "main_logs").glob("record_*.json"))


def _events(path: Path) -> list[dict]:
    return json.loads(path.read_text())["events"]


def test_the_logs_hold_every_kind_typed_here():
    held = {e["kind"] for p in LOGS for e in _events(p)}
    assert set(KINDS) <= held, sorted(set(KINDS) - held)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_each_event_of_these_kinds_reads_through_its_type(path):
    for e in _events(path):
        if e["kind"] not in KINDS:
            continue
        raw = json.loads(e["payload"])
        p = payload_of(e["kind"], raw)
        t = PAYLOADS[e["kind"]]
        assert type(p) is t, e["seq"]
        for f in dataclasses.fields(t):
            k = f.metadata.get("key", f.name)
            default = f.default if f.default is not dataclasses.MISSING else None
            assert getattr(p, f.name) == raw.get(k, default), (e["seq"], e["kind"], k)
        # Nothing main wrote is left out of the type.
        assert set(raw) <= {f.metadata.get("key", f.name) for f in dataclasses.fields(t)}, \
            (e["kind"], sorted(raw))
