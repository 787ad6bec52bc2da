"""`a2a store backup PATH` copies the record through SQLite's online backup API (its write-ahead
log included) while `a2a serve` runs and writes; `a2a store restore PATH` puts a backup of this
repository's record back (and refuses another repository's, or while an orchestrator runs)."""

from __future__ import annotations

import threading

from tests.store.store_support import chain as _chain
from tests.support import add_ready_card, register_session, write_card

SCORES = ("--score", "boundary=3:ok", "--score", "taste=2:ok")


def test_backup_of_a_running_repository_and_restore_round_trip(world, repo, tmp_path):
    served = world.serve()
    add_ready_card(repo, "T-1")
    register_session(repo, "w1", "worker")
    stop = threading.Event()

    def keep_writing() -> None:   # the record moves while the backup is taken
        n = 0
        while not stop.is_set():
            n += 1
            assert world.a2a("inject", "w1", f"prompt {n}").code == 0

    writer = threading.Thread(target=keep_writing)
    writer.start()
    try:
        before = _chain(repo / ".a2a/a2a.db")
        backup = tmp_path / "backups" / "a2a-backup.db"
        r = world.a2a("store", "backup", str(backup), "--json")
        after = _chain(repo / ".a2a/a2a.db")
    finally:
        stop.set()
        writer.join()
    assert r.code == 0, r.err
    assert served.proc.poll() is None
    # One file, whole on its own: no write-ahead log beside it.
    assert backup.exists() and not backup.with_name(backup.name + "-wal").exists()
    copied = _chain(backup)
    assert before == copied[:len(before)] and copied == after[:len(copied)]
    assert r.json["events"] == len(copied) and r.json["last_seq"] == copied[-1][0]
    assert r.json["store_id"]
    assert world.a2a("store", "backup", str(backup)).code != 0   # never over a file

    # Restore refuses while an orchestrator runs.
    r = world.a2a("store", "restore", str(backup))
    assert r.code != 0 and r.err.strip().endswith("[orchestrator_running]"), r.err
    assert served.stop() == 0
    add_ready_card(repo, "T-2")
    assert len(_chain(repo / ".a2a/a2a.db")) > len(copied)
    r = world.a2a("store", "restore", str(backup), "--json")
    assert r.code == 0, r.err
    restored = _chain(repo / ".a2a/a2a.db")
    assert restored[:len(copied)] == copied
    assert [e.kind for e in world.events()[len(copied):]] == ["store_restored", "user_input"]
    kept = r.json["previous"]      # the record it replaced is kept, not deleted
    assert len(_chain(kept)) > len(copied)
    v = world.a2a("store", "verify", "--json")
    assert v.code == 0 and v.json["intact"], v.out + v.err
    cards = {c["id"] for c in world.a2a("status", "--json").json["cards"]}
    assert cards == {"T-1"}
    assert world.a2a("card", "add", str(write_card(repo, "T-3"))).code == 0
    served = world.serve()   # and serve runs on the restored record
    assert served.stop() == 0


def test_restore_refuses_another_repositorys_backup(world, repo, tmp_path):
    from tests.support import make_repo

    other = make_repo(tmp_path / "other", env=world.env)
    assert world.a2a("init", cwd=other).code == 0
    backup = tmp_path / "other.db"
    assert world.a2a("store", "backup", str(backup), cwd=other).code == 0
    mine = _chain(repo / ".a2a/a2a.db")
    r = world.a2a("store", "restore", str(backup))
    assert r.code != 0 and r.err.strip().endswith("[store_foreign]"), r.err
    assert _chain(repo / ".a2a/a2a.db") == mine
    r = world.a2a("store", "restore", str(tmp_path / "nothing.db"))
    assert r.code != 0 and len(r.err.strip().splitlines()) == 1, r.err


def test_a_missing_store_is_restored_from_its_backup(world, repo, tmp_path):
    add_ready_card(repo, "T-1")
    backup = tmp_path / "b.db"
    assert world.a2a("store", "backup", str(backup)).code == 0
    for suffix in ("", "-wal", "-shm"):
        (repo / f".a2a/a2a.db{suffix}").unlink(missing_ok=True)
    r = world.a2a("status")
    assert r.code != 0 and r.err.strip().endswith("[store_missing]"), r.err
    r = world.a2a("store", "restore", str(backup), "--json")
    assert r.code == 0, r.err
    assert r.json["previous"] is None
    cards = {c["id"] for c in world.a2a("status", "--json").json["cards"]}
    assert cards == {"T-1"}
    v = world.a2a("store", "verify", "--json")
    assert v.code == 0 and v.json["intact"], v.out + v.err
