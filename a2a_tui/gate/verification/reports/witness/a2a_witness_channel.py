"""The run's channel for a2a's witnesses written in Python (the pytest plugin, the cargo runner;
reports/channel.py): `opened(runner)` takes the channel's path and token out of the environment,
so the processes the tests start do not inherit them, and returns a function appending one
record with both."""

from __future__ import annotations

import json
import os
from collections.abc import Callable


def opened(runner: str) -> Callable[[dict], None]:
    path = os.environ.pop("A2A_REPORT_CHANNEL", None)
    token = os.environ.pop("A2A_REPORT_TOKEN", None)
    run = os.urandom(16).hex()

    def write(record: dict) -> None:
        if not path or not token:
            return
        line = json.dumps({"token": token, "runner": runner, "id": run, "pid": os.getpid(),
                           **record}) + "\n"
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)

    write.active = bool(path and token)  # type: ignore[attr-defined]
    return write
