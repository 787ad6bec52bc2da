"""A store knows whose it is, and a2a refuses one that is not this repository's.

The store records its id and the repository it was made for; the repository records, in its git
directory (outside the store and outside every agent's reach), the id of its store and how far
its record has reached. Every a2a process checks the pair when it opens the store; a running
`a2a serve` notices its file replaced or deleted and stops writing, loudly. A store is made by
`a2a init` alone: a missing one is `store_missing`, never silently a new empty one; one moved
aside without its write-ahead log is refused until it is back, and nothing acknowledged is lost.
"""

from __future__ import annotations

import os
import shutil
import sqlite3

import pytest

from a2a_tui import identity
from a2a_tui.errors import A2AError
from a2a_tui.payloads.record import Initialized
from a2a_tui.queue import wake
from a2a_tui.repo import Repo
from a2a_tui.store import Store
from tests.store.store_support import chain as _chain
from tests.support import add_ready_card, make_repo, wait_until, write_card

DB_FILES = ("a2a.db", "a2a.db-wal", "a2a.db-shm")


def _refused(r, code: str) -> str:
    assert r.code != 0, r.out
    assert "Traceback" not in r.err, r.err
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and lines[-1].endswith(f"[{code}]"), r.err
    return lines[0]


def _other_repo(world, tmp_path) -> tuple:
    """A second repository with a2a initialised and a card in its record; (root, its db)."""
    other = make_repo(tmp_path / "other", env=world.env)
    assert world.a2a("init", cwd=other).code == 0
    assert world.a2a("card", "add", str(write_card(other, "O-1")), cwd=other).code == 0
    return other, other / ".a2a/a2a.db"


def _serving(world):
    """`a2a serve`, once it says it serves: its store open, its first cycle done."""
    served = world.serve()
    wait_until(lambda: "serving" in served.output(), timeout=20, what="serve to start")
    return served


def _serve_stops_with(served, code: str, repo) -> None:
    """serve notices by itself (no command needed), says why in one line, exits non-zero."""
    try:
        wait_until(lambda: served.proc.poll() is not None, timeout=20,
                   what="serve to notice and stop")
    except AssertionError:
        wake(Repo(repo))   # say where it hangs: does a cycle see it?
        raise
    assert served.proc.returncode != 0
    assert f"[{code}]" in served.output(), served.output()


def test_a_store_swapped_for_another_repositorys_is_refused_by_every_process(
        world, repo, tmp_path):
    add_ready_card(repo, "T-1")
    other, other_db = _other_repo(world, tmp_path)
    theirs = _chain(other_db)
    served = _serving(world)
    os.replace(other_db, repo / ".a2a/a2a.db")   # while serve runs
    line = _refused(world.a2a("status"), "store_foreign")
    assert str(other) in line and str(repo) in line
    _refused(world.a2a("card", "add", str(write_card(repo, "T-9"))), "store_foreign")
    j = world.a2a("card", "list", "--json")
    assert j.code != 0 and j.json["error"]["code"] == "store_foreign"
    _serve_stops_with(served, "store_replaced", repo)
    # Nobody wrote into the other's record (read alone: serve's own log may be left beside it).
    assert _chain(repo / ".a2a/a2a.db", alone=True) == theirs
    _refused(world.a2a("status"), "store_foreign")


def test_a_store_deleted_under_serve_is_missing_never_recreated(world, repo):
    add_ready_card(repo, "T-1")
    session = Repo(repo).config().tmux_session
    world.tmux("new-session", "-d", "-s", session)
    served = _serving(world)
    db = repo / ".a2a/a2a.db"
    db.unlink()
    line = _refused(world.a2a("status"), "store_missing")
    assert "a2a store restore" in line
    _refused(world.a2a("card", "add", str(write_card(repo, "T-2"))), "store_missing")
    _refused(world.a2a("init"), "store_missing")
    assert not db.exists()
    _serve_stops_with(served, "store_missing", repo)
    assert not db.exists()
    # ... and said where the user looks: the status line of a2a's tmux session.
    shown = world.tmux("show-options", "-v", "-t", session, "@a2a_store").strip()
    assert shown == "orchestrator stopped: store_missing"


def test_a_store_moved_aside_without_its_wal_and_back_loses_nothing(world, repo, tmp_path):
    served = _serving(world)
    for n in range(1, 6):
        add_ready_card(repo, f"T-{n}")
    db = repo / ".a2a/a2a.db"
    recorded = _chain(db)
    assert (repo / ".a2a/a2a.db-wal").exists() and len(recorded) >= 12
    aside = tmp_path / "aside.db"
    shutil.move(db, aside)          # the -wal stays behind, holding the newest events
    line = _refused(world.a2a("card", "add", str(write_card(repo, "T-6"))), "store_missing")
    assert "a2a.db-wal" in line
    _refused(world.a2a("status"), "store_missing")
    assert not db.exists()
    _serve_stops_with(served, "store_missing", repo)
    shutil.move(aside, db)
    v = world.a2a("store", "verify", "--json")
    assert v.code == 0 and v.json["intact"], v.out + v.err
    assert _chain(db)[:len(recorded)] == recorded
    assert world.a2a("card", "add", str(write_card(repo, "T-6"))).code == 0


def test_an_older_copy_put_in_place_is_refused_as_rewound(world, repo, tmp_path):
    add_ready_card(repo, "T-1")
    copy = tmp_path / "copy.db"
    with Store(repo / ".a2a/a2a.db") as s:
        target = sqlite3.connect(copy)
        s.conn.backup(target)
        target.close()
    add_ready_card(repo, "T-2")
    for name in DB_FILES:
        (repo / ".a2a" / name).unlink(missing_ok=True)
    shutil.copy(copy, repo / ".a2a/a2a.db")
    line = _refused(world.a2a("status"), "store_rewound")
    assert "a2a store restore" in line
    _refused(world.a2a("card", "add", str(write_card(repo, "T-3"))), "store_rewound")


def test_only_init_makes_a_store_and_a_new_one_only_when_asked(world, repo):
    db = repo / ".a2a/a2a.db"
    with Store(db) as s:
        old_id = s.one("SELECT json_extract(payload, '$.store_id') FROM events"
                       " WHERE kind = 'initialized'")[0]
    assert old_id
    for name in DB_FILES:
        (repo / ".a2a" / name).unlink(missing_ok=True)
    _refused(world.a2a("status"), "store_missing")
    _refused(world.a2a("say", "hi"), "store_missing")
    assert not db.exists()
    line = _refused(world.a2a("init"), "store_missing")
    assert "--new-store" in line
    assert not db.exists()
    r = world.a2a("init", "--new-store", "--json")
    assert r.code == 0, r.err
    with Store(db) as s:
        (ev,) = s.events(kinds=["initialized"])
    assert ev.payload["store_id"] != old_id and ev.payload["replaces"] == old_id
    assert world.a2a("say", "hi").code == 0


def test_a_foreign_store_is_refused_without_serve_and_left_as_it_was(world, repo, tmp_path):
    other, other_db = _other_repo(world, tmp_path)
    theirs = _chain(other_db)
    for name in DB_FILES:
        (repo / ".a2a" / name).unlink(missing_ok=True)
    shutil.copy(other_db, repo / ".a2a/a2a.db")
    _refused(world.a2a("status"), "store_foreign")
    _refused(world.a2a("card", "add", str(write_card(repo, "T-1"))), "store_foreign")
    _refused(world.a2a("init"), "store_foreign")
    assert _chain(repo / ".a2a/a2a.db") == theirs


def test_a_store_from_before_identities_is_adopted_by_its_repository(world, repo):
    # A record made before stores had an id, and no record of it in the repository.
    for name in DB_FILES:
        (repo / ".a2a" / name).unlink(missing_ok=True)
    (repo / ".git/a2a-store.json").unlink()
    with Store(repo / ".a2a/a2a.db") as s, s.write() as tx:
        tx.append("initialized", actor="user",   # no store_id: made before stores had one
                  payload=Initialized(root=str(repo), target_branch="main",
                                      pid_namespace=identity.pid_namespace()))
    assert world.a2a("card", "add", str(write_card(repo, "T-1"))).code == 0
    with Store(repo / ".a2a/a2a.db") as s:
        (ev,) = s.events(kinds=["store_identified"])
    assert ev.payload["root"] == str(repo)
    assert ev.payload["store_id"] in (repo / ".git/a2a-store.json").read_text()


def test_a_process_holding_the_store_writes_nothing_once_its_file_is_replaced(repo, tmp_path):
    s = Repo(repo).store()
    try:
        aside = tmp_path / "aside.db"
        os.rename(repo / ".a2a/a2a.db", aside)
        with pytest.raises(A2AError) as err, s.write() as tx:
            tx.append("x", actor="user")
        assert err.value.code == "store_missing"
        shutil.copy(aside, repo / ".a2a/a2a.db")   # the same record, but not the file it had
        with pytest.raises(A2AError) as err, s.write() as tx:
            tx.append("x", actor="user")
        assert err.value.code == "store_replaced"
    finally:
        s.close()


def test_a_repository_copied_whole_while_serve_runs_keeps_its_store(world, repo, tmp_path):
    add_ready_card(repo, "T-1")
    served = _serving(world)
    add_ready_card(repo, "T-2")
    assert (repo / ".a2a/a2a.db-wal").stat().st_size > 0   # the log is hot
    copy = tmp_path / "copy"
    shutil.copytree(repo, copy, ignore=shutil.ignore_patterns("worktrees", "*.lock"))
    r = world.a2a("status", "--json", cwd=copy)
    assert r.code == 0, r.err
    assert {c["id"] for c in r.json["cards"]} == {"T-1", "T-2"}
    assert world.a2a("card", "add", str(write_card(copy, "T-3")), cwd=copy).code == 0
    assert served.proc.poll() is None


def test_a_store_closed_twice_notes_its_last_event_once(repo, caplog):
    """`a2a down` of a demo closes the store, removes the repository, and the command's end
    closes the store again: the second close noted the last event of a store that was gone
    and warned, the first line the user read ("could not note the store's last event")."""
    store = Repo(repo).store()
    with store.write() as tx:
        tx.append("test_event", actor="user")
    store.close()
    shutil.rmtree(repo)
    store.close()
    assert not [r for r in caplog.records if "could not note" in r.getMessage()], caplog.text
