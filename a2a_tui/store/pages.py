"""The store's pages, as SQLite itself checks them: a damaged page is found before anything is
written to the file, and refused in one line (`store_corrupt`) with its way out.

The hash chain (store/chain.py) checks what the events say; it reads only the pages it walks
and cannot see a page of an index, a gate table or free space that a disk, a copy or a stray
write damaged ("How To Corrupt An SQLite Database File", https://sqlite.org/howtocorrupt.html).
SQLite's own `PRAGMA quick_check` reads every page and checks its structure; `integrity_check`
also checks that every index matches its table (bench/bench_store_pages.py measures both: about
0.4 ms per MiB for the quick one, ten times that for the full one).

Every open of a store runs the quick check when the database file changed since the last check
that passed (`check_if_changed`): its device, inode, size and modification time, noted in
`<db>.checked` beside it. A damage by a disk or by hand changes the file, and is found at the
next open; an open of an unchanged file costs one `stat` and one small read. The write-ahead log
is not in the stamp: SQLite checksums its frames itself, and folds them into the database file
(a change of the file, checked at the next open) at each checkpoint. `a2a store verify` and each
rolling backup (store/rolling.py: the copy holds the same pages) run the full check.
"""

# Imports inside functions: sqlite3, where a file is opened; trouble.py, which every a2a
# command loads, uses `corrupt` (a2a's start-up: tests/test_startup.py).

from __future__ import annotations

import calendar
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject

STAMP_SUFFIX = ".checked"
BACKUPS_DIR = "backups"   # beside the database: a2a's own rolling backups (store/rolling.py)
_NAME = re.compile(r"^a2a-(\d{8}T\d{6})Z-(\d+)\.db$")
_SHOWN = 4   # what SQLite found: the first few lines are enough to say what is wrong


def damage(conn: Any, *, full: bool = False) -> str | None:
    """None when SQLite finds every page sound, else what it found (its first lines). `full`:
    `integrity_check` (indexes against their tables too) instead of `quick_check`."""
    pragma = "integrity_check" if full else "quick_check"
    try:
        found = [str(r[0]) for r in conn.execute(f"PRAGMA {pragma}({_SHOWN})").fetchall()]
    except conn.DatabaseError as exc:   # a page so damaged that the check itself fails
        return str(exc)
    return None if found == ["ok"] else "; ".join(found)


def check(conn: Any, path: Path, *, full: bool = False) -> None:
    """Raise `store_corrupt`, with the way out, when SQLite finds a damaged page."""
    found = damage(conn, full=full)
    if found is not None:
        raise corrupt(path, found)


def check_if_changed(conn: Any, path: Path) -> None:
    """The quick check, when the database file changed since the last one that passed."""
    now = stamp(path)
    if now is not None and now == _noted(path):
        return
    check(conn, path)
    if now is not None:
        _note(path, now)


def corrupt(path: Path, found: str) -> A2AError:
    """`store_corrupt` for the store at `path`: what SQLite found, and the way out."""
    return A2AError("store_corrupt", f"{path} is damaged: SQLite's check of its pages found"
                    f" {found[:300]}; a2a writes nothing to it. {way_out(path)}")


def stamp(path: Path) -> str | None:
    """What tells this state of the database file from any other (None: no file)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return f"{st.st_dev} {st.st_ino} {st.st_size} {st.st_mtime_ns}"


def _noted(path: Path) -> str | None:
    try:
        return Path(f"{path}{STAMP_SUFFIX}").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None


def _note(path: Path, now: str) -> None:
    """Best effort: a stamp that cannot be written only means the next open checks again."""
    target = Path(f"{path}{STAMP_SUFFIX}")
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(now + "\n", encoding="utf-8")
        os.replace(tmp, target)
    except OSError:
        tmp.unlink(missing_ok=True)


# --- the good copies: a2a's rolling backups, newest first ---------------------------------------
@dataclass(frozen=True)
class Kept:
    """One of a2a's rolling backups: its file, when it was taken (UTC), its last event."""

    path: Path
    taken: str        # YYYYmmddTHHMMSS, UTC
    last_seq: int

    @property
    def taken_s(self) -> float:
        return float(calendar.timegm(time.strptime(self.taken, "%Y%m%dT%H%M%S")))

    def to_json(self) -> JsonObject:
        return {"path": str(self.path), "taken": self.taken + "Z", "last_seq": self.last_seq}


def backups_dir(db: Path) -> Path:
    return db.parent / BACKUPS_DIR


def backup_name(taken_s: float, last_seq: int) -> str:
    return f"a2a-{time.strftime('%Y%m%dT%H%M%S', time.gmtime(taken_s))}Z-{last_seq}.db"


def kept(db: Path) -> list[Kept]:
    """The rolling backups of the store at `db`, newest first (by their names)."""
    try:
        names = os.listdir(backups_dir(db))
    except OSError:
        return []
    found = [Kept(backups_dir(db) / n, m[1], int(m[2])) for n in names if (m := _NAME.match(n))]
    return sorted(found, key=lambda k: (k.taken, k.last_seq), reverse=True)


def sound(path: Path) -> bool:
    """Whether the file at `path` is a whole SQLite database holding an event log (read only)."""
    import sqlite3

    try:
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        conn.execute("SELECT 1 FROM events LIMIT 1").fetchall()
        return damage(conn) is None
    except sqlite3.Error:
        return False
    finally:
        conn.close()


def newest_good(db: Path) -> Kept | None:
    """The newest rolling backup SQLite finds sound, if any."""
    return next((k for k in kept(db) if sound(k.path)), None)


def way_out(db: Path) -> str:
    """What the user does about a damaged store: the newest good backup and the one command
    that restores it, or, with none, how to save what can still be read."""
    good = newest_good(db)
    if good is not None:
        return (f"Its newest good backup is {good.path} (taken {good.taken}Z, events up to"
                f" #{good.last_seq}); restore it with `a2a store restore` (after `a2a down`, if"
                " a2a runs)")
    return (f"No good backup of it is in {backups_dir(db)}: save what SQLite can still read"
            f" (`sqlite3 {db} .recover > recovered.sql`) before anything else")
