"""Ids as people read them: T-2 before T-16, w9 before w10. One ordering for every list a2a
shows, in Python (`natural_key`) and in SQL (`ORDER BY id COLLATE natural_ids`, registered on
every store connection)."""

from __future__ import annotations

import re

_PARTS = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple:
    """Sort key: runs of digits compare as numbers, the rest as text (case-insensitively)."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p.casefold())
                 for p in _PARTS.split(text) if p)


def collate(a: str, b: str) -> int:
    """`natural_key` as an SQLite collation (negative, zero, positive)."""
    ka, kb = natural_key(a), natural_key(b)
    return (ka > kb) - (ka < kb) or (a > b) - (a < b)
