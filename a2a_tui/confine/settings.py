"""`[confinement]` in the user's settings (a2a_tui/settings.py reads it; the user's file only:
a repository's config never widens it).

```toml
[confinement]
enabled = true            # false: sessions and checks run unconfined (recorded, shown)
allow_unconfined = false  # where the machine cannot confine, start sessions unconfined anyway
unconfined_checks = false # ... and run the gate's checks unconfined anyway (shown: unconfined)
check_network = false     # the checks' network when a card does not say (`network` on the card)
any_command = true        # a confined worker runs any command without its CLI asking
read = ["~/src/shared"]   # more paths every session and every check may read
write = []                # more paths every session and every check may write
[confinement.roles.worker]        # per role
read = []
[confinement.sessions.w1]         # per session id
write = ["~/scratch"]
[confinement.limits]      # each check and each session (confine/limits.py); 0: the default
check_pids = 2048         # tasks (threads count), memory in MiB, each private tmpfs in MiB
check_memory_mb = 0       # default: a quarter of the machine's memory
session_pids = 4096
session_memory_mb = 0     # default: a third of the machine's memory
tmpfs_mb = 2048
```
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from a2a_tui.confine import limits as lim

CONFINEMENT_DEFAULTS: dict[str, Any] = {
    "enabled": True, "allow_unconfined": False, "unconfined_checks": False,
    "check_network": False, "any_command": True, "read": [], "write": [], "roles": {},
    "sessions": {}, "limits": {"check_pids": 0, "check_memory_mb": 0, "session_pids": 0,
                               "session_memory_mb": 0, "tmpfs_mb": 0}}


@dataclass(frozen=True)
class ExtraPaths:
    """Paths a session may read or write beyond what its launch gives it."""

    read: tuple[str, ...] = ()
    write: tuple[str, ...] = ()


@dataclass(frozen=True)
class ConfinementSettings:
    """`[confinement]`: whether sessions and checks must be confined, what more they may
    reach, and their limits.

    `enabled = false` starts every session and runs every check unconfined (recorded and shown
    as such); `allow_unconfined` starts a session unconfined only where the machine cannot
    confine, `unconfined_checks` the same for the gate's checks; `any_command`: a confined
    worker runs any command without asking (its CLI's own permission prompts are for what the
    confinement does not already stop); false keeps the CLI's allow-list."""

    enabled: bool = True
    allow_unconfined: bool = False
    unconfined_checks: bool = False
    check_network: bool = False
    any_command: bool = True
    every: ExtraPaths = ExtraPaths()
    roles: dict[str, ExtraPaths] = field(default_factory=dict)
    sessions: dict[str, ExtraPaths] = field(default_factory=dict)
    check_limits: lim.Limits = field(default_factory=lim.default_check)
    session_limits: lim.Limits = field(default_factory=lim.default_session)

    def extra(self, role: str, session: str) -> ExtraPaths:
        """Every path the user adds for a session of `role` with id `session`."""
        parts = [self.every, self.roles.get(role, ExtraPaths()),
                 self.sessions.get(session, ExtraPaths())]
        return ExtraPaths(tuple(p for x in parts for p in x.read),
                          tuple(p for x in parts for p in x.write))


def confinement_model(strict, role_names: tuple[str, ...]) -> type:
    """The model of [confinement] (for settings' `_models`): absolute paths only."""
    from pydantic import BaseModel, Field, field_validator  # only when a file is validated

    def absolute(paths: list[str]) -> list[str]:
        for p in paths:
            if not os.path.isabs(os.path.expanduser(p)):
                raise ValueError(f"{p!r}: a path must be absolute (or start with ~)")
        return paths

    class Paths(BaseModel):
        model_config = strict
        read: list[str] = Field(default_factory=list)
        write: list[str] = Field(default_factory=list)

        _abs = field_validator("read", "write")(lambda cls, v: absolute(v))

    class Limits(BaseModel):
        model_config = strict
        check_pids: int = Field(default=0, ge=0, le=1_000_000)
        check_memory_mb: int = Field(default=0, ge=0)
        session_pids: int = Field(default=0, ge=0, le=1_000_000)
        session_memory_mb: int = Field(default=0, ge=0)
        tmpfs_mb: int = Field(default=0, ge=0)

    class Confinement(Paths):
        enabled: bool = True
        allow_unconfined: bool = False
        unconfined_checks: bool = False
        check_network: bool = False
        any_command: bool = True
        roles: dict[Literal[*role_names], Paths] = Field(  # type: ignore[valid-type]
            default_factory=dict)
        sessions: dict[str, Paths] = Field(default_factory=dict)
        limits: Limits = Field(default_factory=Limits)

    return Confinement


def _limits(base: lim.Limits, pids: int, memory_mb: int, tmpfs_mb: int) -> lim.Limits:
    return replace(base, pids=pids or base.pids, memory_mb=memory_mb or base.memory_mb,
                   tmpfs_mb=tmpfs_mb or base.tmpfs_mb)


def build_confinement(c: Any) -> ConfinementSettings:
    """The settings from the validated model."""
    x = c.limits
    return ConfinementSettings(
        enabled=c.enabled, allow_unconfined=c.allow_unconfined,
        unconfined_checks=c.unconfined_checks, check_network=c.check_network,
        any_command=c.any_command, every=ExtraPaths(tuple(c.read), tuple(c.write)),
        roles={r: ExtraPaths(tuple(p.read), tuple(p.write)) for r, p in c.roles.items()},
        sessions={s: ExtraPaths(tuple(p.read), tuple(p.write)) for s, p in c.sessions.items()},
        check_limits=_limits(lim.default_check(), x.check_pids, x.check_memory_mb, x.tmpfs_mb),
        session_limits=_limits(lim.default_session(), x.session_pids, x.session_memory_mb,
                               x.tmpfs_mb))


@dataclass(frozen=True)
class InForce:
    """What protects the user here (`a2a doctor`): the engine that confines sessions and checks,
    the limits' engine and sizes, the checks' default network, and what is not in force (each
    one line)."""

    engine: str
    available: bool
    version: str | None
    enabled: bool
    limits_engine: str
    check_limits: lim.Limits
    session_limits: lim.Limits
    check_network: bool
    not_in_force: tuple[str, ...]


def in_force(conf: ConfinementSettings) -> InForce:
    """What protects the user here, as `conf` and this machine make it."""
    from a2a_tui.confine.probe import probe  # runs bwrap once: only doctor asks

    found = probe()
    where = lim.machine()
    missing = list(where.notes)
    if not conf.enabled:
        missing.append("confinement is turned off in your settings: sessions and checks run"
                       " as you")
    elif not found.available:
        sessions = "start unconfined, as you allowed" if conf.allow_unconfined else (
            "are refused unless you allow them unconfined")
        checks = "run unconfined, as you allowed" if conf.unconfined_checks else (
            "are refused unless you allow them unconfined")
        missing.append(f"this machine cannot confine ({found.reason}): sessions {sessions},"
                       f" checks {checks}")
    return InForce(str(found.engine), found.available, found.version, conf.enabled,
                   str(where.engine), conf.check_limits, conf.session_limits,
                   conf.check_network, tuple(missing))
