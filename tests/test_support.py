"""The World the tests and benchmarks run in is private and leaves nothing behind, and a
session registered without a CLI is recorded as a launch records it."""

from __future__ import annotations

import os
import subprocess

from tests.support import (
    World,
    a2a,
    events,
    process_alive,
    register_session,
    session,
    tmux,
    wait_until,
)


def test_a_world_is_private_and_its_close_leaves_nothing(world):
    outer = dict(os.environ)
    with World() as w:
        w.tmux("new-session", "-d", "-s", "x", "sleep 600")
        server = int(w.tmux("display", "-p", "-t", "x", "#{pid}"))
        socket = w.tmux_tmp / f"tmux-{os.getuid()}" / w.sock
        assert socket.exists() and w.sock.startswith("a2a-test-")
        assert w.git("config", "user.email") == "test@example.com"
        assert w.git("rev-parse", "--show-toplevel") == str(w.repo)
        assert w.a2a("status", "--json").code == 0
        env = w.env
        assert env["HOME"] == str(w.home) and env["TMUX_TMPDIR"] == str(w.tmux_tmp)
        # The server is the world's alone: from the test's tmux folder, that name has no server.
        assert "x:" in w.tmux("list-sessions")
        assert tmux(w.sock, "list-sessions", check=False) == ""
    wait_until(lambda: not process_alive(server), timeout=5, what="the tmux server to end")
    assert not w.tmux_tmp.exists() and not w.base.exists()
    assert dict(os.environ) == outer  # without enter(), this process is left alone


def test_a_registered_session_is_recorded_as_a_launch(repo):
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        register_session(repo, "w7", "worker", pid=sleeper.pid, pane_id="%9", tty="/dev/null",
                         state="busy")
        (launching,) = events(repo, "session_launching", session="w7")
        (launched,) = events(repo, "session_launched", session="w7")
        row = session(repo, "w7")
        assert row["launch_seq"] == launching.seq == launched.payload["launch_seq"]
        assert (row["pane_pid"], row["pane_id"], row["state"]) == (sleeper.pid, "%9", "busy")
        assert launched.payload["pid_start"] == row["pane_pid_start"] is not None
        listed = a2a("sessions", "--json", cwd=repo).json
        assert [(s["session"], s["state"]) for s in listed] == [("w7", "busy")]
    finally:
        sleeper.kill()
        sleeper.wait()
