"""When to read the store again: after its files change, not on a timer.

Every write to the store is a transaction appending an event, and in WAL mode every commit
writes the `-wal` file (a checkpoint writes the main file). inotify on those two files in the
`.a2a/` folder costs nothing while nothing happens (watchfiles, the fallback, looks every 50 ms).
A burst of writes is gathered for a moment and read once. The reader asks for events after the
last sequence number it saw, so a change it hears about late is never lost, only delayed; a
re-check every 15 s is a safety net for a write that lands between the first read and the
moment the watch starts.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

from a2a_tui.dirwatch import IN_CLOSE_WRITE, IN_MODIFY, IN_MOVED_TO, DirWatch

GATHER_S = 0.05       # a burst of writes is read once, this long after its first write
STEP_MS = 50          # (watchfiles fallback) how long a change must be quiet before it is reported
DEBOUNCE_MS = 250     # the longest a burst of writes is gathered
SAFETY_NET_MS = 15_000


def store_changes(db_path: Path, stop: threading.Event) -> Iterator[None]:
    """Yield once at once, then after every change to the store's files (the database at
    `db_path` and its `-wal`), until `stop` is set."""
    yield
    names = {db_path.name, db_path.name + "-wal"}
    try:
        dw = DirWatch(db_path.parent, IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO, names)
    except OSError:
        yield from _polled(db_path.parent, stop, names)
        return
    try:
        yield  # what changed before the watch was set up
        quiet_s = 0.0
        while not stop.is_set():
            if dw.wait(1.0):  # wakes once a second to see `stop`; no read unless something landed
                stop.wait(GATHER_S)
                dw.drain()
            else:
                quiet_s += 1.0
                if quiet_s < SAFETY_NET_MS / 1000:
                    continue
            quiet_s = 0.0
            if stop.is_set():
                return
            yield
    finally:
        dw.close()


def _polled(folder: Path, stop: threading.Event, names: set[str]) -> Iterator[None]:
    from watchfiles import watch  # lazy: needed only where inotify cannot be set up

    def is_store_file(_change, path: str) -> bool:
        return Path(path).name in names

    for _ in watch(folder, watch_filter=is_store_file, recursive=False, step=STEP_MS,
                   debounce=DEBOUNCE_MS, rust_timeout=SAFETY_NET_MS, yield_on_timeout=True,
                   stop_event=stop, raise_interrupt=False):
        if stop.is_set():
            return
        yield
