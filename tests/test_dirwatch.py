"""The folder watch: a file renamed or written into the folder wakes it; temp names do not."""

from __future__ import annotations

import os
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

