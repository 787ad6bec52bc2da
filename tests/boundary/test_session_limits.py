"""A session's own limits: a fork bomb and a memory hog from a worker's shell stop at the user's
`[confinement.limits]` (processes and memory of its group; each private tmpfs sized), and
another session still answers. Bounded on purpose (400 processes, 768 MiB): without the limits
they would finish, harmlessly, and the test fails.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.boundary.pane import Attacker
from tests.support import wait_until, write_user_config

pytestmark = pytest.mark.tmux

BOMB = ("import os, time\nmade = 0\nfor _ in range(400):\n    try:\n        pid = os.fork()\n"
        "    except OSError:\n        break\n    if pid == 0:\n        time.sleep(20)\n"
        "        os._exit(0)\n    made += 1\nprint('FORKED', made, flush=True)\n")
HOG = ("held = []\nfor i in range(1, 49):\n    held.append(bytearray(16 << 20))\n"
       "    print('HELD', i * 16, flush=True)\n")


@pytest.mark.parametrize("mode", ["confined", "unconfined"])
def test_a_fork_bomb_and_a_memory_hog_in_a_session_stop_at_its_limits(world, repo, mode):
    write_user_config(world, "[confinement]\n" + ("enabled = false\n" if mode == "unconfined"
                                                  else "")
                      + "[confinement.limits]\nsession_pids = 96\nsession_memory_mb = 300\n"
                      "tmpfs_mb = 64\n")
    a = Attacker(world, mode)
    py = shlex.quote(sys.executable)
    if mode == "confined":   # the private /tmp is sized: 64 MiB, not half the RAM
        _, df = a.run("df -k /tmp | tail -1")
        assert int(df.split()[1]) <= 64 * 1024, df
    (a.out / "bomb.py").write_text(BOMB)    # its own output folder: the session reads it
    (a.out / "hog.py").write_text(HOG)
    _, bomb = a.run(f"{py} {a.out}/bomb.py", timeout=60)
    forked = int(bomb.split("FORKED")[1].split()[0]) if "FORKED" in bomb else 0
    _, hog = a.run(f"{py} {a.out}/hog.py", timeout=60)
    held = [int(w.split()[1]) for w in hog.splitlines() if w.startswith("HELD")]
    assert forked < 96 and max(held, default=0) < 300, (forked, held, bomb[-300:], hog[-300:])
    # Another session still answers.
    b = Attacker(world, mode)
    code, said = b.run("echo alive")
    assert code == 0 and "alive" in said


def test_a_sessions_limits_group_is_removed_when_its_process_exits(world, repo):
    """The group a session joins (its cgroup folders) is named in its launch record and removed
    once its pane's process has exited, not left until a later launch's sweep."""
    world.serve()                      # the orchestrator watches the pane's process
    a = Attacker(world, "confined")
    folders = _groups(world, a)
    world.tmux("kill-pane", "-t", a.pane)
    wait_until(lambda: world.session(a.sid)["state"] == "exited", timeout=20,
               what=f"{a.sid} exited")
    wait_until(lambda: not any(f.exists() for f in folders), timeout=10,
               what=f"{folders} removed")


def test_a_group_still_holding_a_process_at_exit_is_removed_once_that_process_ends(world,
                                                                                   repo):
    """The pane's process exits while another process of the session still runs in its group
    (the kernel refuses to remove a group that holds one): the orchestrator tries again until
    it is empty, not once and then never (under load, the sandbox's own processes outlived the
    pane's by a moment and the group stayed)."""
    world.serve()
    a = Attacker(world, "unconfined")    # no pid namespace: a process may outlive the pane
    folders = _groups(world, a)
    a.run("setsid sleep 3 </dev/null >/dev/null 2>&1 &")
    world.tmux("kill-pane", "-t", a.pane)
    wait_until(lambda: world.session(a.sid)["state"] == "exited", timeout=20,
               what=f"{a.sid} exited")
    assert any(f.exists() for f in folders)   # the sleep still holds it
    wait_until(lambda: not any(f.exists() for f in folders), timeout=20,
               what=f"{folders} removed once the sleep ended")


def _groups(world, a: Attacker) -> list[Path]:
    """The cgroup folders `a`'s launch record names (each there now); skips where the machine
    has no cgroup to give (setrlimit alone)."""
    launch = world.events("session_launching", session=a.sid)[-1].payload
    caps = launch["confinement"]["limits"]
    if caps["engine"] == "rlimit":
        pytest.skip(f"no cgroup on this machine: {caps}")
    folders = [Path(f) for f in caps.get("folders", [])]
    assert folders and all(f.is_dir() for f in folders), caps
    return folders
