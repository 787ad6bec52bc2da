"""What a failing disk, or a store file that is not the one a process opened, looks like to a2a:
one A2AError with a stable code and one line, never a traceback.

SQLite reports a full disk as SQLITE_FULL ("database or disk is full") and a failed read or
write as SQLITE_IOERR ("disk I/O error", also when it cannot grow the shared-memory index of a
WAL database: the open itself fails then). Either way the transaction it was in is rolled back
whole (https://sqlite.org/lang_transaction.html, "Response To Errors Within A Transaction"), so
the record stays as it was: the error is the answer. The same goes for a2a's own files beside the
store (a log, a check's output): ENOSPC and EIO become the same two codes. Every code is in
the error-code reference (docs/reference/error-codes.toml, its store section).
"""

from __future__ import annotations

import errno
import sys
from enum import StrEnum
from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.store import pages


class StoreCode(StrEnum):
    FULL = "store_full"            # no space for the write: nothing was recorded
    IO = "store_io"                # the disk failed a read or a write: nothing was recorded
    CORRUPT = "store_corrupt"      # the file is damaged or no SQLite database (pages.corrupt)
    MISSING = "store_missing"      # the repository's store is not where it should be
    REPLACED = "store_replaced"    # another file now sits where the open one was
    FOREIGN = "store_foreign"      # the store is another repository's
    REWOUND = "store_rewound"      # the store lacks events this repository saw recorded
    BUSY = "store_busy"            # another writer held the store past the busy timeout


# Codes a long-running writer waits out (it retries; space or the disk may come back); the
# others mean the file is not the right one, and only the user can put that right.
PASSING = frozenset({StoreCode.FULL, StoreCode.IO, StoreCode.BUSY})

# SQLite's primary result codes (https://sqlite.org/rescode.html); an extended code carries its
# primary one in its low byte.
_READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 8, 10, 11, 13, 14, 26
_BUSY, _LOCKED = 5, 6
_READONLY_DBMOVED = 1032   # the file was unlinked or renamed since it was opened


def from_sqlite(exc: BaseException, path: Path | str | None = None) -> A2AError | None:
    """The A2AError an `sqlite3.Error` stands for, or None when it is not a store trouble (a
    constraint, a bug in a query)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return None
    where = f" {path}" if path else ""
    said = str(exc)
    if code == _READONLY_DBMOVED:
        return A2AError(StoreCode.REPLACED, f"the store file{where} was moved or deleted while"
                        f" it was open ({said}): nothing was recorded")
    primary = code & 0xFF
    if primary == _FULL:
        return full(path, said)
    if primary == _IOERR:
        return io(path, said)
    if primary in (_CORRUPT, _NOTADB):
        if path is not None:
            return pages.corrupt(Path(path), f"{said} (damaged, or not a database)")
        return A2AError(StoreCode.CORRUPT, f"the store is damaged or not a database ({said});"
                        " restore a backup with `a2a store restore`")
    if primary in (_BUSY, _LOCKED):
        return A2AError(StoreCode.BUSY, f"store is busy: {said}")
    if primary == _READONLY:
        return A2AError(StoreCode.IO, f"cannot write the store{where} ({said}): nothing was"
                        " recorded")
    if primary == _CANTOPEN:
        return A2AError(StoreCode.IO, f"cannot open the store{where} ({said})")
    return None


def from_os(exc: OSError, path: Path | str | None = None) -> A2AError | None:
    """The A2AError for a full disk or a failing one met writing a2a's own files; None for any
    other OSError."""
    where = path or exc.filename
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return full(where, exc.strerror or str(exc))
    if exc.errno in (errno.EIO, errno.EROFS):
        return io(where, exc.strerror or str(exc))
    return None


def translate(exc: BaseException, path: Path | str | None = None) -> A2AError | None:
    """For an entry point's last resort: the A2AError behind an exception that escaped every
    other handler, when it is a store or disk trouble; None otherwise."""
    if isinstance(exc, A2AError):
        return exc
    if isinstance(exc, OSError):
        return from_os(exc, path)
    sqlite3 = sys.modules.get("sqlite3")   # never loaded: the error cannot be SQLite's
    if sqlite3 is not None and isinstance(exc, sqlite3.Error):
        return from_sqlite(exc, path)
    return None


def full(path: Path | str | None, said: str) -> A2AError:
    where = f" holding {path}" if path else ""
    return A2AError(StoreCode.FULL, f"the disk{where} is full ({said}): nothing was recorded;"
                    " free some space and run it again")


def io(path: Path | str | None, said: str) -> A2AError:
    where = f" {path}" if path else ""
    return A2AError(StoreCode.IO, f"cannot read or write{where} ({said}): nothing was"
                    " recorded; look at the disk (dmesg), then run it again")
