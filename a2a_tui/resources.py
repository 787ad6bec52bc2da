"""Where the files that live beside the package are: `hooks/` and `rolecards/`; the broker's
thin client, which an agent's `a2a` runs as a script (`python -I -S <client.py>`), never as an
import of the package; and the broker's limits (read by the broker and by `a2a doctor`).

From a source checkout (editable install) they are the project's own folders; from a wheel
they are installed as data files under `<prefix>/share/a2a/`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from a2a_tui.errors import A2AError

_SOURCE_ROOT = Path(__file__).resolve().parents[1]
# The variable that gives a session's processes its broker socket (a2a_tui/broker/client.py
# reads the same name: it imports nothing of a2a).
BROKER_ENV = "A2A_BROKER"


def data_dir(name: str) -> Path:
    """The folder `name` (`hooks` or `rolecards`)."""
    for candidate in (_SOURCE_ROOT / name, Path(sys.prefix) / "share" / "a2a" / name):
        if candidate.is_dir():
            return candidate
    raise A2AError("install_broken", f"cannot find a2a's {name}/ folder (looked beside the package"
                   f" and in {sys.prefix}/share/a2a); reinstall a2a")


def hooks_dir() -> Path:
    return data_dir("hooks")


def rolecards_dir() -> Path:
    return data_dir("rolecards")


def broker_client() -> Path:
    """The broker's thin client (standard library only), run as a script."""
    return Path(__file__).resolve().parent / "broker" / "client.py"


@dataclass(frozen=True)
class BrokerLimits:
    """What keeps the broker fair to every session (a2a_tui/broker/serve.py): requests of one
    session served at once, and how long a command may wait on its standard input."""

    per_session: int = 8
    stdin_s: float = 30.0

    @classmethod
    def of(cls, env: Mapping[str, str], complain: Callable[[str], None] = lambda _: None
           ) -> BrokerLimits:
        """The limits the environment of `a2a up` or `a2a serve` sets (`A2A_BROKER_PER_SESSION`,
        `A2A_BROKER_STDIN_S`: the user's; a session never reaches the broker's environment),
        else the defaults; a value that is not a positive number is ignored, and said."""
        got: dict = {}
        for var, key, kind in (("A2A_BROKER_PER_SESSION", "per_session", int),
                               ("A2A_BROKER_STDIN_S", "stdin_s", float)):
            if var in env:
                try:
                    value = kind(env[var])
                except ValueError:
                    value = 0
                if value > 0:
                    got[key] = value
                else:
                    complain(f"{var}={env[var]!r} is not a positive number: ignored")
        return cls(**got)
