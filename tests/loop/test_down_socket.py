"""`a2a down` finds the tmux server `a2a up` used, whatever terminal it is typed in (the store
records it), and what it says of each session it ended is what it saw (issue 28)."""

from __future__ import annotations

import shlex
import subprocess

import pytest

from a2a_tui.panes.orchestrator import lock_holder
from a2a_tui.repo import Repo
from a2a_tui.tmux import DEFAULT_SOCKET, Tmux
from tests.support import A2A, a2a, register_session, tmux, wait_state, wait_until

pytestmark = pytest.mark.tmux


def test_up_inside_another_tmux_server_then_down_from_outside_ends_it_all(world, repo):
    # The user's own tmux server, on its own socket (-L), with a shell in it.
    sock = world.sock
    tmux(sock, "new-session", "-d", "-s", "mine", "-x", "120", "-y", "30", "sh")
    rc = repo / "up.rc"
    env = " ".join(f"{k}={shlex.quote(v)}" for k, v in world.setenv.items())
    # Typed in that shell: no --tmux-socket; $TMUX names the server it runs in.
    tmux(sock, "send-keys", "-t", "mine", "-l",
         f"cd {shlex.quote(str(repo))} && env -u A2A_TMUX_SOCKET {env}"
         f" {shlex.join([*A2A, 'up', '--no-attach'])}; echo $? > {rc}")
    tmux(sock, "send-keys", "-t", "mine", "Enter")
    wait_until(rc.exists, timeout=60, what="`a2a up` typed inside tmux to return")
    assert rc.read_text().strip() == "0"
    session = Repo(repo).config().tmux_session
    wait_until(lambda: lock_holder(Repo(repo)) is not None, what="the orchestrator")
    # a2a's session is on a2a's own server (issue 22), never the one the terminal is inside:
    # the user's sessions, hooks and key bindings live there.
    assert not Tmux(sock).has_session(session)
    own = world.env | {"TMUX": ""}
    windows = subprocess.run(["tmux", "-L", DEFAULT_SOCKET, "list-windows", "-t", f"={session}",
                              "-F", "#{window_name}"], env=own, capture_output=True,
                             text=True).stdout.split()
    assert {"workbench", "orchestrator"} <= set(windows)

    # From outside tmux (no $TMUX, no --tmux-socket): down ends that session on that server.
    r = a2a("down", "--yes", "--json", cwd=repo)
    assert r.code == 0, r.out + r.err
    assert r.json["killed"] is True, r.json
    assert subprocess.run(["tmux", "-L", DEFAULT_SOCKET, "has-session", "-t", f"={session}"],
                          env=own, capture_output=True).returncode != 0
    # The user's own session on their server stays.
    assert subprocess.run(["tmux", "-L", sock, "has-session", "-t", "=mine"],
                          env=world.env).returncode == 0
    assert lock_holder(Repo(repo)) is None


def test_down_says_exactly_which_process_did_not_exit(world, repo, tmux_socket):
    up = a2a("up", "--no-attach", "--tmux-socket", tmux_socket, "--json", cwd=repo).json
    w1 = a2a("spawn", "worker", "--cli", "demo", "--tmux-socket", tmux_socket, "--json",
             cwd=repo).json["session"]
    wait_state(repo, w1, "idle")
    # A process in a pane of a2a's session that ignores the hang-up.
    pane = tmux(tmux_socket, "new-window", "-d", "-t", f"={up['session']}:", "-P", "-F",
                "#{pane_id} #{pane_pid}", "sh -c 'trap \"\" HUP; exec sleep 60' ").split()
    register_session(repo, "stubborn", pid=int(pane[1]), pane_id=pane[0], socket=tmux_socket,
                     tmux_session=up["session"])
    r = a2a("down", "--tmux-socket", tmux_socket, "--yes", cwd=repo)
    assert r.code == 0, r.out + r.err
    lines = r.out.splitlines()
    assert f"ended {w1}" in lines, r.out
    [stubborn] = [x for x in lines if x.startswith("ended stubborn")]
    assert f"its process (pid {pane[1]}) had not exited 10 s after its hang-up" in stubborn
    assert "may linger" not in r.out
