"""Which variables of the spawning environment travel to a session's pane.

A pane started in a running tmux server gets **the server's** environment, not the spawning
shell's (measured, tests/real_cli/FINDINGS.md): a key or base URL set after the server started
would never reach the CLI. So a spawn hands the CLI's provider settings over itself, through
the generated launch script (readable by the user only, never in the store: the launch record
keeps their names). The pane's provider settings are then exactly the spawner's: the launch
script first unsets every variable of the CLI's families that the pane inherited from the
server, then exports the spawner's.

The families come from each CLI's documented environment variables; `deny` lists the variables
a CLI sets itself for the commands it runs (measured with `env` in each CLI's shell tool), which
must not travel when an agent spawns another session.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

# Proxies and certificate bundles: every CLI reaches its provider through them.
COMMON_NAMES = ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "http_proxy",
                "https_proxy", "no_proxy", "all_proxy", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE",
                "SSL_CERT_DIR")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


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

    def clear_line(self, extra_names: tuple[str, ...] = ()) -> str:
        """A POSIX sh line unsetting every family variable the pane inherited from the server.

        Every name it matches is a valid one (anchored), so `unset` cannot fail; a name matched
        by mistake (from a multi-line value) is at worst unset before the exports re-add it."""
        exact = sorted({*COMMON_NAMES, *self.names, *extra_names})
        alts = [re.escape(p) + "[A-Za-z0-9_]*" for p in self.prefixes] + exact
        return f"unset $(env | sed -n -E 's/^({'|'.join(alts)})=.*/\\1/p')"


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path`, readable and writable by the user only (it may hold keys)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)  # an older file keeps its mode through O_TRUNC
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
