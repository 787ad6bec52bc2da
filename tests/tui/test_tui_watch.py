"""The workbench's store watch: it wakes on a commit, not on a timer, and stops when told."""

from __future__ import annotations

import threading
import time

from tests.support import wait_until


def test_store_changes_follow_sqlite_writes_and_stop(repo):
    """The workbench's reader wakes on a commit to the store (the -wal file is modified in place,
    never closed), and ends when told to."""
    from a2a_tui.repo import Repo
    from a2a_tui.store.watch import store_changes

    r = Repo(repo)
    stop = threading.Event()
    woke = []
    gen = store_changes(r.db_path, stop)
    next(gen)          # the first read
    next(gen)          # what changed before the watch was set up

    def reader():
        for _ in gen:
            woke.append(time.monotonic())

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    t.join(timeout=0.3)                                     # the reader waits...
    assert t.is_alive() and woke == []                      # ...and nothing written: no wake
    with r.store() as s, s.write() as tx:
        tx.append("test_write", actor="user")
    wait_until(lambda: woke, timeout=5, what="the reader to wake on the commit")
    assert len(woke) == 1
    stop.set()
    t.join(timeout=3)
    assert not t.is_alive()
