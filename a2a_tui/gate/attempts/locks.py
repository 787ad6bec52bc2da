"""Operation locks: advisory file locks that the kernel drops when their holder dies.

A held lock means "someone is working on this right now"; a free lock over a half-finished
record means its owner died, and recovery may look at it. Releasing a lock says nothing
about whether the work passed.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from a2a_tui.errors import A2AError


@contextmanager
def op_lock(locks_dir: Path, name: str, *, what: str = "", wait_s: float = 0.0
            ) -> Iterator[None]:
    """Hold the lock `name` or refuse: at once by default (never wait behind a running verify),
    or after `wait_s` seconds for locks that are only ever held briefly."""
    fd = _open(locks_dir, name)
    try:
        deadline = time.monotonic() + wait_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError as exc:
                if time.monotonic() >= deadline:
                    raise A2AError("busy", f"{what or name} is in progress in another process;"
                                   " try again later") from exc
                time.sleep(0.02)
        yield
    finally:
        os.close(fd)


def lock_is_free(locks_dir: Path, name: str) -> bool:
    fd = _open(locks_dir, name)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(fd, fcntl.LOCK_UN)
        return True
    finally:
        os.close(fd)


def _open(locks_dir: Path, name: str) -> int:
    locks_dir.mkdir(parents=True, exist_ok=True)
    return os.open(locks_dir / f"{name}.lock", os.O_RDWR | os.O_CREAT, 0o644)
