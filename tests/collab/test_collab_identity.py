"""Who is calling is decided from facts (process tree, pane terminal), never the environment.

Each agent is a real process in a real pane of a private tmux server; the command is typed into
the pane with send-keys, so it runs where an agent's command runs.
"""

from __future__ import annotations

import subprocess

from tests.collab.collab_support import FORGED
from tests.support import a2a, proc_start, register_session


def whoami(pane, **kw):
    r = pane.run("whoami", "--json", **kw)
    assert r.code == 0, r.err
    return r.json


def test_a_command_in_a_managed_pane_is_that_session_whatever_its_environment(repo, panes):
    exec1 = panes.open("exec1", "executive")
    me = whoami(exec1)
    assert (me["session"], me["role"], me["via"]) == ("exec1", "executive", "process tree")
    assert whoami(exec1, env=FORGED)["session"] == "exec1"
    # A cleared environment, and a command two shells deep, change nothing either.
    assert whoami(exec1, prefix="env -i PATH=/usr/bin:/bin ")["session"] == "exec1"
    assert whoami(exec1, prefix="sh -c '\"$@\"; exit $?' sh ")["session"] == "exec1"
    # Outside every managed pane: the user, whatever the environment says.
    out = a2a("whoami", "--json", cwd=repo, env={"A2A_SESSION": "exec1", "A2A_ROLE": "executive"})
    assert out.json["is_user"] is True and out.json["session"] is None


def test_a_command_detached_from_the_pane_tree_is_still_known_by_its_terminal(repo, panes):
    w1 = panes.open("w1", "worker")
    me = whoami(w1, detach=True, env=FORGED)
    assert (me["session"], me["via"]) == ("w1", "terminal")


def test_a_reused_pid_does_not_make_a_session(repo, panes):
    # A pane process whose pid is recorded with another start time is another process.
    shell = panes.open("x", "worker", register=False)
    register_session(repo, "old", "executive", pane_id=None, pid=shell.pid,
                     start=proc_start(shell.pid) + 1, tty=None, socket=None)
    assert whoami(shell)["is_user"] is True


def test_a_dead_sessions_terminal_is_nobodys(repo, panes):
    # A session whose pane process is gone no longer owns its terminal number: the pty may now
    # be the user's (here: an unmanaged pane), even if the session was never marked exited.
    users_pane = panes.open("u", "worker", register=False)
    gone = subprocess.Popen(["sleep", "30"])
    start = proc_start(gone.pid)
    gone.kill()
    gone.wait()
    register_session(repo, "gone", "ideation", pane_id=None, pid=gone.pid, start=start,
                     tty=users_pane.tty, socket=None, state="busy")
    assert whoami(users_pane, detach=True)["is_user"] is True
    # ...while a live session's terminal does count (same setup, live pane process).
    register_session(repo, "live", "executive", pane_id=users_pane.pane_id,
                     pid=users_pane.pid, start=proc_start(users_pane.pid), tty=users_pane.tty,
                     socket=None)
    assert whoami(users_pane, detach=True)["session"] == "live"
