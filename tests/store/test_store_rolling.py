"""a2a's own backups of a store (store/rolling.py): taken on a schedule while an orchestrator
runs and before every migration, kept N deep (the user's `[backup]` settings), each checked by
SQLite when taken and recorded; `a2a status` says when the last was taken; a store damaged after
a backup is put back by one command, `a2a store restore`, to every event up to it. (issue 40)"""

from __future__ import annotations

import sqlite3

from a2a_tui.store import Store, migrate, pages
from tests.store.store_support import chain
from tests.store.test_migrations import with_extra
from tests.store.test_store_pages import damage, fill, refused
from tests.support import add_ready_card, wait_until
from tests.support.userconfig import write_user_config


def backed_up(world, at_least: int = 1, after_seq: int = 0) -> list:
    """Wait until the store records `at_least` scheduled backups holding event #after_seq."""
    def found():
        evs = [e for e in world.events("store_backed_up") if e.payload["last_seq"] >= after_seq]
        return evs if len(evs) >= at_least else None
    return wait_until(found, timeout=60, what=f"{at_least} backup(s) up to #{after_seq}")


def test_a_store_damaged_after_a_backup_is_restored_by_one_command(world, repo):
    write_user_config(world, "[backup]\nevery_min = 0.01\nkeep = 3\n")
    fill(repo)
    served = world.serve()
    add_ready_card(repo, "T-1")
    seq = world.a2a("status", "--json").json["last_event"]
    backed_up(world, after_seq=seq)
    assert served.stop() == 0
    good = pages.newest_good(repo / ".a2a/a2a.db")
    assert good is not None and good.last_seq >= seq
    saved = chain(good.path)
    add_ready_card(repo, "T-2")   # after the backup: not in it
    damage(repo / ".a2a/a2a.db")
    line = refused(world.a2a("status"))
    assert f"newest good backup is {good.path}" in line and "`a2a store restore`" in line
    r = world.a2a("store", "restore", "--json")
    assert r.code == 0, r.err
    assert r.json["path"] == str(good.path)
    assert chain(repo / ".a2a/a2a.db")[:len(saved)] == saved   # every event up to the backup
    assert [e.kind for e in world.events()[len(saved):]] == ["store_restored", "user_input"]
    v = world.a2a("store", "verify", "--json")
    assert v.code == 0 and v.json["intact"] and v.json["pages"] == "ok", v.out + v.err
    assert {c["id"] for c in world.a2a("status", "--json").json["cards"]} == {"T-1"}


def test_the_orchestrator_keeps_its_backups_n_deep_each_sound_and_recorded(world, repo):
    write_user_config(world, "[backup]\nevery_min = 0.005\nkeep = 2\n")
    r = world.a2a("status")
    assert r.code == 0 and "last backup: none yet" in r.out, r.out
    served = world.serve()
    evs = backed_up(world, at_least=4)
    assert served.stop() == 0
    db = repo / ".a2a/a2a.db"
    kept = pages.kept(db)
    assert len(kept) == 2 and all(pages.sound(k.path) for k in kept)
    assert {e.payload["why"] for e in evs} == {"schedule"}
    assert all(e.payload["keep"] == 2 and e.payload["bytes"] > 0 for e in evs)
    status = world.a2a("status", "--json")
    assert status.json["last_backup"]["path"] == str(kept[0].path)
    assert f"last backup: {kept[0].taken}Z" in world.a2a("status").out


def test_a_migration_is_preceded_by_a_backup_of_the_store_as_it_was(tmp_path):
    db = tmp_path / "a2a.db"
    with Store(db) as s, s.write() as tx:
        tx.append("note", actor="user", payload={"n": 1})
    before = len(migrate.migrations())
    d = with_extra(tmp_path, f"{before + 1:04d}_more.sql", "CREATE TABLE more (x INTEGER);\n")
    s = Store(db)
    try:
        migrate.upgrade(s, d)
        assert s.schema_version == before + 1
    finally:
        s.close()
    (kept,) = pages.kept(db)
    conn = sqlite3.connect(f"file:{kept.path}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == before
        assert "table more" not in migrate.schema_objects(conn)
    finally:
        conn.close()
    assert chain(kept.path) == chain(db) and kept.last_seq == 1


def test_a_page_damaged_while_the_orchestrator_runs_stops_it_at_the_next_backup(world, repo):
    """The schedule is also the store's regular full check: the next backup's open (or its
    check of the copy) finds the damage, and the orchestrator stops with `store_corrupt`."""
    write_user_config(world, "[backup]\nevery_min = 0.01\nkeep = 2\n")
    fill(repo)
    served = world.serve()
    backed_up(world)
    damage(repo / ".a2a/a2a.db")
    wait_until(lambda: served.proc.poll() is not None, timeout=60,
               what="the orchestrator to stop on the damaged store")
    assert served.proc.returncode != 0
    assert "[store_corrupt]" in served.output(), served.output()
