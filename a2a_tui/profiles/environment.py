"""Which variables of the spawning environment travel to a session's pane.

A pane started in a running tmux server gets **the server's** environment, not the spawning
shell's (measured, tests/real_cli/FINDINGS.md): a key or base URL set after the server started
would never reach the CLI. So a spawn hands the CLI's provider settings over itself, through
the generated launch script (readable by the user only, never in the store: the launch record
keeps their names). The pane's provider settings are then exactly the spawner's: the launch
starts the CLI from an empty environment (below) with the spawner's family exported.

The families come from each CLI's documented environment variables; `deny` lists the variables
a CLI sets itself for the commands it runs (measured with `env` in each CLI's shell tool), which
must not travel when an agent spawns another session.

Nothing else of the user's shell reaches a session (issue 35: a GITHUB_TOKEN or a database
password in the shell that ran `a2a up` was in every agent's environment). The launch starts
the CLI with `env -i` and an allow-list (`launch_env`): what the terminal and the system give
the pane (`TERMINAL_NAMES`, by name, from the pane's own environment), the CLI's family and
the variables the user's settings name for its CLI or role (`[env] pass`, from the spawner's
environment), and what a2a sets itself.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

# Proxies and certificate bundles: every CLI reaches its provider through them.
COMMON_NAMES = ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "http_proxy",
                "https_proxy", "no_proxy", "all_proxy", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE",
                "SSL_CERT_DIR")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# What the terminal and the system give the pane: how to draw, which language and time, who
# and where the user is, where temporary files and certificate bundles are. Kept from the
# pane's own environment (tmux sets TERM; the rest is the server's): no secrets among them.
TERMINAL_NAMES = (
    "TERM", "COLORTERM", "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "NO_COLOR", "FORCE_COLOR",
    "TMUX", "TMUX_PANE", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_COLLATE", "LC_MESSAGES",
    "LC_MONETARY", "LC_NUMERIC", "LC_TIME", "LC_ADDRESS", "LC_IDENTIFICATION", "LC_MEASUREMENT",
    "LC_NAME", "LC_PAPER", "LC_TELEPHONE", "TZ", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR",
    "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR",
    "EDITOR", "VISUAL", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE", "GIT_SSL_CAINFO")
# a2a's own switches that a session's a2a and the demo agent read, from the spawner.
A2A_NAMES = ("A2A_PLATFORM", "A2A_DEMO_PACE")


@dataclass(frozen=True)
class EnvFamily:
    """The variables that configure one CLI: by prefix or by name, minus `deny`."""

    prefixes: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()

    def matches(self, name: str) -> bool:
        """Whether `name` belongs to the family (denied names included: they are cleared)."""
        return name in COMMON_NAMES or name in self.names or name.startswith(self.prefixes)

    def travelling(self, environ: Mapping[str, str], extra_names: tuple[str, ...] = ()
                   ) -> dict[str, str]:
        """The spawner's variables that go to the pane."""
        return {k: v for k, v in sorted(environ.items())
                if (self.matches(k) or k in extra_names) and k not in self.deny
                and _NAME.match(k)}


def named(environ: Mapping[str, str], patterns: tuple[str, ...]) -> dict[str, str]:
    """The variables of `environ` that `patterns` name: a name, or a prefix ending in `*`."""
    exact = {p for p in patterns if not p.endswith("*")}
    prefixes = tuple(p[:-1] for p in patterns if p.endswith("*") and len(p) > 1)
    return {k: v for k, v in sorted(environ.items())
            if (k in exact or (prefixes and k.startswith(prefixes))) and _NAME.match(k)}


def launch_env(exports: Mapping[str, str], unset: tuple[str, ...] = ()) -> list[str]:
    """The words of a POSIX sh line, before the command, that start it from an empty
    environment holding only `exports` and the `TERMINAL_NAMES` the pane has (none of `unset`:
    variables the CLI must not see)."""
    kept = [f'${{{n}+"{n}=${n}"}}' for n in TERMINAL_NAMES if n not in exports and n not in unset]
    given = [shlex.quote(f"{k}={v}") for k, v in sorted(exports.items())
             if k not in unset and _NAME.match(k)]
    return ["/usr/bin/env", "-i", *kept, *given]


@dataclass(frozen=True)
class EnvPass:
    """`[env]` of the user's settings: more variables of the spawner's environment that a
    session gets, for every session (`pass`), per CLI (`[env.clis.<cli>]`) and per role
    (`[env.roles.<role>]`). A name, or a prefix ending in `*` (`"AWS_*"`)."""

    every: tuple[str, ...] = ()
    clis: dict[str, tuple[str, ...]] = field(default_factory=dict)
    roles: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def names(self, cli: str, role: str) -> tuple[str, ...]:
        """What passes to a session of `role` on `cli`."""
        return (*self.every, *self.clis.get(cli, ()), *self.roles.get(role, ()))


PASS_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\*?\Z")


def pass_model(strict, cli_names: tuple[str, ...], role_names: tuple[str, ...]) -> type:
    """The pydantic model of `[env]` (for a2a_tui/settings.py; pydantic is imported by it)."""
    from typing import Literal  # pydantic costs ~0.1 s: loaded only to validate a file

    from pydantic import BaseModel, Field, field_validator

    def valid(names: list[str]) -> list[str]:
        for n in names:
            if not PASS_NAME.match(n):
                raise ValueError(f"{n!r}: a variable's name, or a prefix ending in *")
        return names

    class Names(BaseModel):
        model_config = strict
        pass_: list[str] = Field(default_factory=list, alias="pass")

        _ok = field_validator("pass_")(lambda cls, v: valid(v))

    class Env(Names):
        # (named apart from the fields: the annotations are read in the class's namespace)
        clis: dict[Literal[*cli_names], Names] = Field(default_factory=dict)  # type: ignore
        roles: dict[Literal[*role_names], Names] = Field(default_factory=dict)  # type: ignore

    return Env


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path`, readable and writable by the user only (it may hold keys)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)  # an older file keeps its mode through O_TRUNC
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
