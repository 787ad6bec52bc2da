"""Attacks run from inside a confined pane: the demo agent's `!` shell lines, which it runs the
way Claude Code runs its Bash tool (a child of the CLI, no terminal, in its folder).

`Attacker` spawns a demo agent session through the real `a2a spawn` (confined, as every session
is) and runs one shell line in it, typed into the pane as a user would; the line's output and
exit code land in the session's own output folder (`.a2a/run/<s>/out/`, the one place under
`.a2a/` a session may write), which the test reads from outside.

Every attack runs twice: `confined` (a2a as it ships) must refuse it; `unconfined` (the user's
`[confinement] enabled = false`, i.e. every session as it ran before issue 27) must let it
through, which shows the attack is real and that the refusal is the confinement's.
"""

from __future__ import annotations

import json
import shlex
import uuid
from pathlib import Path

import pytest

from a2a_tui.confine import probe
from tests.support import World, spawn, wait_until, write_user_config

MODES = ("confined", "unconfined")


def _user_config(world: World) -> str:
    path = Path(world.setenv["XDG_CONFIG_HOME"]) / "a2a" / "config.toml"
    return path.read_text() if path.exists() else ""


def need_namespaces() -> None:
    """Skip, with the machine's reason, where it cannot confine (the tests of that case are
    test_unavailable.py)."""
    found = probe()
    if not found.available:
        pytest.skip(f"this machine cannot confine: {found.reason}")


class Attacker:
    """One demo agent session to attack from."""

    def __init__(self, world: World, mode: str, *, role: str = "executive",
                 attempt: str | None = None, extra: tuple[str, ...] = (),
                 config: str = "") -> None:
        assert mode in MODES
        if mode == "confined":
            need_namespaces()
            if config:
                write_user_config(world, config)
        elif config or "enabled = false" not in _user_config(world):  # a test's own says so
            write_user_config(world, "[confinement]\nenabled = false\n" + config)
        self.world = world
        self.mode = mode
        args = ("--attempt", attempt) if attempt else ()
        self.s = spawn(world.repo, world.sock, *extra, role=role, args=args)
        self.sid, self.pane = self.s["session"], self.s["pane"]
        self.out = world.repo / ".a2a" / "run" / self.sid / "out"
        wait_until(lambda: "demo agent" in world.screen(self.pane), timeout=20,
                   what="the demo agent's screen")

    @property
    def confined(self) -> bool:
        return self.mode == "confined"

    def run(self, command: str, timeout: float = 30) -> tuple[int, str]:
        """Run `command` with `sh -c` in the agent's tool shell; (exit code, output)."""
        tag = uuid.uuid4().hex[:8]
        out, rc = self.out / f"{tag}.out", self.out / f"{tag}.rc"
        line = (f"!sh -c {shlex.quote(command)} >{out} 2>&1 </dev/null; echo $? >{rc}.tmp;"
                f" mv {rc}.tmp {rc}")
        self.world.type(self.pane, line)
        self.world.keys(self.pane, "Enter")
        wait_until(lambda: rc.exists(), timeout=timeout,
                   what=f"the pane's command to finish ({command[:60]})")
        return int(rc.read_text().strip()), out.read_text(errors="replace")


def identity_of(out: str) -> dict:
    """The last JSON object a `whoami --json` printed (an answer or an error), from a pane's
    output that may hold other lines (a terminal's carriage returns, a warning)."""
    text = out.replace("\r", "")
    starts = [i for i in range(len(text)) if text[i] == "{" and (i == 0 or text[i - 1] == "\n")]
    for i in reversed(starts):
        try:
            return json.JSONDecoder().raw_decode(text, i)[0]
        except json.JSONDecodeError:
            continue
    raise AssertionError(f"no JSON answer in {out!r}")


def file_made(path: Path) -> bool:
    return path.exists()
