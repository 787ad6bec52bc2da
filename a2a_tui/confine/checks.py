"""The room a check runs in: the candidate's code, confined like an agent's.

Every process the gate starts on a candidate's or a clone's files (the card's checks, the red
step, the base runs of per-test evidence) runs in a sandbox of its own, built here:

- the checkout writable (it is thrown away), and the folder its logs and reports go to (and
  what the user's `[confinement] write` names, as for every session: a shared build cache);
- the system, the programs on the check's PATH and a2a's install read-only; the repository
  read-only with `.a2a/` hidden (the store, the gate rules, the sessions' folders, the clones);
- HOME and /tmp private, sized tmpfs, gone with the run; tmux's socket folder hidden;
- its own user, PID, IPC and UTS namespaces (nothing outside can be seen, signalled or
  ptraced; a2a's identity rules never take anything inside for the user: it is not in a2a's
  PID namespace), a terminal session of its own (no controlling terminal), and no network
  unless the card asks for it (`network = true`) or the user's default says so;
- limits on processes and memory (limits.py), joined before the sandbox starts.

`Sandbox.to_json()` is what the verification keeps: the engine, its version, the network, the
limits, and the policy's digest. Where the machine cannot confine, checks run only when the
user's settings allow it (`[confinement] unconfined_checks = true`), and the record says
`confined: false` with the reason; verify shows **unconfined** wherever it shows the verdict.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from a2a_tui.confine import bwrap, limits, seatbelt
from a2a_tui.confine.policy import (
    Policy,
    a2a_install,
    dedup,
    needed,
    norm,
    system_reads,
    under,
)
from a2a_tui.confine.probe import Engine, Probe, probe
from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject


def path_reads(search_path: str) -> list[str]:
    """What the programs on a PATH need to read: each folder (its real path), and above a
    `bin` or `shims` folder its install (a venv, pyenv, a language's own prefix)."""
    out: list[str] = []
    for entry in search_path.split(os.pathsep):
        if not entry or not os.path.isabs(entry) or not os.path.isdir(entry):
            continue
        real = os.path.realpath(entry)     # /sbin -> /usr/sbin: bound where it really is
        name = os.path.basename(real)
        out.append(norm(os.path.dirname(real) if name in ("bin", "shims") else real))
    return [p for p in dedup(out) if p != "/"]


@dataclass(frozen=True)
class Room:
    """Where one run happens: its folders, made by isolated.py."""

    cwd: Path
    writable: tuple[Path, ...]      # the log folder (the reports land beside the log)
    home: Path


@dataclass(frozen=True)
class Sandbox:
    """How every run of one verify is confined (`confined` False: not at all, `reason` why)."""

    engine: Engine
    confined: bool
    repo_root: Path
    a2a_dir: Path
    network: bool = False
    limits: limits.Limits = field(default_factory=limits.default_check)
    binary: str | None = None
    version: str | None = None
    reason: str = ""
    tmux_dir: Path | None = None
    extra_read: tuple[str, ...] = ()
    extra_write: tuple[str, ...] = ()

    def policy(self, room: Room, search_path: str) -> Policy:
        sysreads, links = system_reads()
        repo, a2a = norm(self.repo_root), norm(self.a2a_dir)
        reads = [*sysreads, *path_reads(search_path), *a2a_install(), repo,
                 *(norm(p) for p in self.extra_read)]
        writes = [norm(room.cwd), *(norm(p) for p in room.writable),
                  *(norm(p) for p in self.extra_write)]
        private = ["/tmp", norm(room.home)]
        hidden = [a2a]
        if self.tmux_dir is not None and under(norm(self.tmux_dir), [*reads, *writes]):
            hidden.append(norm(self.tmux_dir))
        reads = needed(reads, [*private, *hidden, *writes])
        return Policy(read=reads, write=dedup(writes), private=dedup(private),
                      hidden=dedup(hidden), symlinks=tuple(links), unset_env=(), set_env=(),
                      new_session=True, network=self.network, tmpfs_mb=self.limits.tmpfs_mb)

    def prefix(self, room: Room, search_path: str) -> tuple[list[str], dict[str, str]]:
        """The words before `/bin/sh -c COMMAND`, and variables to set (empty: unconfined)."""
        if not self.confined:
            return [], {}
        policy = self.policy(room, search_path)
        if self.engine == Engine.SEATBELT:
            private_tmp = str(room.home / "tmp")
            words, _ = seatbelt.argv(policy, private_tmp)
            return words, seatbelt.tmp_env(private_tmp)
        assert self.binary is not None
        return bwrap.argv(self.binary, policy), {"TMPDIR": "/tmp"}

    def to_json(self, search_path: str = "") -> JsonObject:
        """The verification's `confinement` entry: exactly what every run got."""
        base: dict[str, Any] = {"network": self.network, "limits": self.limits.to_json()}
        if not self.confined:
            return {"engine": str(Engine.NONE), "confined": False, "reason": self.reason,
                    **base}
        room = Room(Path("/checkout"), (Path("/logs"),), Path("/home"))
        shape = self.policy(room, search_path).to_json()
        digest = "sha256:" + hashlib.sha256(json.dumps(shape, sort_keys=True).encode()
                                            ).hexdigest()
        return {"engine": str(self.engine), "version": self.version, "confined": True,
                "digest": digest, **base}


def sandbox(repo_root: Path, a2a_dir: Path, *, network: bool, check_limits: limits.Limits,
            enabled: bool = True, allow_unconfined: bool = False, why_allowed: str = "",
            tmux_dir: Path | None = None, extra_read: tuple[str, ...] = (),
            extra_write: tuple[str, ...] = (), machine: Probe | None = None) -> Sandbox:
    """The sandbox of one verify's runs, or A2AError `confinement_unavailable` when the machine
    cannot confine and the user has not allowed unconfined checks."""
    common = dict(repo_root=repo_root, a2a_dir=a2a_dir, network=network, limits=check_limits,
                  tmux_dir=tmux_dir, extra_read=extra_read, extra_write=extra_write)
    if not enabled:
        return Sandbox(Engine.NONE, False, reason="confinement is turned off in your settings"
                       " ([confinement] enabled = false)", **common)  # type: ignore[arg-type]
    found = machine or probe()
    if found.available:
        return Sandbox(found.engine, True, binary=found.path, version=found.version,
                       **common)  # type: ignore[arg-type]
    if allow_unconfined:
        return Sandbox(Engine.NONE, False, reason=f"this machine cannot confine: {found.reason}"
                       + (f"; {why_allowed}" if why_allowed else ""),
                       **common)  # type: ignore[arg-type]
    raise A2AError(
        "confinement_unavailable",
        f"cannot confine the checks: {found.reason}. The checks run the candidate's own code;"
        " to run them unconfined anyway, set `unconfined_checks = true` under [confinement]"
        " in your config (`a2a config show` names the file)")
