"""Recovery, the store's half (issue 40): a page of the store damaged on the disk is found
before anything is written to it, and a backup a2a took by itself puts it back in one command."""

from __future__ import annotations

from tests.scenarios.switches import scenario
from tests.store.store_support import chain
from tests.store.test_store_pages import damage, digest, fill
from tests.support import a2a, add_ready_card, wait_until
from tests.support.userconfig import write_user_config


@scenario("store_pages_checked")
def test_a_damaged_page_is_refused_before_anything_is_written(world, repo):
    fill(repo)
    db = repo / ".a2a/a2a.db"
    damage(db)
    before = digest(db)
    r = a2a("status", "--json", cwd=repo)
    assert r.code != 0 and r.json["error"]["code"] == "store_corrupt", r.out
    assert digest(db) == before


@scenario("rolling_backups")
def test_a_store_damaged_while_a2a_was_stopped_is_restored_from_its_own_backup(world, repo):
    write_user_config(world, "[backup]\nevery_min = 0.01\nkeep = 2\n")
    fill(repo)
    served = world.serve()
    add_ready_card(repo, "T-1")
    seq = a2a("status", "--json", cwd=repo).json["last_event"]
    wait_until(lambda: [e for e in world.events("store_backed_up")
                        if e.payload["last_seq"] >= seq], timeout=20,
               what=f"a backup holding #{seq}")
    assert served.stop() == 0
    db = repo / ".a2a/a2a.db"
    up_to = chain(db)[:seq]
    damage(db)
    r = a2a("store", "restore", "--json", cwd=repo)
    assert r.code == 0, r.err
    assert chain(db)[:seq] == up_to
    assert {c["id"] for c in a2a("status", "--json", cwd=repo).json["cards"]} == {"T-1"}
