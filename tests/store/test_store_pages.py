"""A damaged page in the store (a real SQLite file with 4 KiB overwritten in the middle, nothing
running) is found by SQLite's own check before anything reads on or writes: `a2a store verify`,
`a2a status`, `a2a card add`, `a2a serve`, `a2a up` and the workbench refuse it in one line
(`store_corrupt`) with the way out, and the file is left byte for byte as it was. (issue 40)"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

from a2a_tui.payloads.sessions import Signal
from a2a_tui.repo import Repo
from a2a_tui.store import pages
from tests.support import write_card

PAGE = 4096


def fill(repo: Path, events: int = 3000) -> int:
    """Append `events` events (the store grows to a few hundred pages); its last seq."""
    with Repo(repo).store() as store:
        with store.write() as tx:
            for i in range(events):
                tx.append("signal", actor="session:w1", session="w1",
                          payload=Signal(event="PostToolUse", raw={"n": i, "tool": "Bash" * 8}))
        return store.last_seq()


def damage(db: Path) -> None:
    """Fold the write-ahead log in (as a2a's last close does), then overwrite the 4 KiB page in
    the middle of the file: what SQLite's own check must then report."""
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    size = db.stat().st_size
    with open(db, "r+b") as f:
        f.seek((size // PAGE // 2) * PAGE)
        f.write(b"\xa5" * PAGE)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:   # SQLite reports the page, or fails the check on it
        assert conn.execute("PRAGMA quick_check").fetchone()[0] != "ok"
    except sqlite3.DatabaseError as exc:
        assert "malformed" in str(exc)
    finally:
        conn.close()


def digest(db: Path) -> tuple[str, bool]:
    wal = db.with_name(db.name + "-wal")
    return hashlib.sha256(db.read_bytes()).hexdigest(), wal.exists() and wal.stat().st_size > 0


def refused(r) -> str:
    assert r.code != 0, r.out + r.err
    line = r.err.strip()
    assert line.count("\n") == 0 and line.endswith("[store_corrupt]"), r.err
    return line


def test_a_damaged_page_is_refused_by_verify_status_card_add_and_serve(world, repo):
    fill(repo)
    db = repo / ".a2a/a2a.db"
    damage(db)
    before = digest(db)
    card = write_card(repo, "T-1")
    refused(world.a2a("status"))
    refused(world.a2a("card", "add", str(card)))
    refused(world.a2a("serve", "--tmux-socket", world.sock, timeout=60))
    refused(world.a2a("up", "--no-attach", "--tmux-socket", world.sock, timeout=60))
    refused(world.a2a("workbench", "--no-orchestrator", timeout=60))   # before its first frame
    line = refused(world.a2a("store", "verify"))
    assert "No good backup" in line and ".recover" in line   # the way out, with no backup
    v = world.a2a("store", "verify", "--json")
    assert v.code != 0 and v.json["error"]["code"] == "store_corrupt"
    assert digest(db) == before   # nothing was written to it


def test_a_damaged_page_names_the_newest_good_backup_and_its_command(world, repo):
    last = fill(repo)
    backups = repo / ".a2a" / pages.BACKUPS_DIR
    older = backups / pages.backup_name(1_700_000_000, 3)
    newest = backups / pages.backup_name(1_800_000_000, last)
    bad = backups / pages.backup_name(1_900_000_000, last + 5)   # newer, but damaged itself
    for target in (older, newest):
        assert world.a2a("store", "backup", str(target)).code == 0
    bad.write_bytes(b"not a database" * 100)
    damage(repo / ".a2a/a2a.db")
    line = refused(world.a2a("status"))
    assert f"newest good backup is {newest}" in line, line
    assert f"#{last}" in line and "`a2a store restore`" in line


def test_an_unchanged_file_is_not_checked_again_and_a_changed_one_is(repo, monkeypatch):
    """The quick check runs on an open only when the database file changed since the last one
    that passed (its stamp): a change by hand is always looked at."""
    fill(repo, 50)
    ran: list[bool] = []
    real = pages.damage
    monkeypatch.setattr(pages, "damage", lambda conn, **kw: ran.append(True) or real(conn, **kw))
    db = repo / ".a2a/a2a.db"
    Repo(repo).store().close()   # the close folds the log in: the file changed
    ran.clear()
    Repo(repo).store().close()
    assert ran == []
    damage(db)
    try:
        Repo(repo).store().close()
    except Exception as exc:   # noqa: BLE001 - the code is what is asserted
        assert getattr(exc, "code", None) == "store_corrupt"
    else:
        raise AssertionError("a damaged store was opened")
    assert ran == [True]


def test_verify_runs_sqlites_full_check_even_on_a_file_that_looks_unchanged(world, repo):
    """A page damaged without the file's size or time changing (the disk's own fault): the
    opens' quick check is skipped by its stamp, `a2a store verify` still finds it."""
    fill(repo)
    db = repo / ".a2a/a2a.db"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    assert world.a2a("status").code == 0   # checked and stamped as it is now
    st = db.stat()
    damage(db)
    os.utime(db, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert pages.stamp(db) == (db.with_name(db.name + pages.STAMP_SUFFIX)
                               .read_text().strip())
    line = refused(world.a2a("store", "verify"))
    assert "integrity" in line or "damaged" in line
