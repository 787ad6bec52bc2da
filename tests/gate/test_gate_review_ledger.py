"""Reviews and approvals are gate state the log decides: after a whole review and approval cycle
`a2a store verify` finds every review table what the fold of the log gives, `a2a store rebuild`
writes them again from the log alone, and a row changed outside a2a freezes the gate.

Everything runs through the real CLI; the tampering is sqlite3 on `.a2a/a2a.db`, as an agent
with a shell would do it.
"""

from __future__ import annotations

from pathlib import Path

from a2a_tui.gate import ledger
from tests.gate.gate_support import sqlite_outside as _sql
from tests.gate.review_support import REQUIRED, TWO, Attempt
from tests.support import (
    a2a,
    add_ready_card,
    error_code,
    events,
    give_verdict,
    review_report,
    rows,
    start_review,
)

REVIEW_TABLES = ("reviews", "review_runs", "review_issues", "review_dispositions",
                 "review_overrides", "approvals", "approval_uses")


def _dump(repo: Path) -> dict[str, list[dict]]:
    return {t: rows(repo, f"SELECT * FROM {t} ORDER BY rowid") for t in REVIEW_TABLES}


def _cycle(world, repo: Path) -> Attempt:
    """A card that requires a review and the user's approval: a fail with two issues (one
    accepted, one rejected), a new submission, a launch that died and one that did not, a
    follow-up fail the user overrides, the user's approval, the integration that uses it."""
    add_ready_card(repo, extra=f'{REQUIRED}\nintegrate_approval = "user"')
    a = Attempt(world, repo)
    a.submit()
    a.review(TWO)
    assert a.dispose("B1", "accept").code == 0
    assert a.dispose("B2", "reject", "covered by B1").code == 0
    a.submit()
    died = a2a("review", "start", a.id, "--cli", "demo", "--tmux-socket", world.sock,
               cwd=repo, env={"A2A_CRASH_AT": "review_start:after_spawn"})
    assert died.code == -9
    follow = start_review(repo, world.sock, a.id).json     # records the dead launch as failed
    one = review_report("fail", issues=[("B3", "Still no test", ["src/app.py:2"])],
                        risks=["names in other scripts"])
    assert give_verdict(repo, follow["session"], a.id, a.sha, one).code == 0
    assert a2a("review", "override", a.id, "--reason", "read B3: fine", cwd=repo).code == 0
    assert a2a("approve", a.id, cwd=repo).code == 0
    r = a.integrate()
    assert r.code == 0, r.out
    kinds = {e.kind for e in events(repo)}
    assert {"review_requested", "review_started", "review_launch_failed", "reviewed",
            "review_disposition", "review_overridden", "integration_approved",
            "approval_consumed"} <= kinds
    return a


def test_after_a_review_and_approval_cycle_the_store_verifies_and_rebuilds_the_same(world, repo):
    a = _cycle(world, repo)
    v = a2a("store", "verify", "--json", cwd=repo)
    assert v.code == 0 and v.json["intact"] is True, v.out
    before = _dump(repo)
    assert all(before[t] for t in REVIEW_TABLES), {t: len(r) for t, r in before.items()}
    assert [r["state"] for r in before["review_runs"]] == ["running", "failed", "running"]
    assert [r["id"] for r in before["reviews"]] == [r["seq"] for r in before["reviews"]]
    # Gone: rebuilt from the log at the next command's open, row for row.
    _sql(repo, *(f"DROP TABLE {t}" for t in REVIEW_TABLES))
    assert a2a("status", cwd=repo).code == 0
    assert _dump(repo) == before
    # A rebuild over tables that agree changes nothing.
    assert a2a("store", "rebuild", cwd=repo).code == 0
    assert _dump(repo) == before
    assert a2a("store", "verify", "--json", cwd=repo).json["intact"] is True
    assert a2a("review", "show", a.id, "--json", cwd=repo).json["approvals"][0]["state"] == "used"


def test_an_approval_use_deleted_outside_a2a_freezes_the_gate(world, repo):
    """Deleting the row that records an approval's use (so it could be used twice) is a table
    the log disagrees with: verify names it, and the gate refuses until the user rebuilds."""
    a = _cycle(world, repo)
    _sql(repo, "DROP TRIGGER approval_uses_no_delete", "DELETE FROM approval_uses")
    v = a2a("store", "verify", "--json", cwd=repo)
    assert v.json["intact"] is False and v.json["table"] == "approval_uses", v.out
    assert error_code(a2a("approve", a.id, "--json", cwd=repo)) == "store_tampered"
    assert a2a("store", "rebuild", cwd=repo).code == 0
    assert rows(repo, "SELECT approval_id FROM approval_uses") == [{"approval_id": "A-1"}]
    assert a2a("store", "verify", "--json", cwd=repo).json["intact"] is True


def test_every_review_event_that_changes_a_table_has_a_handler():
    # The kinds the review code appends with a table write beside them.
    written = {"review_requested", "review_started", "review_launch_failed", "reviewed",
               "review_disposition", "review_overridden", "integration_approved",
               "approval_consumed"}
    assert written <= set(ledger.HANDLERS)
    assert {t.name for t in ledger.TABLES} >= set(REVIEW_TABLES)
