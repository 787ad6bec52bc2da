"""When to read the store again: after its files change, not on a timer.

Every write to the store is a transaction appending an event, and in WAL mode every commit
writes the `-wal` file (a checkpoint writes the main file). Watching those two files in the
`.a2a/` folder (inotify underneath) costs nothing while nothing happens. The reader then asks
for events after the last sequence number it saw, so a change it hears about late is never lost,
only delayed; a long rust timeout adds a rare re-check as a safety net for a write that lands
between the first read and the moment the watch starts.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

from watchfiles import watch

from a2a_tui.repo import Repo

STEP_MS = 50          # how long a change must be quiet before it is reported
DEBOUNCE_MS = 250     # the longest a burst of writes is gathered
SAFETY_NET_MS = 15_000


def store_changes(repo: Repo, stop: threading.Event) -> Iterator[None]:
    """Yield once at once, then after every change to the store's files, until `stop` is set."""
    yield
    names = {repo.db_path.name, repo.db_path.name + "-wal"}

    def is_store_file(_change, path: str) -> bool:
        return Path(path).name in names

    for _ in watch(repo.a2a_dir, watch_filter=is_store_file, recursive=False, step=STEP_MS,
                   debounce=DEBOUNCE_MS, rust_timeout=SAFETY_NET_MS, yield_on_timeout=True,
                   stop_event=stop, raise_interrupt=False):
        if stop.is_set():
            return
        yield
