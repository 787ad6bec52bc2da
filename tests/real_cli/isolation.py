"""Isolation for the real CLIs: a network namespace with only loopback, a throwaway HOME.

The namespace is held by one `unshare --net` process (`sleep infinity` after `ip link set lo up`);
everything else joins it: commands through `nsenter -t <pid> -n`, and the fake model server's
listening socket through `setns(2)` in a short-lived thread of the test process (a socket stays in
the namespace it was made in, so the server then serves from any thread). Nothing the CLIs try can
leave the machine; 127.0.0.1 inside is not the host's 127.0.0.1.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import threading
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
CLONE_NEWNET = 0x40000000
# A dummy key: Claude Code asks once per key (by its last 20 characters) whether to use it.
DUMMY_KEY = "sk-ant-api03-a2a-fake-key-0123456789abcdefghijklmnopqrstuvwxyz"


@lru_cache(maxsize=1)
def unavailable() -> str | None:
    """Why the real-CLI suite cannot run here, or None when it can."""
    for tool in ("npm", "unshare", "nsenter", "ip", "tmux"):
        if shutil.which(tool) is None:
            return f"{tool} is not on PATH"
    try:
        proc = subprocess.run(["unshare", "--net", "true"], capture_output=True, text=True,
                              timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unshare --net cannot run: {exc}"
    if proc.returncode != 0:
        return f"unshare --net is not permitted: {proc.stderr.strip() or proc.returncode}"
    return None


def require() -> None:
    """Skip the calling test module, with one clear reason, when the suite cannot run here."""
    import pytest

    why = unavailable()
    if why is not None:
        pytest.skip(f"real-CLI suite skipped: {why}", allow_module_level=True)


class Netns:
    """A network namespace with only loopback, alive until `close()`."""

    def __init__(self) -> None:
        self.holder = subprocess.Popen(
            ["unshare", "--net", "sh", "-c", "ip link set lo up && echo up && exec sleep infinity"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        line = self.holder.stdout.readline().strip() if self.holder.stdout else ""
        if line != "up":
            err = self.holder.stderr.read() if self.holder.stderr else ""
            self.holder.kill()
            raise RuntimeError(f"could not make a network namespace: {err.strip() or line}")
        self.pid = self.holder.pid  # without --fork, unshare execs: this pid is in the namespace

    def argv(self, argv: list[str]) -> list[str]:
        """`argv` run inside the namespace."""
        return ["nsenter", "-t", str(self.pid), "-n", "--", *argv]

    def run(self, argv: list[str], **kw: Any) -> subprocess.CompletedProcess:
        return subprocess.run(self.argv(argv), **kw)

    def popen(self, argv: list[str], **kw: Any) -> subprocess.Popen:
        return subprocess.Popen(self.argv(argv), **kw)

    def call(self, fn: Callable[[], T]) -> T:
        """Run `fn` in a fresh thread that has joined the namespace (e.g. to bind a socket)."""
        box: dict[str, Any] = {}

        def body() -> None:
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                fd = os.open(f"/proc/{self.pid}/ns/net", os.O_RDONLY)
                try:
                    if libc.setns(fd, CLONE_NEWNET) != 0:
                        err = ctypes.get_errno()
                        raise OSError(err, f"setns: {os.strerror(err)}")
                finally:
                    os.close(fd)
                box["value"] = fn()
            except BaseException as exc:  # handed to the caller below
                box["error"] = exc

        t = threading.Thread(target=body, name="netns-call")
        t.start()
        t.join()
        if "error" in box:
            raise box["error"]
        return box["value"]

    def close(self) -> None:
        if self.holder.poll() is None:
            self.holder.kill()
        self.holder.wait(timeout=10)
        for f in (self.holder.stdout, self.holder.stderr):
            if f:
                f.close()


def make_home(home: Path, *, trusted: list[Path] = (), key: str = DUMMY_KEY,
              onboarded: bool = True, idle_notify_ms: int | None = None) -> dict[str, str]:
    """Fill a THROWAWAY home for the CLIs and return the env that points them at it.

    In this home only: Claude Code's onboarding is marked done, the folders in `trusted` have
    the workspace-trust dialog accepted, and the dummy API key is approved. (In a user's real
    home these are the user's own choices; a2a never writes them.)
    """
    home.mkdir(parents=True, exist_ok=True)
    cfg: dict[str, Any] = {"hasCompletedOnboarding": onboarded, "numStartups": 3,
                           "customApiKeyResponses": {"approved": [key[-20:]], "rejected": []},
                           "projects": {str(p): {"hasTrustDialogAccepted": True,
                                                 "hasCompletedProjectOnboarding": True,
                                                 "allowedTools": []} for p in trusted}}
    if idle_notify_ms is not None:
        cfg["messageIdleNotifThresholdMs"] = idle_notify_ms
    (home / ".claude.json").write_text(json.dumps(cfg, indent=2))
    codex_home = home / ".codex"
    codex_home.mkdir(exist_ok=True)
    return {"HOME": str(home), "CODEX_HOME": str(codex_home)}
