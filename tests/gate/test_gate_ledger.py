"""The log decides (issue 11, finding 7): the gate's tables are a cache of the append-only event
log, which carries a hash chain. A worker that rewrites rows through the store's relative path,
or an edited event, freezes the gate instead of moving the target; the user repairs it.

Everything runs through the real CLI on a real repository; the tampering is done the way an
agent with a shell would: sqlite3 on `.a2a/a2a.db`.
"""

from __future__ import annotations

from pathlib import Path

from a2a_tui.gate import ledger
from a2a_tui.store import Store
from tests.gate.gate_support import sqlite_outside as _sql
from tests.support import a2a, add_ready_card, commit_in, events, git, rows

SCORES = ("--score", "boundary=3:ok", "--score", "taste=2:ok")


def _rejected(repo: Path) -> tuple[str, str]:
    """An attempt whose candidate was rejected (it edits a path outside allowed_paths)."""
    add_ready_card(repo)
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees" / c["attempt"], {"docs/outside.md": "no\n"})
    assert a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
               str(c["fence"]), cwd=repo).code == 0
    v = a2a("verify", c["attempt"], "--json", cwd=repo)
    assert v.code == 1 and not v.json["passed"], v.out
    return c["attempt"], sha


def test_rewritten_rows_of_a_rejected_attempt_do_not_integrate_they_freeze_the_gate(repo):
    attempt, sha = _rejected(repo)
    main = git(repo, "rev-parse", "main")
    _sql(repo,
         f"UPDATE check_results SET passed = 1 WHERE attempt_id = '{attempt}'",
         f"UPDATE verifications SET state = 'passed' WHERE attempt_id = '{attempt}'",
         f"UPDATE attempts SET state = 'verified', rejections = 0 WHERE id = '{attempt}'")

    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert r.code == 1 and r.json["error"]["code"] == "store_tampered", r.out
    assert "first bad seq #" in r.json["error"]["message"]
    assert git(repo, "rev-parse", "main") == main            # main not moved
    assert not events(repo, "integration_intent", "integrated")
    (frozen,) = events(repo, "store_tampered")
    assert frozen.payload["what"] == "projection" and frozen.payload["table"] in (
        "attempts", "verifications", "check_results")
    item = rows(repo, "SELECT * FROM board_items WHERE kind = 'finding'")
    assert [(i["protected"], i["blocking"]) for i in item] == [(1, 1)]
    # Frozen: reads work, every gate write refuses, naming the same seq; recorded once.
    st = a2a("status", "--json", cwd=repo)
    assert st.code == 0 and st.json["frozen"]["seq"] == frozen.payload["seq"]
    for args in (("abandon", attempt, *SCORES), ("claim", "T-1", "--supersede"),
                 ("verify", attempt), ("integrate", attempt, *SCORES)):
        again = a2a(*args, "--json", cwd=repo)
        assert again.json["error"]["code"] == "store_tampered", (args, again.out)
    assert len(events(repo, "store_tampered")) == 1

    # The user repairs it: the tables are written again from the log, where it was rejected.
    fixed = a2a("store", "rebuild", "--json", cwd=repo)
    assert fixed.code == 0 and fixed.json["repaired"], fixed.out
    assert rows(repo, "SELECT state FROM attempts")[0]["state"] == "rejected"
    assert a2a("store", "verify", "--json", cwd=repo).json["intact"] is True
    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert r.json["error"]["code"] == "not_verified", r.out
    assert git(repo, "rev-parse", "main") == main


def test_a_submit_reads_the_log_not_a_rewritten_fence(repo):
    add_ready_card(repo)
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees" / c["attempt"], {"src/app.py": "v = 2\n"})
    # A stale writer makes its old fence current again in the tables.
    _sql(repo, "UPDATE cards SET fence = 7", "UPDATE attempts SET fence = 7")
    r = a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence", "7",
            "--json", cwd=repo)
    assert r.code == 1 and r.json["error"]["code"] == "store_tampered", r.out
    assert not events(repo, "submitted")


def _edit_event(repo: Path, seq: int, payload: str) -> None:
    # Past the append-only triggers, as a determined agent would go.
    _sql(repo, "DROP TRIGGER events_no_update",
         f"UPDATE events SET payload = '{payload}' WHERE seq = {seq}")


def test_an_edited_event_is_found_on_open_naming_its_seq(repo):
    add_ready_card(repo)
    (ready,) = events(repo, "card_ready")
    _edit_event(repo, ready.seq, '{"version":1,"digest":"sha256:forged"}')

    st = a2a("status", "--json", cwd=repo)                    # any command opens the store
    assert st.code == 0 and st.json["frozen"]["seq"] == ready.seq, st.out
    (frozen,) = events(repo, "store_tampered")
    assert frozen.payload["what"] == "chain" and f"event #{ready.seq}" in frozen.payload["why"]
    r = a2a("claim", "T-1", "--json", cwd=repo)
    assert r.json["error"]["code"] == "store_tampered", r.out
    assert f"#{ready.seq}" in r.json["error"]["message"]
    # A rebuild cannot repair the log itself; a person looks, then reseals.
    rb = a2a("store", "rebuild", "--json", cwd=repo)
    assert rb.json["error"]["code"] == "chain_broken", rb.out
    rs = a2a("store", "reseal", "--reason", "I changed nothing that matters", "--json", cwd=repo)
    assert rs.code == 0 and rs.json["from_seq"] == ready.seq, rs.out
    assert rows(repo, "SELECT kind FROM user_inputs") == [{"kind": "action"}]
    assert a2a("store", "verify", "--json", cwd=repo).json["intact"] is True
    assert a2a("claim", "T-1", "--json", cwd=repo).code == 0


def test_an_edit_before_the_checkpoint_is_found_by_the_full_check(repo, monkeypatch):
    add_ready_card(repo)
    (ready,) = events(repo, "card_ready")
    # The checkpoint moves past every event (as it does every CHECKPOINT_EVERY events).
    with Store(repo / ".a2a/a2a.db") as s, s.write() as tx:
        last, h = s.conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC").fetchone()
        tx.execute("INSERT INTO chain_checkpoint(id, seq, hash) VALUES (1, ?, ?)", (last, h))
    _edit_event(repo, ready.seq, '{"version":1,"digest":"sha256:forged"}')
    assert a2a("status", "--json", cwd=repo).json["frozen"] is None   # the open looks past it
    v = a2a("store", "verify", "--json", cwd=repo)
    assert v.code == 1 and v.json["seq"] == ready.seq and v.json["what"] == "chain", v.out
    assert a2a("claim", "T-1", "--json", cwd=repo).json["error"]["code"] == "store_tampered"


GATE_TABLES = [t.name for t in ledger.CHECKED]
# What the log does not hold (gate/ledger/__init__.py): a table made again from it alone lacks it.
NOT_IN_LOG = {"attempts": ("claimed_ns", "ended_ns"),
              "check_results": ("duration_s", "stdout_tail", "stderr_tail")}


def _dump(repo: Path, *, drop_not_in_log: bool = False) -> dict[str, list[dict]]:
    out = {}
    for t in GATE_TABLES:
        got = rows(repo, f"SELECT * FROM {t} ORDER BY rowid")
        if drop_not_in_log:
            got = [{k: v for k, v in r.items() if k not in NOT_IN_LOG.get(t, ())} for r in got]
        out[t] = got
    return out


def _history(repo: Path) -> None:
    """A rejected attempt, superseded; a second one verified, reviewed-free, integrated; a
    third card claimed and abandoned."""
    attempt, _ = _rejected(repo)
    c2 = a2a("claim", "T-1", "--supersede", "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees" / c2["attempt"], {"src/app.py": "v = 3\n"})
    assert a2a("submit", c2["attempt"], "--sha", sha, "--card-version", "1", "--fence",
               str(c2["fence"]), cwd=repo).code == 0
    assert a2a("verify", c2["attempt"], cwd=repo).code == 0
    assert a2a("integrate", c2["attempt"], *SCORES, cwd=repo).code == 0
    add_ready_card(repo, "T-2")
    c3 = a2a("claim", "T-2", "--json", cwd=repo).json
    assert a2a("abandon", c3["attempt"], *SCORES, cwd=repo).code == 0
    assert a2a("reclaim", cwd=repo).code == 0


def test_deleting_the_gate_tables_and_rebuilding_gives_the_same_state(repo):
    _history(repo)
    before = _dump(repo)
    _sql(repo, *(f"DROP TABLE {t}" for t in GATE_TABLES))
    st = a2a("status", "--json", cwd=repo)                    # gone at open: rebuilt
    assert st.code == 0, st.err
    assert _dump(repo, drop_not_in_log=True) == {
        t: [{k: v for k, v in r.items() if k not in NOT_IN_LOG.get(t, ())} for r in rs]
        for t, rs in before.items()}
    (rebuilt,) = events(repo, "projections_rebuilt")
    assert "missing tables" in rebuilt.payload["reason"]
    # The log's times stand in for the writer's clock, within the moment of the write.
    for old, new in zip(before["attempts"], _dump(repo)["attempts"], strict=True):
        assert abs(old["claimed_ns"] - new["claimed_ns"]) < 10**9
    # A rebuild over tables that agree changes nothing, not even what the log lacks.
    now = _dump(repo)
    assert a2a("store", "rebuild", cwd=repo).code == 0
    assert _dump(repo) == now
    assert a2a("store", "verify", "--json", cwd=repo).json["intact"] is True


def test_every_gate_table_is_what_the_fold_of_the_log_gives(repo):
    # The fold is checked against the tables the gate wrote over a whole history.
    _history(repo)
    with Store(repo / ".a2a/a2a.db") as s:
        assert ledger.compare(s, ledger.load(s)) is None
        assert all(ledger.load(s).rows[t] for t in ("cards", "attempts", "check_results",
                                                     "integrations", "scores"))


def test_an_old_event_of_the_card_edited_behind_the_checkpoint_does_not_integrate(repo):
    """A cheat that edits the card's own `rejected` event into `verified`, rewrites the rows to
    agree, and moves the checkpoint past it (so the open sees nothing new to check): integrate
    checks every link of the card's events wherever they sit, and freezes the gate."""
    attempt, _sha = _rejected(repo)
    main = git(repo, "rev-parse", "main")
    (rejected,) = events(repo, "rejected")
    _sql(repo,
         "DROP TRIGGER IF EXISTS events_no_update",
         f"UPDATE events SET kind = 'verified', payload = replace(payload, '\"passed\":false',"
         f" '\"passed\":true') WHERE seq = {rejected.seq}",
         f"UPDATE check_results SET passed = 1 WHERE attempt_id = '{attempt}'",
         f"UPDATE verifications SET state = 'passed' WHERE attempt_id = '{attempt}'",
         f"UPDATE attempts SET state = 'verified', rejections = 0 WHERE id = '{attempt}'",
         "INSERT INTO chain_checkpoint(id, seq, hash) SELECT 1, seq, hash FROM events"
         " WHERE seq = (SELECT MAX(seq) FROM events)"
         " ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash")

    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert r.code == 1 and r.json["error"]["code"] == "store_tampered", r.out
    assert f"#{rejected.seq}" in r.json["error"]["message"]
    assert git(repo, "rev-parse", "main") == main
