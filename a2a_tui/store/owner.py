"""Whose store this is: a store and its repository name each other, and every a2a process checks
the pair when it opens the store.

The store records its id (128 random bits) and the repository it was made for, in the payload of
its first event (`initialized`; `store_identified` for a store made before stores had ids), so
the hash chain covers them. The repository records, in its git directory, the id of its store
and the highest event seq it has seen committed (`.git/a2a-store.json`, MARKER). In `.git`
because it is the repository's own: it moves with the repository, a clone does not copy it,
and once agents are confined (issue "boundary") no agent can write it; not in `.a2a/`, which a
store swapped wholesale would bring along. Like Postgres's system identifier or etcd's cluster
id, the pair decides:

- the ids differ: `store_foreign` (another repository's store, or one without an id where this
  repository recorded one);
- the repository recorded no id (a store from before ids, the first open after an upgrade):
  the store is adopted when it names this repository or none, else it is foreign;
- the store's last event is below the seq the repository saw committed: `store_rewound` (an
  older copy put in its place, or the database put back without its `-wal`);
- no file: `store_missing`, saying how to put it back. Only `a2a init` makes a store
  (`create_store`); every other open is `open_store`, which never creates one.

The seen seq is written when a process that wrote closes the store, and at most every
NOTE_EVERY_S while a long-running one goes on writing: one small file write per writing
command, never one per event. It can only lag behind the truth (a lost update, a crash), never
pass it, so it never refuses a good store; what it cannot see is the loss of a long-running
writer's last few seconds.
"""

# Imports inside functions: every a2a command opens its store through here, so logging loads
# only when a note fails (a2a's start-up: tests/test_startup.py).

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from a2a_tui.errors import A2AError
from a2a_tui.payloads import payload_of
from a2a_tui.payloads.record import Initialized, StoreIdentified
from a2a_tui.store import trouble
from a2a_tui.store.db import Store
from a2a_tui.store.trouble import StoreCode

MARKER = "a2a-store.json"
NOTE_EVERY_S = 5.0
ID_KINDS = ("initialized", "store_identified")
DB_SUFFIXES = ("", "-wal", "-shm")


@dataclass(frozen=True)
class Identity:
    """What a store records about itself (None where it records nothing)."""

    store_id: str | None
    root: str | None

    def describe(self) -> str:
        who = f"store {self.store_id[:12]}" if self.store_id else "a store without an id"
        return f"{who} of {self.root or 'no recorded repository'}"


FileId = tuple[int, int]   # (device, inode): what tells one file from another at one path


@dataclass(frozen=True)
class Marker:
    """The repository's record of its store: its id, the highest seq seen committed, and which
    files held it then: the database and the write-ahead log beside it (None: none was)."""

    store_id: str
    seq: int
    file: FileId | None = None
    wal: FileId | None = None


def identity_of(conn: Any) -> Identity:
    """The id and repository a store's first events record."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'"
                    ).fetchone() is None:
        return Identity(None, None)   # a file no store was ever made in
    store_id = root = None
    for kind, payload in conn.execute("SELECT kind, payload FROM events WHERE kind IN (?, ?)"
                                      " ORDER BY seq LIMIT 16", ID_KINDS).fetchall():
        p: Initialized | StoreIdentified = payload_of(kind, json.loads(payload))
        store_id, root = store_id or p.store_id, root or p.root
    return Identity(store_id, root)


def marker_path(root: Path) -> Path | None:
    """Where the repository at `root` records its store (None: it has no git directory here)."""
    git_dir = root / ".git"
    return git_dir / MARKER if git_dir.is_dir() else None


def read_marker(path: Path | None) -> Marker | None:
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Marker(str(data["store_id"]), int(data["seq"]), _file_id_of(data.get("file")),
                      _file_id_of(data.get("wal")))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise A2AError(StoreCode.IO, f"cannot read {path} ({exc}): it names this repository's"
                       " store; repair or delete it (a2a then adopts the store in .a2a/ if that"
                       " names this repository)") from exc


def _file_id_of(value: Any) -> FileId | None:
    return (int(value[0]), int(value[1])) if value else None


def wal_id(db: Path) -> FileId | None:
    """The write-ahead log beside the database at `db`, if one is there."""
    try:
        st = Path(f"{db}-wal").stat()
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


def write_marker(path: Path, marker: Marker) -> None:
    """Replace the repository's record at once (a temp file renamed over it)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps({"store_id": marker.store_id, "seq": marker.seq,
                                   "file": marker.file, "wal": marker.wal}) + "\n",
                       encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


class Owner:
    """The repository's side of an open store: moves the seen seq on as the store is written."""

    def __init__(self, path: Path | None, store_id: str, seen: int,
                 file: FileId | None = None, wal: FileId | None = None):
        self.path = path
        self.store_id = store_id
        self.seen = seen
        self.files = (file, wal)   # the files the repository's record names
        self._noted = -NOTE_EVERY_S   # the first commit notes at once (the log it wrote in)

    def committed(self, store: Store) -> None:
        if time.monotonic() - self._noted >= NOTE_EVERY_S:
            self.note(store)

    def closing(self, store: Store) -> None:
        self.note(store)

    def note(self, store: Store) -> None:
        """Record the store's last seq as seen (never lower it, never for a file that is no
        longer the one open); a failure only leaves the mark behind, so it is logged."""
        self._noted = time.monotonic()
        if self.path is None:
            return
        try:
            store.same_file()
            seq, files = store.last_seq(), (store.file, wal_id(store.path))
            if seq <= self.seen and self.files == files:
                return
            now = read_marker(self.path)
            if now is not None and now.store_id != self.store_id:
                self.path = None   # another store is the repository's now (a restore): not ours
                return
            if now is not None and now.seq >= seq and (now.file, now.wal) == files:
                self.seen, self.files = now.seq, files   # noted by another process already
                return
            seq = max(seq, now.seq if now is not None else 0)
            write_marker(self.path, Marker(self.store_id, seq, *files))
            self.seen, self.files = seq, files
        except (A2AError, OSError) as exc:
            import logging

            logging.getLogger(__name__).warning("could not note the store's last event in %s:"
                                                " %s", self.path, exc)


def open_store(root: Path, path: Path) -> Store:
    """The store at `path` of the repository at `root`, checked to be its own (the module
    docstring says how); a missing one is `store_missing`, never made here."""
    mark = marker_path(root)
    marker = read_marker(mark)
    if not path.exists():
        raise missing(path, marker)
    _check_file(path, marker, root, mark)
    found: list[Identity] = []

    def admit(store: Store) -> None:   # before a migration or a checkpoint writes to it
        ident = identity_of(store.conn)
        _refuse_foreign(ident, marker, root, path, mark)
        if marker is not None and (last := store.last_seq()) < marker.seq:
            raise A2AError(StoreCode.REWOUND, f"{path} ends at event #{last}, but this"
                           f" repository saw its store reach #{marker.seq}: its newest events"
                           f" are missing (was it put back without its {path.name}-wal, or an"
                           " older copy put in its place?). Put the whole store back; to go"
                           " back to an older copy on purpose, move it out of .a2a/ and"
                           " `a2a store restore FILE`")
        found.append(ident)

    store = Store(path, create=False, admit=admit)
    try:
        if marker is None:
            store.owner = _adopt(store, found[0], root, mark)
        else:
            store.owner = Owner(mark, marker.store_id, marker.seq, marker.file, marker.wal)
            if marker.file != store.file:   # the whole store moved
                store.owner.note(store)
    except BaseException:
        store.close()
        raise
    return store


def _check_file(path: Path, marker: Marker | None, root: Path, mark: Path | None) -> None:
    """Before SQLite opens the file with the write-ahead log beside it. SQLite does not check
    that a `-wal` belongs to its database: a file renamed or copied over a store whose log is
    still there (its orchestrator running) reads as a mix of both, and the first connection to
    close would fold the other's log into it. So where a log is beside the file, the file alone
    (`immutable`: no log, no lock, nothing written) must name this repository's store, and be
    the file (inode) the repository recorded — unless the log is not the recorded one either:
    then the two were moved together (the repository copied whole) and belong together."""
    wal = path.with_name(path.name + "-wal")
    try:
        hot = wal.stat().st_size > 0
    except FileNotFoundError:
        return
    if not hot:
        return
    alone = _identity_alone(path)
    _refuse_foreign(alone, marker, root, path, mark, lenient=True)
    st = path.stat()
    if (marker is not None and marker.file and marker.file != (st.st_dev, st.st_ino)
            and (marker.wal is None or marker.wal == wal_id(path))):
        raise A2AError(StoreCode.REPLACED, f"{path} is not the file this repository's store"
                       f" was, and the write-ahead log {wal.name} beside it may be the other"
                       " file's: opened together they would mix two databases. Put the"
                       " original file back; if you moved a2a.db and its -wal together"
                       f" yourself, fold the log in first (`sqlite3 {path}"
                       " 'PRAGMA wal_checkpoint(TRUNCATE)'`) and run it again")


def _identity_alone(path: Path) -> Identity:
    """What the database file records without its write-ahead log (young events may be only
    in the log: then it records nothing, and nothing is concluded from that)."""
    try:
        conn = sqlite3.connect(f"file:{quote(str(path))}?immutable=1", uri=True)
    except sqlite3.Error as exc:
        raise (trouble.from_sqlite(exc, path) or trouble.io(path, str(exc))) from exc
    try:
        return identity_of(conn)
    except sqlite3.Error as exc:
        raise (trouble.from_sqlite(exc, path) or trouble.io(path, str(exc))) from exc
    finally:
        conn.close()


def check_restorable(root: Path, ident: Identity, source: Path) -> None:
    """Refuse (`store_foreign`) a backup that is not of this repository's store."""
    mark = marker_path(root)
    _refuse_foreign(ident, read_marker(mark), root, source, mark)


def restored(root: Path, path: Path, store_id: str | None, seq: int) -> None:
    """The repository's record after a restore: the restored file, and its last event as the
    seq seen (going back to the backup's moment is the point of a restore)."""
    mark = marker_path(root)
    if mark is not None and store_id is not None:
        st = path.stat()
        write_marker(mark, Marker(store_id, seq, (st.st_dev, st.st_ino), wal_id(path)))


def _refuse_foreign(ident: Identity, marker: Marker | None, root: Path, path: Path,
                    mark: Path | None, lenient: bool = False) -> None:
    """`store_foreign` unless the store is this repository's (`lenient`: a store that records
    no id is not judged: the file alone may not hold its first event yet)."""
    unjudged = lenient and ident.store_id is None
    if marker is not None and ident.store_id != marker.store_id and not unjudged:
        raise A2AError(StoreCode.FOREIGN, f"{path} is not this repository's store: it is"
                       f" {ident.describe()}, and {root} records store {marker.store_id[:12]}"
                       f" ({mark}). Put its own store back (`a2a store restore FILE` from a"
                       " backup) or move this one away; a2a writes nothing to it")
    if marker is None and ident.root is not None and ident.root != str(root):
        raise A2AError(StoreCode.FOREIGN, f"{path} is not this repository's store: it is"
                       f" {ident.describe()}, not of {root}. Move it back to its repository;"
                       " a2a writes nothing to it")


def _adopt(store: Store, ident: Identity, root: Path, mark: Path | None) -> Owner:
    """A store the repository has no record of, naming this repository or none (made before
    stores had ids): it gets an id if it has none, and the repository records it."""
    store_id = ident.store_id
    if store_id is None:
        store_id = new_id()
        with store.write() as tx:
            tx.append("store_identified", actor="a2a", payload=StoreIdentified(
                store_id=store_id, root=str(root),
                why="a store from before stores had ids, adopted by the repository it sits in"))
    seq = store.last_seq()
    if mark is not None:
        try:
            write_marker(mark, Marker(store_id, seq, store.file, wal_id(store.path)))
        except OSError as exc:
            raise (trouble.from_os(exc, mark) or trouble.io(mark, str(exc))) from exc
    return Owner(mark, store_id, seq, store.file, wal_id(store.path))


def create_store(root: Path, path: Path, initialized: Initialized,
                 replaces: str | None = None) -> Store:
    """`a2a init`'s, and only its: a new store at `path` whose first event, `initialized`
    (`initialized` fields plus its id, its repository and the store it `replaces`, if any),
    names it, and the repository's record of it. A store that could not be made whole is
    removed again: what is left is never half a store."""
    if path.exists():
        raise ValueError(f"{path} exists: a store is made only where none is")
    store_id = new_id()
    payload = dataclasses.replace(initialized, root=str(root), store_id=store_id,
                                  replaces=replaces or None)
    try:
        store = Store(path, create=True)
    except BaseException:
        remove_files(path)
        raise
    try:
        with store.write() as tx:
            tx.append("initialized", actor="user", payload=payload)
        mark, seq = marker_path(root), store.last_seq()
        if mark is not None:
            write_marker(mark, Marker(store_id, seq, store.file, wal_id(path)))
        store.owner = Owner(mark, store_id, seq, store.file, wal_id(path))
    except BaseException as exc:
        store.close()
        remove_files(path)
        if isinstance(exc, OSError) and (err := trouble.from_os(exc)):
            raise err from exc
        raise
    return store


def new_id() -> str:
    """A store's id: 128 random bits, as hex."""
    return os.urandom(16).hex()


def remove_files(path: Path) -> None:
    """The database and the files SQLite keeps beside it."""
    for suffix in DB_SUFFIXES:
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def missing(path: Path, marker: Marker | None) -> A2AError:
    """`store_missing`, saying how to put the store back."""
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        return A2AError(StoreCode.MISSING, f"{path} is missing, but its write-ahead log"
                        f" {wal.name} is still beside it and holds its newest events: put"
                        f" {path.name} back where it was (never delete the -wal), or restore a"
                        " backup (`a2a store restore FILE`); a2a makes no new store here")
    which = f" (store {marker.store_id[:12]})" if marker else ""
    return A2AError(StoreCode.MISSING, f"{path}, this repository's store{which}, is missing:"
                    " restore it from a backup (`a2a store restore FILE`), or start a new,"
                    " empty record with `a2a init --new-store`")
