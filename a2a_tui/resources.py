"""Where the files that live beside the package are: `hooks/` and `rolecards/`; and the broker's
thin client, which an agent's `a2a` runs as a script (`python -I -S <client.py>`), never as an
import of the package.

From a source checkout (editable install) they are the project's own folders; from a wheel
they are installed as data files under `<prefix>/share/a2a/`.
"""

from __future__ import annotations

import sys
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
