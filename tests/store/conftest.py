"""A real small filesystem for the store's full-disk tests: a tmpfs mounted for the test (root
may mount here), filled to the last page and freed again; skipped, with why, where this process
may not mount one."""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

SIZE_MB = 24
CHUNK = 4096   # tmpfs hands out pages: filling page by page leaves no byte free


class SmallDisk:
    """A tmpfs of SIZE_MB at `path`; `fill()` takes every free page, `free()` gives them back."""

    def __init__(self, path: Path):
        self.path = path
        self.filler = path / "filler"

    def fill(self) -> int:
        """Write the filler until the disk refuses (ENOSPC); the bytes it took."""
        taken = 0
        with open(self.filler, "ab", buffering=0) as f:
            block = b"\0" * (256 * CHUNK)
            for size in (len(block), CHUNK):
                while True:
                    try:
                        taken += f.write(block[:size])
                    except OSError as exc:
                        if exc.errno != errno.ENOSPC:
                            raise
                        break
        return taken

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)

    def available(self) -> int:
        st = os.statvfs(self.path)
        return st.f_bavail * st.f_frsize


@pytest.fixture
def small_disk(tmp_path) -> Iterator[SmallDisk]:
    where = tmp_path / "disk"
    where.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={SIZE_MB}m,mode=0755", "tmpfs",
                        str(where)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({r.stderr.strip() or r.returncode}): the"
                    " full-disk tests need a real small filesystem")
    try:
        yield SmallDisk(where)
    finally:
        # Lazy: a process the test left (a tmux server's cwd) must not keep it mounted.
        subprocess.run(["umount", "-l", str(where)], capture_output=True)
