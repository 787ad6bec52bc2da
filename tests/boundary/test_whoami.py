"""`a2a whoami` from a pane never says "the user", by any route: the CLI, a Python script that
patches identity and calls a2a in-process, an orphan (`setsid -f`) with a terminal of its own
(`script`). Inside the confinement there is no store to reach (`.a2a/` is hidden): every route
ends in an error. The broker's own routes (the thin client) are test_broker.py's.
"""

from __future__ import annotations

import shlex
import sys

import pytest

from tests.boundary.pane import MODES, Attacker

pytestmark = pytest.mark.tmux
PATCHED = ("import a2a_tui.identity as i, a2a_tui.cli as c;"
           " i.resolve_caller = lambda *a, **k: i.Caller(); c.main(['whoami'])")


@pytest.mark.parametrize("mode", MODES)
def test_whoami_is_never_the_user(world, repo, mode):
    a = Attacker(world, mode)
    py = shlex.quote(sys.executable)
    routes = {
        "cli": f"cd {repo} && {py} -m a2a_tui whoami",
        "patched": f"cd {repo} && {py} -c {shlex.quote(PATCHED)}",
        "orphan with a pty": (f"cd {repo} && setsid -f script -qec "
                              f"{shlex.quote(f'{py} -m a2a_tui whoami')} {a.out}/orphan.log"
                              f" </dev/null >/dev/null 2>&1; sleep 3; cat {a.out}/orphan.log"),
    }
    said = {name: a.run(cmd) for name, cmd in routes.items()}
    if a.confined:
        for name, (_, out) in said.items():
            assert "the user" not in out, (name, out)
            assert "not_initialized" in out or "has no a2a state" in out, (name, out)
    else:
        assert "the user" in said["patched"][1], said
