"""The base's test outcomes: run once per target head and check, kept in the log
(`tests_reported`), taken from there by the next attempt on the same head, and from the verified
run that integrated the head; the `test_reports` table is folded from the log like every gate
table, and an edited report event is not believed."""

from __future__ import annotations

import sqlite3

from a2a_tui.gate import ledger
from a2a_tui.store import Store
from tests.gate.runners_support import (
    FIXED,
    TEST_ADD,
    TEST_SUB,
    integrate,
    py_claim,
    py_repo,
    verify_files,
)
from tests.gate.verify_support import events, result
from tests.support import a2a, rows

ADD_TEST = {"tests/test_add.py": f"from calc import add\n\n\n{TEST_ADD}"}


def _base_logs(repo, attempt):
    return sorted(p.name for p in (repo / ".a2a/logs" / attempt).rglob("*.base.log"))


def test_the_base_runs_once_per_target_head_and_then_comes_from_the_log(tmp_path):
    repo = py_repo(tmp_path)
    c1, _ = py_claim(repo)
    v1 = verify_files(repo, c1, {"src/calc.py": FIXED, **ADD_TEST})
    assert v1.json["verdict"] == "passed", v1.out
    assert "run on the base" in result(v1, "per-test")["detail"]
    assert _base_logs(repo, c1["attempt"]) == ["tests.base.log"]

    # Another card on the same target head: the base's outcomes come from the log.
    c2, _ = py_claim(repo, card_id="T-2")
    v2 = verify_files(repo, c2, {"src/calc.py": FIXED})
    detail = result(v2, "per-test")["detail"]
    assert "from the log" in detail and "a run on the base" in detail, detail
    assert _base_logs(repo, c2["attempt"]) == []

    # T-1 integrates: the target's head is its SHA, whose verified run is the next base.
    assert integrate(repo, c1["attempt"]).code == 0
    c3, _ = py_claim(repo, card_id="T-3")
    v3 = verify_files(repo, c3, {"src/notes.py": "x = 1\n"})
    assert v3.json["verdict"] == "passed", v3.out
    detail = result(v3, "per-test")["detail"]
    assert f"the verified run of {c1['attempt']}" in detail, detail
    assert "3 test(s) ran" in detail and _base_logs(repo, c3["attempt"]) == []


def test_the_reports_are_in_the_log_and_the_table_is_its_fold(tmp_path):
    repo = py_repo(tmp_path)
    c, _ = py_claim(repo)
    assert verify_files(repo, c, {"src/calc.py": FIXED, **ADD_TEST}).json["passed"]
    reported = {e["payload"]["source"]: e["payload"] for e in events(repo, "tests_reported")}
    assert reported["base"]["tests"] == {"tests/test_calc.py": {"test_mul": "passed",
                                                                "test_sub": "passed"}}
    assert reported["candidate"]["counts"]["passed"] == 3
    before = rows(repo, "SELECT * FROM test_reports ORDER BY seq")
    assert [r["source"] for r in before] == ["base", "candidate"]
    with Store(repo / ".a2a/a2a.db") as s:
        assert ledger.compare(s, ledger.load(s)) is None
    with sqlite3.connect(repo / ".a2a/a2a.db") as db:
        db.execute("DROP TABLE test_reports")
    assert a2a("status", "--json", cwd=repo).code == 0          # rebuilt at open
    assert rows(repo, "SELECT * FROM test_reports ORDER BY seq") == before
    assert a2a("store", "verify", "--json", cwd=repo).json["intact"] is True


def test_a_base_report_edited_in_the_log_is_not_believed(tmp_path):
    """Someone takes test_mul out of the recorded base (so that dropping it would pass), and
    moves the checkpoint past it so that no open looks at it again: the event no longer hashes
    to its link, and the gate freezes rather than use it."""
    repo = py_repo(tmp_path)
    c1, _ = py_claim(repo)
    assert verify_files(repo, c1, {"src/calc.py": FIXED}).json["passed"]
    (base,) = [e for e in events(repo, "tests_reported") if e["payload"]["source"] == "base"]
    c2, _ = py_claim(repo, card_id="T-2")
    with sqlite3.connect(repo / ".a2a/a2a.db") as db:
        db.execute("DROP TRIGGER IF EXISTS events_no_update")
        db.execute("UPDATE events SET payload = replace(payload, '\"test_mul\":\"passed\",', '')"
                   " WHERE seq = ?", (base["seq"],))
        db.execute("INSERT INTO chain_checkpoint(id, seq, hash) SELECT 1, seq, hash FROM events"
                   " WHERE seq = (SELECT MAX(seq) FROM events) ON CONFLICT(id) DO UPDATE"
                   " SET seq = excluded.seq, hash = excluded.hash")
    v = verify_files(repo, c2, {"src/calc.py": FIXED,
                                "tests/test_calc.py": f"from calc import sub\n\n\n{TEST_SUB}"})
    assert v.code != 0 and v.json["error"]["code"] == "store_tampered", v.out
