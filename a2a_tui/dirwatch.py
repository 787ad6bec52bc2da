"""Wake when a file changes in a folder: inotify(7) through ctypes, blocked in poll(2).

watchfiles looks for changes every `step` ms while it waits; inotify blocks in the kernel until
a file is written, modified or renamed into the folder, so a watcher costs no CPU while nothing
happens, and a landing is handled at once instead of at the next step. Linux only (`host.py`);
where it cannot be set up, the callers (the orchestrator's spool watch, the workbench's store
reader) fall back to watchfiles.
"""

from __future__ import annotations

import ctypes
import errno
import os
import select
import struct
import time
from pathlib import Path

from a2a_tui import host

IN_MODIFY = 0x00000002
IN_CLOSE_WRITE = 0x00000008
IN_MOVED_TO = 0x00000080
IN_Q_OVERFLOW = 0x00004000
IN_NONBLOCK = 0o4000
IN_CLOEXEC = 0o2000000
_HEADER = struct.Struct("iIII")   # wd, mask, cookie, len (then len bytes of name)


class DirWatch:
    """Files written or renamed into one folder; names starting with '.' (temp files) are not
    reported, nor, when `names` is given, any other name."""

    def __init__(self, folder: Path, mask: int = IN_CLOSE_WRITE | IN_MOVED_TO,
                 names: set[str] | None = None):
        self.names = None if names is None else {os.fsencode(n) for n in names}
        if not host.linux():
            raise OSError(errno.ENOSYS, "inotify is Linux-only")
        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if fd < 0:
            raise OSError(ctypes.get_errno(), f"inotify_init1: {os.strerror(ctypes.get_errno())}")
        wd = libc.inotify_add_watch(fd, os.fsencode(folder), mask)
        if wd < 0:
            err = ctypes.get_errno()
            os.close(fd)
            raise OSError(err, f"inotify_add_watch {folder}: {os.strerror(err)}")
        self.fd = fd

    def wait(self, timeout_s: float) -> bool:
        """Block until a visible file lands (True) or `timeout_s` passes (False)."""
        deadline = time.monotonic() + timeout_s
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if not poller.poll(left * 1000):
                return False
            if self.drain():
                return True

    def drain(self) -> bool:
        """Read what is waiting without blocking; True if a reported file was among it."""
        landed = False
        while True:
            try:
                buf = os.read(self.fd, 64 * 1024)
            except BlockingIOError:
                return landed
            pos = 0
            while pos + _HEADER.size <= len(buf):
                _wd, mask, _cookie, length = _HEADER.unpack_from(buf, pos)
                name = buf[pos + _HEADER.size:pos + _HEADER.size + length].rstrip(b"\0")
                pos += _HEADER.size + length
                if mask & IN_Q_OVERFLOW or (name and not name.startswith(b".")
                                            and (self.names is None or name in self.names)):
                    landed = True

    def close(self) -> None:
        os.close(self.fd)
