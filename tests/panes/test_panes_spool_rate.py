"""The spool has a rate: a session that fills its own spool folder with junk gets a few
quarantines recorded, then one `spool_flooded` and the rest deleted unrecorded, for a window;
another session's are recorded as before (issue 35, finding 6: 2,000 junk files became 2,000
`signal_quarantined` events within seconds)."""

from __future__ import annotations

import os
import time

from a2a_tui.panes import spool
from a2a_tui.repo import Repo
from tests.support import barrier, events, register_session, wait_until
from tests.support.records import store


def junk(folder, n: int, tag: str = "junk") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        tmp = folder / f".{tag}{i}.tmp"
        tmp.write_text("not a signal")
        os.replace(tmp, folder / f"{time.time_ns()}-{tag}-{i}.json")


def test_a_flooded_spool_folder_records_a_few_quarantines_and_one_summary(repo, serve):
    serve()
    for sid in ("w1", "w2"):
        register_session(repo, sid, "worker", state="idle")
    r = Repo(repo)
    junk(r.session_spool_dir("w1"), 300)
    junk(r.session_spool_dir("w2"), 2, tag="other")
    barrier(repo)
    wait_until(lambda: not spool.pending(r.spool_dir), timeout=60, what="the spool to drain")
    mine = events(repo, "signal_quarantined", session="w1")
    assert len(mine) == spool.FLOOD_LIMIT, len(mine)
    (flood,) = events(repo, "spool_flooded", session="w1")
    assert flood.payload["limit"] == spool.FLOOD_LIMIT
    assert flood.payload["window_s"] == spool.FLOOD_WINDOW_S
    # The rest were deleted, not kept: neither the folder nor the quarantine fills the disk.
    assert len(list((r.spool_dir / "quarantine" / "w1").iterdir())) == spool.FLOOD_LIMIT
    # Another session's junk is its own: recorded as before.
    assert len(events(repo, "signal_quarantined", session="w2")) == 2
    assert not events(repo, "spool_flooded", session="w2")


def test_after_the_window_quarantines_are_recorded_again(repo, monkeypatch):
    register_session(repo, "w1", "worker", state="idle")
    r = Repo(repo)
    folder = r.session_spool_dir("w1")
    junk(folder, spool.FLOOD_LIMIT + 5)
    with store(repo) as s:
        for path in spool.pending(r.spool_dir):
            spool.ingest(s, path)
    assert len(events(repo, "signal_quarantined", session="w1")) == spool.FLOOD_LIMIT
    assert len(events(repo, "spool_flooded", session="w1")) == 1
    later = time.time_ns() + int(spool.FLOOD_WINDOW_S * 1e9) + 1
    monkeypatch.setattr(spool, "now_ns", lambda: later)
    junk(folder, 1, tag="later")
    with store(repo) as s:
        (path,) = spool.pending(r.spool_dir)
        assert spool.ingest(s, path).outcome == "quarantined"
    assert len(events(repo, "signal_quarantined", session="w1")) == spool.FLOOD_LIMIT + 1
