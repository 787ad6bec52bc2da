"""A command the agent detaches from itself (setsid, no terminal) is still the agent's.

Through the broker (an agent's `a2a`, from a confined pane as every session runs by default) it
is the session of its socket, its process tree the second check: the orphan goes to the
sandbox's own init, inside the pane's tree. Called directly (A2A_BROKER unset), which only an
unconfined session can do (a confined one has no store in sight: tests/boundary), the CLI is
launched as a child subreaper, so the orphan stays inside the pane's process tree and the
process tree places it.
"""

from __future__ import annotations

import json
import shlex
import sys

import pytest

from a2a_tui.confine import probe
from tests.support import (
    dispatch,
    inject,
    session_out,
    spawn,
    wait_state,
    wait_until,
    write_user_config,
)


@pytest.mark.parametrize("route", ["broker", "direct"])
def test_a_detached_command_is_still_attributed_to_its_session(world, repo, tmux_socket, serve,
                                                                route):
    if route == "direct":
        write_user_config(world, "[confinement]\nenabled = false\n")
    serve()
    s = spawn(repo, tmux_socket, role="executive")
    sid = s["session"]
    # (The broker's route needs no confinement: on a machine that cannot confine, the
    # session still has its own socket.)
    assert s["confinement"]["confined"] is (route == "broker" and probe().available)
    wait_state(repo, sid, "idle")
    out = session_out(repo, sid) / "whoami.json"
    unset = ["env", "-u", "A2A_BROKER"] if route == "direct" else []
    whoami = shlex.join([*unset, sys.executable, "-m", "a2a_tui", "whoami", "--json"])
    # Detached: new session, no controlling terminal, stdio away from the pane, and the shell
    # that started it gone before it asks who it is.
    line = (f"!setsid -f sh -c {shlex.quote(f'sleep 0.5; {whoami} > {out}')}"
            " </dev/null >/dev/null 2>&1")
    n = inject(repo, sid, line)
    wait_until(lambda: dispatch(repo, n)["state"] == "done", timeout=30, what="the turn")
    me = wait_until(lambda: out.exists() and out.read_text().strip() and
                    json.loads(out.read_text()), timeout=20, what="the detached whoami")
    assert me["session"] == sid and me["role"] == "executive"
    assert me["via"] == ("process tree" if route == "direct" else "broker")
