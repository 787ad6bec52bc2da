"""A copy of an attempt clone's own objects that git reads without waiting on anything.

The clone's `.git/objects` is its agent's: any entry may be a named pipe, a device or a
symlink out of the clone, and its `info/alternates` may name further folders (whose own
alternates file may be a pipe). git opens what it finds there, and an `open` of a pipe waits
for a writer that never comes. So git never reads the clone's object folder: `copy_objects`
copies its regular files (loose objects under `xx/`, `pack/pack-*.pack` and `.idx`) into a
folder of a2a's own, looking at each entry without following it and opening it without
waiting, and refuses an entry of those names that is anything else (`clone_unsafe`, naming
it). `info/` (alternates, commit-graph) and every other name are never opened. The copy is
bounded in bytes and in time; git then reads the copy (git/clones.py `import_commit`).
"""

from __future__ import annotations

import os
import re
import stat
import time
from pathlib import Path

from a2a_tui.git.runner import GitError

LOOSE = re.compile(r"^[0-9a-f]{38}$|^[0-9a-f]{62}$")
PACKED = re.compile(r"^pack-(?:[0-9a-f]{40}|[0-9a-f]{64})\.(?:pack|idx)$")
FANOUT = re.compile(r"^[0-9a-f]{2}$")
CHUNK = 1 << 20
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def unsafe(path: Path | str, what: str) -> GitError:
    """The refusal of an entry of a clone git must not read."""
    return GitError("import", "", code="clone_unsafe",
                    message=f"the clone's {path} {what}: a2a reads only the clone's own regular"
                    " files; nothing was imported")


def kind_of(mode: int) -> str:
    for test, name in ((stat.S_ISLNK, "a symlink"), (stat.S_ISFIFO, "a named pipe"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "not a regular file"


class _Copy:
    """One copy under way: its budget of bytes and its deadline."""

    def __init__(self, objects: Path, limit: int, deadline: float):
        self.objects = objects
        self.left = limit
        self.limit = limit
        self.deadline = deadline

    def folder(self, parent: int | None, path: Path) -> int:
        """A descriptor of the folder `path` (in the folder `parent`), never through a
        symlink."""
        try:
            st = os.stat(path.name if parent is not None else path, dir_fd=parent,
                         follow_symlinks=False)
        except OSError as exc:
            raise unsafe(path, f"cannot be read ({exc.strerror})") from exc
        if not stat.S_ISDIR(st.st_mode):
            raise unsafe(path, f"is {kind_of(st.st_mode)}, not a folder")
        try:
            return os.open(path.name if parent is not None else path, DIR_FLAGS, dir_fd=parent)
        except OSError as exc:
            raise unsafe(path, f"cannot be opened ({exc.strerror})") from exc

    def file(self, parent: int, path: Path, into: Path) -> None:
        """Copy the regular file `path` (in the folder `parent`) to `into`."""
        st = os.stat(path.name, dir_fd=parent, follow_symlinks=False)
        if not stat.S_ISREG(st.st_mode):
            raise unsafe(path, f"is {kind_of(st.st_mode)}")
        fd = os.open(path.name, FILE_FLAGS, dir_fd=parent)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):   # swapped since the look
                raise unsafe(path, "changed into something else than a regular file")
            with open(into, "wb") as out:
                while chunk := os.read(fd, min(CHUNK, self.left + 1)):
                    self.left -= len(chunk)
                    if self.left < 0:
                        raise unsafe(self.objects, f"holds more than {self.limit} bytes")
                    if time.monotonic() > self.deadline:
                        raise GitError("import", "", code="git_timeout",
                                       message="copying the clone's objects took longer than"
                                       " its time limit; nothing was imported")
                    out.write(chunk)
        finally:
            os.close(fd)

    def entries(self, parent: int, folder: Path, names: re.Pattern[str], into: Path) -> None:
        """Copy the files of `folder` whose names match `names` into the folder `into`."""
        fd = self.folder(parent, folder)
        try:
            wanted = sorted(n for n in os.listdir(fd) if names.match(n))
            if wanted:
                into.mkdir(exist_ok=True)
            for name in wanted:
                self.file(fd, folder / name, into / name)
        finally:
            os.close(fd)


def copy_objects(objects: Path, into: Path, *, limit: int, timeout_s: float) -> None:
    """Copy the loose objects and packs of the object folder `objects` (an attempt clone's)
    into the empty folder `into`: regular files only, at most `limit` bytes, within
    `timeout_s` seconds. GitError `clone_unsafe` names the first entry that is not what git
    writes there (a pipe, a device, a symlink); `git_timeout` when the time ran out."""
    copy = _Copy(objects, limit, time.monotonic() + timeout_s)
    root = copy.folder(None, objects)
    try:
        for name in sorted(os.listdir(root)):
            if FANOUT.match(name):
                copy.entries(root, objects / name, LOOSE, into / name)
            elif name == "pack":
                copy.entries(root, objects / name, PACKED, into / name)
    finally:
        os.close(root)
