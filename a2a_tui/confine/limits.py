"""Limits no agent and no check can exhaust: processes, memory, and the size of private tmpfs.

One run of untrusted code (an agent's session, a check of the gate) gets a group of its own,
made by the first engine this machine offers:

- **cgroup v2** where the controllers are delegated to a folder a2a may write (`pids.max`,
  `memory.max` in a child of a2a's own cgroup; systemd's user manager delegates one);
- **cgroup v1** where the `pids` and `memory` hierarchies are writable (`pids.max`,
  `memory.limit_in_bytes`; the group is made below a2a's own place in each);
- **setrlimit** where neither is: `RLIMIT_AS` (address space) and `RLIMIT_NPROC`; the latter
  counts the user's processes, not the run's, and the kernel does not apply it to root, so
  there a fork bomb is not contained (`Engine.notes` says so).

The private tmpfs (HOME, /tmp) of a sandbox are sized by bubblewrap itself (`--size`), on every
engine. A group is joined by the run's first process before it starts the untrusted program
(a check's reaper, gate/verification/reaper.py; a session's launch line, `Group.shell`), so
nothing the program starts is outside it; it is removed after the run (`Group.remove`), once
every process in it has ended.

Settings (the user's file only, `[confinement.limits]`): `check_pids`, `check_memory_mb`,
`session_pids`, `session_memory_mb`, `tmpfs_mb`. `a2a doctor` says which are in force.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from a2a_tui.jsontypes import JsonObject

CGROUP_ROOT = Path("/sys/fs/cgroup")
MIB = 1024 * 1024


class Engine(StrEnum):
    CGROUP2 = "cgroup2"
    CGROUP1 = "cgroup1"
    RLIMIT = "setrlimit"


@dataclass(frozen=True)
class Limits:
    """How much one run may take. `pids` counts tasks (threads too), `memory_mb` resident
    memory (with cgroups) or address space (setrlimit), `tmpfs_mb` each private tmpfs."""

    pids: int
    memory_mb: int
    tmpfs_mb: int

    def to_json(self) -> dict[str, int]:
        return {"pids": self.pids, "memory_mb": self.memory_mb, "tmpfs_mb": self.tmpfs_mb}


def _ram_mb() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // MIB
    except (ValueError, OSError):
        return 8192


def default_check() -> Limits:
    """A check: a quarter of the machine's memory, 2,048 tasks, 2 GiB of private tmpfs."""
    return Limits(pids=2048, memory_mb=max(512, _ram_mb() // 4), tmpfs_mb=2048)


def default_session() -> Limits:
    """A session: a third of the memory, 4,096 tasks, 2 GiB for each private tmpfs."""
    return Limits(pids=4096, memory_mb=max(1024, _ram_mb() // 3), tmpfs_mb=2048)


@dataclass(frozen=True)
class Machine:
    """The engine this machine offers; `base` the folders groups are made in (one for v2, one
    per controller for v1), `notes` what is not in force."""

    engine: Engine
    base: tuple[Path, ...] = ()
    notes: tuple[str, ...] = ()

    def to_json(self) -> JsonObject:
        return {"engine": str(self.engine), "base": [str(b) for b in self.base],
                "notes": list(self.notes)}


def _own(controller: str) -> str | None:
    """This process's cgroup path in a v1 hierarchy (`controller`) or v2 (`""`)."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, names, path = line.split(":", 2)
        if (controller == "" and names == "" and line.startswith("0::")) or (
                controller and controller in names.split(",")):
            return path
    return None


def _writable(folder: Path) -> bool:
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


def _v2() -> Path | None:
    own = _own("")
    for mount in (CGROUP_ROOT, CGROUP_ROOT / "unified"):
        if own is None or not (mount / "cgroup.controllers").exists():
            continue
        here = mount / own.lstrip("/")
        try:
            have = set((here / "cgroup.controllers").read_text().split())
        except OSError:
            continue
        if {"pids", "memory"} <= have and _writable(here):
            return here
    return None


def _v1() -> tuple[Path, Path] | None:
    found = []
    for controller in ("pids", "memory"):
        own = _own(controller)
        if own is None:
            return None
        here = CGROUP_ROOT / controller / own.lstrip("/")
        if not _writable(here):
            return None
        found.append(here)
    return found[0], found[1]


def machine() -> Machine:
    """Which engine contains a run here (asked each time: cheap, a few file reads)."""
    v2 = _v2()
    if v2 is not None:
        return Machine(Engine.CGROUP2, (v2,))
    v1 = _v1()
    if v1 is not None:
        return Machine(Engine.CGROUP1, v1)
    notes = ["no writable cgroup: memory is capped as address space (RLIMIT_AS)"]
    if os.geteuid() == 0:
        notes.append("running as root: the kernel does not apply RLIMIT_NPROC, so the number"
                      " of processes is not limited")
    else:
        notes.append("RLIMIT_NPROC counts all of your processes, not only the run's")
    return Machine(Engine.RLIMIT, notes=tuple(notes))


@dataclass
class Group:
    """One run's group: made by `make`, joined by `enter` in the run's first process, removed
    by `remove`."""

    machine: Machine
    limits: Limits
    folders: list[Path] = field(default_factory=list)
    problem: str = ""

    def to_json(self) -> JsonObject:
        out: dict[str, Any] = {"engine": str(self.machine.engine), **self.limits.to_json()}
        notes = [*self.machine.notes, *([self.problem] if self.problem else [])]
        if notes:
            out["notes"] = notes
        if self.folders:   # what `free` removes once the run has ended
            out["folders"] = [str(f) for f in self.folders]
        return out

    def join_files(self) -> list[str]:
        """The `cgroup.procs` files the run's first process writes its pid to."""
        return [str(f / "cgroup.procs") for f in self.folders]

    def rlimits(self) -> list[str]:
        """`NAME=VALUE` words for `enter`: the address space where no cgroup caps memory, and
        the process count as far as setrlimit can."""
        if self.folders:
            return []
        return [f"AS={self.limits.memory_mb * MIB}", f"NPROC={self.limits.pids}"]

    def remove(self) -> None:
        for folder in self.folders:
            with contextlib.suppress(OSError):
                folder.rmdir()


def free(folders: list[str]) -> list[str]:
    """Remove the groups a run's record names, once it has ended (a session's, when its pane
    process exits). Only a2a's own leaves; the kernel refuses one that still holds a process:
    those are returned (to try again once it has gone)."""
    left = []
    for folder in folders:
        if os.path.basename(folder).startswith("a2a-"):
            try:
                os.rmdir(folder)
            except FileNotFoundError:
                pass
            except OSError:
                left.append(folder)
    return left


STALE_S = 600.0   # a group is joined within moments of being made: older and empty, it is left


def _sweep(bases: tuple[Path, ...]) -> None:
    """Remove the groups of runs that ended (a session's outlives the call that made it):
    only empty ones (the kernel refuses the rest), and none made recently (not joined yet)."""
    now = time.time()
    for base in bases:
        for old in base.glob("a2a-*"):
            with contextlib.suppress(OSError):
                if now - old.stat().st_mtime > STALE_S:
                    old.rmdir()


def make(limits: Limits, name: str, found: Machine | None = None) -> Group:
    """A group for one run. A cgroup that cannot be made falls back to setrlimit, saying why."""
    found = found or machine()
    group = Group(found, limits)
    if found.engine == Engine.RLIMIT:
        return group
    _sweep(found.base)
    leaf = f"a2a-{name}-{secrets.token_hex(4)}"
    try:
        if found.engine == Engine.CGROUP2:
            folder = found.base[0] / leaf
            folder.mkdir()
            group.folders.append(folder)
            (folder / "pids.max").write_text(str(limits.pids))
            (folder / "memory.max").write_text(str(limits.memory_mb * MIB))
            with contextlib.suppress(OSError):
                (folder / "memory.swap.max").write_text("0")
        else:
            pids, memory = (b / leaf for b in found.base)
            pids.mkdir()
            group.folders.append(pids)
            memory.mkdir()
            group.folders.append(memory)
            (pids / "pids.max").write_text(str(limits.pids))
            (memory / "memory.limit_in_bytes").write_text(str(limits.memory_mb * MIB))
    except OSError as exc:
        group.remove()
        return Group(Machine(Engine.RLIMIT, notes=found.notes), limits,
                     problem=f"the {found.engine} group could not be made ({exc.strerror}):"
                     " setrlimit instead")
    return group
