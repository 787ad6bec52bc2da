"""Wake when a file changes in a folder (or in several): inotify(7) through ctypes, blocked in
poll(2).

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
import stat
import struct
import time
from collections.abc import Iterator
from pathlib import Path

from a2a_tui import host

IN_MODIFY = 0x00000002
IN_CLOSE_WRITE = 0x00000008
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_Q_OVERFLOW = 0x00004000
IN_IGNORED = 0x00008000   # the watch is gone (its folder was removed)
IN_ISDIR = 0x40000000
IN_NONBLOCK = 0o4000
IN_CLOEXEC = 0o2000000
_HEADER = struct.Struct("iIII")   # wd, mask, cookie, len (then len bytes of name)


class DirWatch:
    """Files written or renamed into one folder, or into any folder `add` adds on the same
    watch; names starting with '.' (temp files) are not reported, nor, when `names` is given,
    any other name. With `folders`, a folder made (or renamed) in them is reported too: the
    orchestrator then watches a session's new spool folder (`add`) before it looks inside.

    `take_changed` says where: the folders a reported file landed in (and the new folders
    themselves), so a reader with many folders looks only into those."""

    def __init__(self, folder: Path, mask: int = IN_CLOSE_WRITE | IN_MOVED_TO,
                 names: set[str] | None = None, folders: bool = False):
        self.names = None if names is None else {os.fsencode(n) for n in names}
        self.mask = mask
        self.folders = folders
        if not host.linux():
            raise OSError(errno.ENOSYS, "inotify is Linux-only")
        self._libc = ctypes.CDLL(None, use_errno=True)
        fd = self._libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if fd < 0:
            raise OSError(ctypes.get_errno(), f"inotify_init1: {os.strerror(ctypes.get_errno())}")
        self.fd = fd
        self._folders: dict[int, Path] = {}
        self._makers: set[int] = set()   # the watches whose new folders are reported
        self._paths: set[Path] = set()
        self._changed: set[Path] | None = set()   # None: the kernel's queue overflowed
        try:
            self.add(folder, folders)
        except OSError:
            os.close(fd)
            raise

    def add(self, folder: Path, folders: bool = False) -> None:
        """Watch `folder` too (a folder watched already is left as it is); with `folders`, for
        folders made in it as well (the first folder's watch takes the constructor's)."""
        # IN_CREATE always: what is whole the moment it is made (a symbolic link, a fifo, a
        # hard link) is never closed after writing nor renamed in, so nothing else reports it.
        wd = self._libc.inotify_add_watch(self.fd, os.fsencode(folder), self.mask | IN_CREATE)
        if wd < 0:
            err = ctypes.get_errno()
            raise OSError(err, f"inotify_add_watch {folder}: {os.strerror(err)}")
        self._folders[wd] = folder
        if folders:
            self._makers.add(wd)
        else:
            self._makers.discard(wd)
        self._paths.add(folder)

    @property
    def watched(self) -> set[Path]:
        """The folders watched now (one that was removed is not)."""
        return self._paths

    def take_changed(self) -> set[Path] | None:
        """The folders where something was reported since the last call; None when that is
        not known (the kernel's event queue overflowed: look everywhere)."""
        changed, self._changed = self._changed, set()
        return changed

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
            for wd, mask, name in _events(buf):
                # Every event is taken in (a watch gone, an overflow) even after one landed.
                if self._take(wd, mask, name):
                    landed = True

    def _take(self, wd: int, mask: int, name: bytes) -> bool:
        """Take in one event: forget a watch that is gone, note where a reported file (or a
        folder made in a watched one) landed. True when the event is one to report."""
        where = self._folders.get(wd)
        if mask & IN_IGNORED:
            self._paths.discard(self._folders.pop(wd, where))
            return False
        if mask & IN_Q_OVERFLOW:
            self._changed = None   # where is not known any more: the reader looks everywhere
            return True
        if not name or name.startswith(b".") or where is None:
            return False
        if mask & IN_ISDIR:
            if wd in self._makers and mask & (IN_CREATE | IN_MOVED_TO):
                self._note(where / os.fsdecode(name))
                return True
            return False
        if self.names is not None and name not in self.names:
            return False
        if mask & IN_CREATE and not _made_whole(where / os.fsdecode(name)):
            return False  # a file being written: its close or rename reports it
        self._note(where)
        return True

    def _note(self, folder: Path) -> None:
        if self._changed is not None:
            self._changed.add(folder)

    def close(self) -> None:
        os.close(self.fd)


def _events(buf: bytes) -> Iterator[tuple[int, int, bytes]]:
    """The (watch, mask, name) of each inotify event in `buf`, the name's padding stripped."""
    pos = 0
    while pos + _HEADER.size <= len(buf):
        wd, mask, _cookie, length = _HEADER.unpack_from(buf, pos)
        start = pos + _HEADER.size
        yield wd, mask, buf[start:start + length].rstrip(b"\0")
        pos = start + length


def _made_whole(path: Path) -> bool:
    """Whether a name just made is whole already: anything but a regular file (a symbolic link,
    a fifo, a socket) or a second name of an existing file (a hard link). A regular file being
    written reports when it is closed."""
    try:
        st = os.lstat(path)
    except OSError:   # gone again: nothing to look at
        return False
    return not stat.S_ISREG(st.st_mode) or st.st_nlink > 1
