"""The folder watch: a file renamed or written into the folder wakes it; temp names do not."""

from __future__ import annotations

import os
import shutil
import threading
import time

from a2a_tui.dirwatch import DirWatch


def test_a_renamed_file_wakes_the_wait_and_a_temp_file_does_not(tmp_path):
    dw = DirWatch(tmp_path)
    try:
        assert dw.wait(0.05) is False                       # nothing happened
        (tmp_path / ".x.tmp").write_text("half")            # a temp file being written
        assert dw.wait(0.1) is False
        os.replace(tmp_path / ".x.tmp", tmp_path / "1-x.json")
        assert dw.wait(1.0) is True
        (tmp_path / "2-y.json").write_text("{}")            # written in place
        assert dw.wait(1.0) is True
        assert dw.wait(0.05) is False                       # all drained
    finally:
        dw.close()


def test_the_wait_blocks_until_the_file_lands(tmp_path):
    dw = DirWatch(tmp_path)
    landed = []
    t = threading.Timer(0.3, lambda: (tmp_path / "3-z.json").write_text("{}"))
    try:
        t.start()
        t0 = time.monotonic()
        landed.append(dw.wait(5.0))
        waited = time.monotonic() - t0
    finally:
        t.cancel()
        dw.close()
    assert landed == [True] and 0.2 < waited < 4.0



def test_folders_added_to_the_watch_say_where_files_landed(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    dw = DirWatch(tmp_path, folders=True)
    try:
        dw.add(a)
        dw.add(b)
        assert dw.watched == {tmp_path, a, b}
        (b / "1-x.json").write_text("{}")
        assert dw.wait(1.0) is True
        assert dw.take_changed() == {b}
        assert dw.take_changed() == set()
        (tmp_path / "c").mkdir()                     # a new folder is reported, as a place
        assert dw.wait(1.0) is True
        assert dw.take_changed() == {tmp_path / "c"}
        (a / ".tmp").write_text("half")              # temp names stay unreported
        assert dw.wait(0.1) is False and dw.take_changed() == set()
        shutil.rmtree(b)                             # a removed folder leaves the watch
        dw.wait(0.1)
        assert b not in dw.watched
    finally:
        dw.close()


def test_without_folders_a_new_folder_wakes_nothing(tmp_path):
    dw = DirWatch(tmp_path)
    try:
        (tmp_path / "sub").mkdir()
        assert dw.wait(0.1) is False
    finally:
        dw.close()


def test_what_is_whole_when_made_is_reported_though_never_closed_or_renamed_in(tmp_path):
    """A symbolic link, a fifo or a hard link is made in one step: no close-after-write and no
    rename follows, so only its creation can report it (a planted link must not wait for the
    orchestrator's once-a-minute sweep). A regular file still reports on its close, not before."""
    a = tmp_path / "a"
    a.mkdir()
    target = tmp_path / "elsewhere.json"
    target.write_text("{}")
    dw = DirWatch(tmp_path, folders=True)
    try:
        dw.add(a)
        for make in (lambda: (a / "1-link.json").symlink_to(target),
                     lambda: os.mkfifo(a / "2-fifo.json"),
                     lambda: os.link(target, a / "3-hard.json")):
            make()
            assert dw.wait(1.0) is True
            assert dw.take_changed() == {a}
        with open(a / "4-slow.json", "w") as f:      # created, not yet closed: unreported
            assert dw.wait(0.1) is False
            f.write("{}")
        assert dw.wait(1.0) is True                  # its close reports it
        (a / "nested").mkdir()                       # a folder inside a session's folder is
        assert dw.wait(0.1) is False                 # not a place the reader looks into
    finally:
        dw.close()


def test_every_event_of_a_batch_is_taken_in_after_the_first_that_landed(tmp_path):
    # Files land in two folders before the watch reads: one read brings both events, and the
    # second still says where it landed (and a removed folder's watch is still forgotten).
    a, b, gone = tmp_path / "a", tmp_path / "b", tmp_path / "gone"
    for d in (a, b, gone):
        d.mkdir()
    dw = DirWatch(a)
    try:
        dw.add(b)
        dw.add(gone)
        (a / "1-x.json").write_text("{}")
        (b / "2-y.json").write_text("{}")
        shutil.rmtree(gone)
        assert dw.wait(1.0) is True
        assert dw.take_changed() == {a, b}
        assert dw.watched == {a, b}
    finally:
        dw.close()
