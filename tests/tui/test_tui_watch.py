"""The workbench's store watch: it wakes on a commit, not on a timer, and stops when told."""

from __future__ import annotations

import threading
import time


def test_store_changes_follow_sqlite_writes_and_stop(repo):
    """The workbench's reader wakes on a commit to the store (the -wal file is modified in place,
    never closed), and ends when told to."""
    from a2a_tui.repo import Repo
    from a2a_tui.tui.watch import store_changes

    r = Repo(repo)
    stop = threading.Event()
    woke = []
    gen = store_changes(r, stop)
    next(gen)          # the first read
    next(gen)          # what changed before the watch was set up

    def reader():
        for _ in gen:
            woke.append(time.monotonic())

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    time.sleep(0.3)
    assert woke == []                                       # nothing written: no wake
    with r.store() as s, s.write() as tx:
        tx.append("test_write", actor="user")
    deadline = time.monotonic() + 5
    while not woke and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(woke) == 1
    stop.set()
    t.join(timeout=3)
    assert not t.is_alive()
