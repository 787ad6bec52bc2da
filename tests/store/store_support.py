"""What the store's tests share: the event chain as SQLite alone reads it."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def chain(db: Path, alone: bool = False) -> list[tuple[int, str]]:
    """(seq, hash) of every event of the database at `db`, read with sqlite3 alone (never
    written); `alone`: of the database file without any write-ahead log beside it."""
    conn = sqlite3.connect(f"file:{db}?{'immutable=1' if alone else 'mode=ro'}", uri=True)
    try:
        return conn.execute("SELECT seq, hash FROM events ORDER BY seq").fetchall()
    finally:
        conn.close()
