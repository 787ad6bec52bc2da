"""Ids sort as people read them (T-2 before T-16), in Python and in SQL, and a card's status
follows its attempts (an integrated card lists as integrated, not ready)."""

from __future__ import annotations

import sqlite3

from a2a_tui.ids import collate, natural_key
from tests.support import a2a, add_ready_card, commit_in


def test_natural_key_orders_numbers_by_value():
    ids = ["T-16", "T-2", "w10", "T-1", "w9", "T-10", "t-3", "T-2b", "idea1"]
    assert sorted(ids, key=natural_key) == ["idea1", "T-1", "T-2", "T-2b", "t-3", "T-10",
                                            "T-16", "w9", "w10"]
    conn = sqlite3.connect(":memory:")
    conn.create_collation("natural_ids", collate)
    conn.execute("CREATE TABLE t(id TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [(i,) for i in ids])
    got = conn.execute("SELECT id FROM t ORDER BY id COLLATE natural_ids").fetchall()
    assert [r[0] for r in got] == sorted(ids, key=natural_key)


def test_card_list_and_status_in_natural_order_with_the_status_of_the_attempts(repo):
    for card in ("T-16", "T-2", "T-10"):
        add_ready_card(repo, card)
    c = a2a("claim", "T-2", "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees" / c["attempt"], {"src/app.py": "v = 2\n"})
    assert a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
               str(c["fence"]), cwd=repo).code == 0
    assert a2a("claim", "T-10", cwd=repo).code == 0
    cards = a2a("card", "list", "--json", cwd=repo).json
    assert [(x["id"], x["status"]) for x in cards] == [
        ("T-2", "in progress"), ("T-10", "in progress"), ("T-16", "ready")]
    assert a2a("verify", c["attempt"], cwd=repo).code == 0
    r = a2a("integrate", c["attempt"], "--score", "boundary=3:ok", "--score", "taste=2:ok",
            cwd=repo)
    assert r.code == 0, r.out + r.err
    text = a2a("card", "list", cwd=repo).out.splitlines()
    assert [line.split()[0] for line in text] == ["T-2", "T-10", "T-16"]
    assert text[0].split()[2] == "integrated"
    status = a2a("status", "--json", cwd=repo).json
    assert [(x["id"], x["status"]) for x in status["cards"]] == [
        ("T-2", "integrated"), ("T-10", "in progress"), ("T-16", "ready")]
