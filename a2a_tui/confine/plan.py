"""One launch's confinement: the words that wrap the CLI, and what the launch record keeps.

Where the machine cannot confine (no engine, no user namespaces, an unsupported system), a
session starts only when the user's own settings allow it (`[confinement] allow_unconfined`),
and is then recorded and shown as unconfined with the reason; else the launch is refused with
`confinement_unavailable` before anything is recorded. `enabled = false` in the user's
settings starts every session unconfined, recorded the same way.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shlex
from dataclasses import dataclass, field
from typing import Any

from a2a_tui.confine import bwrap, limits, seatbelt
from a2a_tui.confine.policy import Policy, Request, build
from a2a_tui.confine.probe import Engine, Probe, probe
from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject


@dataclass(frozen=True)
class Confinement:
    """How one session is confined: `prefix` goes before the CLI's argv in the launch."""

    engine: Engine
    confined: bool
    prefix: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    version: str | None = None
    reason: str = ""
    policy: Policy | None = None
    digest: str = ""
    group: limits.Group | None = None      # the session's limits (confine/limits.py)

    def enter(self) -> list[str]:
        """The launch script's lines that put the pane's process inside its limits before it
        execs the CLI: a group it cannot join ends the launch (exit 126)."""
        if self.group is None:
            return []
        lines = [f"echo $$ > {shlex.quote(f)} || exit 126" for f in self.group.join_files()]
        if not self.group.folders:
            lines.append(f"ulimit -v {self.group.limits.memory_mb * 1024} || exit 126")
        return lines

    def to_json(self) -> JsonObject:
        """The launch record's `confinement` entry: exactly what was applied."""
        caps = {"limits": self.group.to_json()} if self.group is not None else {}
        if not self.confined:
            return {"engine": str(Engine.NONE), "confined": False, "reason": self.reason,
                    **caps}
        out: dict[str, Any] = {"engine": str(self.engine), "version": self.version,
                               "confined": True, "digest": self.digest, **caps}
        if self.policy is not None:
            out["policy"] = self.policy.to_json()
            if self.policy.notes:
                out["notes"] = list(self.policy.notes)
        return out


def unconfined(reason: str) -> Confinement:
    return Confinement(Engine.NONE, False, reason=reason)


def check_machine(*, enabled: bool = True, allow_unconfined: bool = False,
                  machine: Probe | None = None, allowed_by: str = "") -> Confinement | None:
    """None when the session will be confined; the unconfined result when it may start
    unconfined (`allowed_by`: what allowed it, when not the user's setting); A2AError
    `confinement_unavailable` when it may not start."""
    if not enabled:
        return unconfined("confinement is turned off in your settings ([confinement]"
                          " enabled = false)")
    found = machine or probe()
    if found.available:
        return None
    if allow_unconfined:
        return unconfined(f"this machine cannot confine: {found.reason}"
                          + (f"; {allowed_by}" if allowed_by else ""))
    raise A2AError(
        "confinement_unavailable",
        f"cannot confine the session: {found.reason}. To start it unconfined, set"
        " `allow_unconfined = true` under [confinement] in your config"
        " (`a2a config show` names the file)")


def confine(req: Request, *, enabled: bool = True, allow_unconfined: bool = False,
            machine: Probe | None = None, allowed_by: str = "",
            caps: limits.Limits | None = None, name: str = "session") -> Confinement:
    """The confinement of one launch, or A2AError `confinement_unavailable`. `caps`: the
    session's limits (its group is made here; its private tmpfs sized by them)."""
    decided = check_machine(enabled=enabled, allow_unconfined=allow_unconfined,
                            machine=machine, allowed_by=allowed_by)
    group = limits.make(caps, name) if caps is not None else None
    if decided is not None:
        return dataclasses.replace(decided, group=group)
    found = machine or probe()
    policy = build(req)
    if caps is not None:
        policy = dataclasses.replace(policy, tmpfs_mb=caps.tmpfs_mb)
    if found.engine == Engine.SEATBELT:
        private_tmp = str(req.run_dir / "tmp")
        words, digest = seatbelt.argv(policy, private_tmp)
        return Confinement(found.engine, True, tuple(words), seatbelt.tmp_env(private_tmp),
                           found.version, policy=policy, digest=digest, group=group)
    assert found.path is not None
    words = bwrap.argv(found.path, policy)
    digest = "sha256:" + hashlib.sha256(json.dumps(words[1:]).encode()).hexdigest()
    return Confinement(found.engine, True, tuple(words), {}, found.version, policy=policy,
                       digest=digest, group=group)
