"""Store migrations: a database made before numbered migrations is adopted and upgraded; a new
store is migrated once however many processes open it; a store newer than the code is refused.

`data/schema_before_migrations.sql` is a frozen copy of the schema text main's Store ran before
migrations existed (store/schema/*.sql joined by newlines); its checksum was the user_version.
Never edit it: it stands for databases that exist.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

import pytest

from a2a_tui.errors import A2AError
from a2a_tui.store import Store, chain, migrate
from tests.support import a2a

FROZEN = (Path(__file__).with_name("data") / "schema_before_migrations.sql").read_text("utf-8")
LAST_WRITE_COLUMN = ("    last_write_ns   INTEGER,                   -- when we last began writing"
                     " to the pane\n")


def legacy_store(path: Path, schema: str = FROZEN) -> None:
    """A database as main's Store left it before migrations: WAL, the schema text run as it is,
    user_version = the checksum of today's schema text."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.executescript(f"BEGIN IMMEDIATE;\n{schema}\nCOMMIT;")
    conn.execute(f"PRAGMA user_version = {zlib.crc32(FROZEN.encode()) & 0x7FFFFFFF}")
    conn.executescript("""
        INSERT INTO events(ts_ns, kind, actor, session, payload)
            VALUES (1, 'initialized', 'user', NULL, '{}'),
                   (2, 'session_launching', 'user', 'w1', '{"role":"worker"}'),
                   (3, 'dispatch_queued', 'user', 'w1', '{"n":1}');
        INSERT INTO counters(name, value) VALUES ('dispatch', 1);
        INSERT INTO sessions(id, role, cli, cwd, state, state_since_ns, launch_seq, created_ns)
            VALUES ('w1', 'worker', 'demo', '/tmp', 'busy', 2, 2, 2);
        INSERT INTO dispatches(n, session, text, source, actor, state, queued_ns, queued_seq)
            VALUES (1, 'w1', 'hello', 'user', 'user', 'sending', 3, 3);
        """)
    conn.close()


def dump(path: Path) -> dict[str, list[tuple]]:
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                             " AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in tables}
    finally:
        conn.close()


def master(conn: sqlite3.Connection) -> list[tuple]:
    return conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"
                        ).fetchall()


def user_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def test_the_frozen_schema_carries_the_checksum_main_wrote():
    assert zlib.crc32(FROZEN.encode()) & 0x7FFFFFFF == migrate.LEGACY_CHECKSUM
    assert LAST_WRITE_COLUMN in FROZEN


def test_migration_1_is_the_schema_before_migrations_exactly():
    before, baseline = sqlite3.connect(":memory:"), sqlite3.connect(":memory:")
    before.executescript(FROZEN)
    migrate.migrations()[0].apply(baseline)
    assert master(baseline) == master(before)
    assert len(master(before)) > 40


def test_a_new_store_runs_every_migration(tmp_path):
    s = Store(tmp_path / "a2a.db")
    assert s.schema_version == len(migrate.migrations()) >= 2
    assert "index dispatches_state" in migrate.schema_objects(s.conn)


def test_a_store_made_before_migrations_is_adopted_and_upgraded(tmp_path):
    path = tmp_path / "a2a.db"
    legacy_store(path)
    rows = dump(path)
    assert "index dispatches_state" not in migrate.schema_objects(sqlite3.connect(path))

    s = Store(path)
    assert s.schema_version == len(migrate.migrations())
    assert "index dispatches_state" in migrate.schema_objects(s.conn)
    plan = s.all("EXPLAIN QUERY PLAN SELECT n, session FROM dispatches WHERE state = 'sending'")
    assert "dispatches_state" in " ".join(r["detail"] for r in plan)
    after = dump(path)
    # Migration 4 chains the old events (a hash column, a checkpoint table); later migrations
    # add tables (empty) and columns (after the old ones); no old row moves.
    assert [e[:-1] for e in after.pop("events")] == rows.pop("events")
    for table, old in rows.items():
        assert len(after[table]) == len(old), table
        assert [new[:len(o)] for new, o in zip(after[table], old, strict=True)] == old, table
    assert not any(after[t] for t in after.keys() - rows.keys())
    assert chain.check(s.conn) is None
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        s.conn.execute("UPDATE events SET kind = 'changed' WHERE seq = 1")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        s.conn.execute("DELETE FROM events")
    with s.write() as tx:  # and the store works: the next event follows the old ones
        assert tx.append("after", actor="user") == 4
    assert chain.check(s.conn) is None
    with pytest.raises(sqlite3.IntegrityError, match="needs its hash"):
        s.conn.execute("INSERT INTO events(ts_ns, kind, actor) VALUES (5, 'raw', 'user')")
    s.close()
    assert Store(path).schema_version == len(migrate.migrations())  # opened again: nothing to do


def test_a_store_stamped_back_by_an_a2a_from_before_migrations_opens_again(tmp_path):
    # An a2a from before migrations, still running, opens the upgraded store: it runs its schema
    # text (IF NOT EXISTS) and writes its checksum back. The next open adopts it once more.
    path = tmp_path / "a2a.db"
    Store(path).close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(FROZEN)
    conn.execute(f"PRAGMA user_version = {migrate.LEGACY_CHECKSUM}")
    conn.close()
    assert Store(path).schema_version == len(migrate.migrations())


def test_a_pre_migration_store_lacking_a_column_is_refused_untouched(tmp_path):
    # A store made before `sessions.last_write_ns` existed, then stamped with today's checksum by
    # main's CREATE ... IF NOT EXISTS: the column never arrived.
    path = tmp_path / "a2a.db"
    legacy_store(path, FROZEN.replace(LAST_WRITE_COLUMN, ""))
    rows = dump(path)
    with pytest.raises(A2AError) as err:
        Store(path)
    assert err.value.code == "store_unrecognised"
    assert "column sessions.last_write_ns" in err.value.message
    assert user_version(path) == migrate.LEGACY_CHECKSUM and dump(path) == rows


def test_a_store_newer_than_the_code_is_refused(repo):
    db = repo / ".a2a" / "a2a.db"
    newer = len(migrate.migrations()) + 1
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {newer}")
    conn.close()
    with pytest.raises(A2AError) as err:
        Store(db)
    assert err.value.code == "store_too_new"

    res = a2a("status", "--json", cwd=repo)
    assert res.code != 0 and res.json["error"]["code"] == "store_too_new"
    res = a2a("status", cwd=repo)
    assert res.code != 0 and res.out == "" and len(res.err.strip().splitlines()) == 1
    assert "newer than this a2a" in res.err
    assert user_version(db) == newer


def test_a_checksum_from_an_older_schema_is_not_taken_for_a_newer_store(tmp_path):
    path = tmp_path / "a2a.db"
    legacy_store(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 123456789")
    conn.close()
    with pytest.raises(A2AError) as err:
        Store(path)
    assert err.value.code == "store_unrecognised"


def with_extra(tmp_path: Path, name: str, text: str) -> Path:
    """The package's migrations plus one more."""
    d = tmp_path / "migrations"
    d.mkdir()
    for m in migrate.migrations():
        shutil.copy(m.path, d / m.path.name)
    (d / name).write_text(textwrap.dedent(text))
    return d


def test_a_failing_migration_leaves_the_store_at_its_old_version_whole(tmp_path):
    s = Store(tmp_path / "a2a.db")
    before = len(migrate.migrations())
    d = with_extra(tmp_path, f"{before + 1:04d}_broken.sql",
                   "CREATE TABLE half (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n")
    with pytest.raises(sqlite3.OperationalError, match="no_such_table"):
        migrate.upgrade(s, d)
    assert s.schema_version == before
    assert "table half" not in migrate.schema_objects(s.conn)
    assert not s.conn.in_transaction


def test_migrations_are_numbered_densely(tmp_path):
    for names in (["0001_a.sql", "0003_c.sql"], ["0001_a.sql", "0001_b.py"], ["001_a.sql"]):
        d = tmp_path / "-".join(names)
        d.mkdir()
        for n in names:
            (d / n).write_text("SELECT 1;\n")
        with pytest.raises(A2AError) as err:
            migrate.migrations(d)
        assert err.value.code == "bad_migrations", names


CHILD = """
import sys, time
from pathlib import Path
from a2a_tui.store import Store, chain, migrate
migrate.MIGRATIONS_DIR = Path(sys.argv[2])
go = Path(sys.argv[3])
while not go.exists():
    time.sleep(0.001)
s = Store(sys.argv[1])
print(s.schema_version, s.one("SELECT value FROM counters WHERE name = 'migrated'")[0])
"""


def test_processes_opening_a_new_store_at_once_migrate_it_once(tmp_path):
    """The last migration holds the write lock a while, so every other process reads version 0
    before it commits; each must find the work done once it gets the lock (re-check under it),
    not run the migrations again (a second CREATE INDEX would fail, the counter would pass 1)."""
    newest = len(migrate.migrations()) + 1
    d = with_extra(tmp_path, f"{newest:04d}_count.py", """
        import time

        def migrate(tx):
            time.sleep(0.5)  # hold the lock while the others read the version
            tx.execute("INSERT INTO counters(name, value) VALUES ('migrated', 1)"
                       " ON CONFLICT(name) DO UPDATE SET value = value + 1")
        """)
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path / "a2a.db"), str(d),
                               str(go)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(4)]
    try:
        go.touch()
        outs = [p.communicate(timeout=60) for p in procs]
    finally:
        for p in procs:
            p.kill()
    assert [p.returncode for p in procs] == [0] * 4, [err for _, err in outs]
    assert [out.split() for out, _ in outs] == [[str(newest), "1"]] * 4


def at_version(path: Path, n: int) -> sqlite3.Connection:
    """A new database with migrations 1..n applied, in an open transaction (the caller adds
    rows, then commits)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    for m in migrate.migrations()[:n]:
        m.apply(conn)
    conn.execute(f"PRAGMA user_version = {n}")
    return conn


def test_migration_6_keeps_old_reviews_and_may_run_again(tmp_path):
    """Reviews made before reports: their rows keep their values, their id becomes their
    event's seq, the new columns take their defaults, and a second run (after an old a2a stamps
    its checksum back) changes nothing."""
    path = tmp_path / "a2a.db"
    conn = at_version(path, 5)
    # Two old reviews whose ids were numbered apart from their seqs (one id is the other's seq).
    for rid, seq in ((5, 7), (1, 5)):
        conn.execute("INSERT INTO reviews(id, attempt_id, submission_n, sha, session, verdict,"
                     " notes, seq) VALUES (?, 'T-1-a1', 1, ?, 'r1', 'block', 'no tests', ?)",
                     (rid, "a" * 40, seq))
    conn.execute("COMMIT")
    conn.close()
    s = Store(path)
    assert s.schema_version >= 6
    assert [(r["id"], r["seq"]) for r in s.all("SELECT id, seq FROM reviews ORDER BY seq")] == [
        (5, 5), (7, 7)]
    old = dict(s.one("SELECT * FROM reviews WHERE seq = 5"))
    assert (old["verdict"], old["notes"], old["run_id"], old["risks"], old["follow_up"]) == (
        "block", "no tests", None, "[]", 0)
    for table in ("review_runs", "review_issues", "review_dispositions", "review_overrides",
                  "approvals", "approval_uses"):
        assert f"table {table}" in migrate.schema_objects(s.conn)
    with s.write() as tx:
        migrate.migrations()[5].apply(tx)
    assert dict(s.one("SELECT * FROM reviews WHERE seq = 5")) == old
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        s.conn.execute("UPDATE reviews SET verdict = 'pass'")
    s.close()


def test_migration_13_adds_test_reports_beside_older_verify_results(tmp_path):
    """A store from before per-test evidence: its check results stay, the test_reports table
    (append-only) is added, and running the migration again changes nothing."""
    path = tmp_path / "a2a.db"
    conn = at_version(path, 7)
    conn.execute("INSERT INTO check_results(attempt_id, submission_n, run, sha, card_version,"
                 " name, kind, blocking, passed, seq) VALUES ('T-1-a1', 1, 1, ?, 1, 'tests',"
                 " 'command', 1, 1, 9)", ("a" * 40,))
    conn.execute("COMMIT")
    conn.close()
    s = Store(path)
    assert s.schema_version >= 13
    assert [r["name"] for r in s.all("SELECT name FROM check_results")] == ["tests"]
    assert "index test_reports_commit" in migrate.schema_objects(s.conn)
    with s.write() as tx:
        tx.execute("INSERT INTO test_reports(seq, attempt_id, run, sha, check_name, fingerprint,"
                   " source, runner, counts) VALUES (10, 'T-1-a1', 1, ?, 'tests', 'sha256:x',"
                   " 'base', 'pytest', '{}')", ("a" * 40,))
        migrate.migrations()[12].apply(tx)
    assert s.one("SELECT COUNT(*) FROM test_reports")[0] == 1
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        s.conn.execute("UPDATE test_reports SET source = 'candidate'")
    s.close()


def test_migration_14_gives_old_approvals_no_expiry_and_may_run_again(tmp_path):
    """A store from before the seeds' rules: its approvals keep their values with no expiry nor
    target (NULL: they do not expire), its attempts follow none, the revocations table
    (append-only) is added, and running the migration again changes nothing."""
    path = tmp_path / "a2a.db"
    conn = at_version(path, 13)
    conn.execute("INSERT INTO approvals(id, attempt_id, submission_n, sha, card_version,"
                 " evidence, user_input, seq) VALUES ('A-1', 'T-1-a1', 1, ?, 1, 'sha256:e',"
                 " 'U-1', 9)", ("a" * 40,))
    conn.execute("COMMIT")
    conn.close()
    s = Store(path)
    assert s.schema_version >= 14
    old = dict(s.one("SELECT * FROM approvals"))
    assert (old["evidence"], old["expires_ns"], old["target_branch"]) == ("sha256:e", None, None)
    assert "table approval_revocations" in migrate.schema_objects(s.conn)
    with s.write() as tx:
        migrate.migrations()[13].apply(tx)
    assert dict(s.one("SELECT * FROM approvals")) == old
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        s.conn.execute("INSERT INTO approval_revocations VALUES ('A-1', 'T-1-a1', '', 'U-2', 10)")
        s.conn.execute("DELETE FROM approval_revocations")
    s.close()
