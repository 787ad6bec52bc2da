"""Numbered schema migrations: the store's schema changes without losing a database.

The schema is the sum of the files in `a2a_tui/store/migrations/`, `NNNN_what.sql` or
`NNNN_what.py`, numbered densely from 0001. A database's `PRAGMA user_version` is its schema
version: the number of the last migration applied to it. Opening a `Store` brings it up to date:
the pending migrations run in order, in ONE `BEGIN IMMEDIATE` transaction together with the
version bump, so a crash leaves the database at its old version, whole. The version is read
again under the write lock, so when several processes open a new store at once, one migrates
and the others find it done.

A store made before migrations existed carries a checksum of the schema text as its
user_version; the last such checksum (`LEGACY_CHECKSUM`) is adopted as version 1 once its
tables, columns, indexes and triggers are checked against migration 1, then migrated forward.
A store newer than this code is refused (`store_too_new`), never opened half-understood.

How to add a migration
- Add the next number to `a2a_tui/store/migrations/`: `0003_what.sql` holds statements
  (triggers may contain `;` inside BEGIN ... END); `0003_what.py` defines `migrate(tx)` for a
  change SQL alone cannot make (a backfill computed in Python). It runs inside the open write
  transaction: no COMMIT, no VACUUM, no `PRAGMA journal_mode` or `foreign_keys` (both are
  no-ops or errors inside a transaction).
- Never edit a migration that has shipped: a database that ran it will not run it again. Write
  the next one instead. Each runs once per database, with one exception: while an a2a from
  before migrations still runs against the store, it stamps its checksum back and the next open
  adopts the store again and re-runs 2..n; `IF NOT EXISTS` keeps those harmless.
- SQLite's ALTER TABLE adds columns (a NOT NULL one needs a DEFAULT) but changes little else;
  reshaping a table means create-copy-drop-rename, inside the migration. The append-only
  triggers refuse UPDATE and DELETE: a backfill drops the trigger, writes, and creates it again
  in the same migration.
- Add a case to `tests/store/test_migrations.py` that opens a database at the previous version
  holding rows and checks them after the upgrade.
"""

from __future__ import annotations

import functools
import importlib.util
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from a2a_tui.errors import A2AError
from a2a_tui.store import rolling

if TYPE_CHECKING:
    from contextlib import AbstractContextManager


class Opened(Protocol):
    """What a migration needs of an open store (store/db.py's `Store` is one): its connection,
    its file, and one write transaction. Named here so this module never imports the store that
    calls it."""

    conn: sqlite3.Connection
    path: Path

    def write(self) -> AbstractContextManager[Any]: ...

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
# The user_version today's schema text gave a store before numbered migrations (crc32 & 0x7FFFFFFF
# of store/schema/*.sql joined by newlines, i.e. migration 1).
LEGACY_CHECKSUM = 1130639531
# Any other user_version this large is an older checksum: migration numbers never get near it.
_CHECKSUM_FLOOR = 1 << 20
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.(sql|py)$")


@dataclass(frozen=True)
class Migration:
    """One numbered step; its file is read only when it runs."""

    number: int
    path: Path

    def apply(self, tx: Any) -> None:
        """Run it inside the caller's transaction (`tx.execute` is all it needs)."""
        if self.path.suffix == ".sql":
            for stmt in split_sql(self.path.read_text(encoding="utf-8")):
                tx.execute(stmt)
            return
        spec = importlib.util.spec_from_file_location(
            f"a2a_tui.store.migrations.m{self.number:04d}", self.path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.migrate(tx)


def migrations(directory: Path | None = None) -> tuple[Migration, ...]:
    """The migrations in `directory` (default: the package's), in order; checked to be dense."""
    return _load(directory or MIGRATIONS_DIR)


@functools.cache
def _load(directory: Path) -> tuple[Migration, ...]:
    # Listing one directory is all an up-to-date store costs at open; no file is read.
    found: dict[int, Path] = {}
    for path in directory.iterdir():
        if not path.name[:1].isdigit():
            continue  # __init__.py, __pycache__
        m = _NAME.match(path.name)
        if m is None or int(m[1]) in found:
            raise A2AError("bad_migrations", f"{path}: a migration is named NNNN_what.sql or"
                           " NNNN_what.py, one per number")
        found[int(m[1])] = path
    numbers = sorted(found)
    if numbers != list(range(1, len(numbers) + 1)):
        raise A2AError("bad_migrations", f"{directory}: migrations must be numbered 1..n without"
                       f" gaps, found {numbers}")
    return tuple(Migration(n, found[n]) for n in numbers)


def upgrade(store: Opened, directory: Path | None = None) -> None:
    """Bring the store's schema to the newest migration (a no-op when it is there)."""
    steps = migrations(directory)
    newest = len(steps)
    found = store.conn.execute("PRAGMA user_version").fetchone()[0]
    if found == newest:
        return
    _check(store.path, found, newest)
    if found:   # a store that holds a record: a copy of it as it was, before its schema moves
        rolling.take(store.conn, store.path)
    with store.write() as tx:
        # Re-check under the write lock: another process may have just migrated it.
        version = tx.one("PRAGMA user_version")[0]
        if version == LEGACY_CHECKSUM:
            adopt(tx, steps[0], store.path)
            version = 1
        _check(store.path, version, newest)
        for step in steps[version:]:
            step.apply(tx)
        if version != newest:
            tx.execute(f"PRAGMA user_version = {newest}")


def _check(path: Path, version: int, newest: int) -> None:
    if version == LEGACY_CHECKSUM or 0 <= version <= newest:
        return
    if version < 0 or version >= _CHECKSUM_FLOOR:
        raise A2AError("store_unrecognised", f"{path}: user_version {version} is not a schema"
                       " this a2a can adopt (a checksum from an a2a older than the last one"
                       " before numbered migrations); move the file away and run `a2a init`")
    raise A2AError("store_too_new", f"{path}: schema version {version} is newer than this a2a"
                   f" knows ({newest}); upgrade a2a to open it")


def adopt(tx: Any, baseline: Migration, path: Path) -> None:
    """Check that a pre-migration store holds every object migration 1 creates (its checksum
    says it should; a column an older schema lacked would break queries later, not here)."""
    want = sqlite3.connect(":memory:")
    try:
        baseline.apply(want)
        missing = sorted(schema_objects(want) - schema_objects(tx))
    finally:
        want.close()
    if missing:
        raise A2AError("store_unrecognised", f"{path}: its checksum says schema 1, but it lacks"
                       f" {', '.join(missing[:6])}{' ...' if len(missing) > 6 else ''}; move the"
                       " file away and run `a2a init`")


@dataclass(frozen=True)
class TableSchema:
    """A table as the migrations make it: its CREATE statement, its indexes' and its
    triggers', each (name, sql), and its column names."""

    table: tuple[tuple[str, str], ...]
    indexes: tuple[tuple[str, str], ...]
    triggers: tuple[tuple[str, str], ...]
    columns: frozenset[str]

    def trigger_sql(self, name: str) -> str:
        return dict(self.triggers)[name]


def schema_of(table: str) -> TableSchema:
    """A table as the migrations make it, for re-creating a table that was dropped
    (gate/ledger/ rebuilds it from the log)."""
    return _schema_of(MIGRATIONS_DIR, table)


@functools.cache
def _schema_of(directory: Path, table: str) -> TableSchema:
    db = sqlite3.connect(":memory:")
    try:
        for step in migrations(directory):
            step.apply(db)
        made: dict[str, list[tuple[str, str]]] = {"table": [], "index": [], "trigger": []}
        for kind, name, sql in db.execute("SELECT type, name, sql FROM sqlite_master WHERE"
                                          " tbl_name = ? AND sql IS NOT NULL ORDER BY rowid",
                                          (table,)).fetchall():
            made[kind].append((name, sql))
        columns = frozenset(r[0] for r in db.execute("SELECT name FROM pragma_table_info(?)",
                                                     (table,)).fetchall())
        return TableSchema(tuple(made["table"]), tuple(made["index"]), tuple(made["trigger"]),
                           columns)
    finally:
        db.close()


def schema_objects(db: Any) -> set[str]:
    """Every table, column, index and trigger of a database, as 'kind name' strings."""
    out: set[str] = set()
    for kind, name in db.execute("SELECT type, name FROM sqlite_master"
                                 " WHERE name NOT LIKE 'sqlite_%'").fetchall():
        out.add(f"{kind} {name}")
        if kind == "table":
            out |= {f"column {name}.{c[0]}" for c in
                    db.execute("SELECT name FROM pragma_table_info(?)", (name,)).fetchall()}
    return out


def split_sql(script: str) -> list[str]:
    """Split a script into statements (triggers contain ';' inside BEGIN ... END)."""
    out, buf = [], []
    for line in script.splitlines():
        if line.strip().startswith("--") and not buf:
            continue
        buf.append(line)
        stmt = "\n".join(buf)
        if sqlite3.complete_statement(stmt):
            if stmt.strip():
                out.append(stmt.strip())
            buf = []
    if "\n".join(buf).strip():
        out.append("\n".join(buf).strip())
    return out
