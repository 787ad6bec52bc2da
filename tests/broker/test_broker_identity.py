"""Who calls through the broker follows from the socket the request came in on: a session's
socket is that session, whatever its process says or computes about itself; a process that is
not of the session's pane is refused on it (SO_PEERCRED, the second check) and recorded."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

from a2a_tui import identity
from tests.support import (
    AgentProcess,
    broker_as,
    dispatch,
    events,
    inject,
    proc_start,
    register_session,
    rows,
    session_out,
    spawn,
    store,
    wait_state,
    wait_until,
)
from tests.support.broker import CLIENT, socket_of

# A process of the session that patches identity in its own interpreter and calls the CLI
# in-process: the attack of issue 27 ("Identity is judged inside the caller's own process").
PATCHED = """\
import a2a_tui.identity as identity
identity.resolve_caller = lambda store, pid=None: identity.Caller()   # "I am the user"
from a2a_tui import cli
raise SystemExit(cli.main(["whoami", "--json"]))
"""


def test_a_request_on_a_sessions_socket_is_that_session_whatever_the_process_claims(
        repo, serve):
    serve()
    AgentProcess(repo, "exec1", "executive", "status").go()
    forged = {"A2A_SESSION": "exec1", "A2A_ROLE": "executive", "A2A_CALLER": "user",
              "A2A_USER": "1", "TMUX_PANE": "%0"}
    r = broker_as(repo, "w1", "worker", "whoami", "--json", env=forged)
    assert r.code == 0, r.err
    assert r.json == {"session": "w1", "role": "worker", "actor": "session:w1",
                      "is_user": False, "via": "broker", "unidentified": None}


def test_patching_identity_in_the_client_process_changes_nothing(repo, serve):
    serve()
    p = AgentProcess(repo, "w1", "worker", argv=[sys.executable, "-c", PATCHED])
    r = p.go()
    assert r.code == 0, r.err
    assert r.json["session"] == "w1" and r.json["is_user"] is False, r.out
    assert r.json["via"] == "broker"


def test_a_process_outside_the_sessions_pane_is_refused_on_its_socket_and_recorded(
        repo, serve):
    serve()
    assert broker_as(repo, "w1", "worker", "whoami").code == 0
    AgentProcess(repo, "w2", "worker", "status").go()
    env = {**os.environ, "A2A_BROKER": str(socket_of(repo, "w1"))}
    # The user's own process (this test's child), and a process of session w2, on w1's socket.
    report = ("board", "report", "--title", "from w1", "--body", "I am w1")
    stranger = subprocess.run([*CLIENT, *report], cwd=repo, env=env,
                              capture_output=True, text=True, timeout=60)
    w2 = AgentProcess(repo, "w2", "worker", *report,
                      env={"A2A_BROKER": str(socket_of(repo, "w1"))}).go()
    for r in (stranger, w2):
        code = r.returncode if hasattr(r, "returncode") else r.code
        err = r.stderr if hasattr(r, "stderr") else r.err
        assert code == 1 and "[broker_peer_mismatch]" in err, err
        assert len(err.strip().splitlines()) == 1
    refused = events(repo, "broker_peer_mismatch")
    assert len(refused) == 2 and {e.session for e in refused} == {"w1"}
    assert all("not a process of session w1's pane" in e.payload["why"] for e in refused)
    assert not rows(repo, "SELECT id FROM board_items")   # nothing was reported for w1


def test_a_demo_worker_running_a2a_whoami_in_its_pane_gets_its_session(
        repo, tmux_socket, serve):
    serve()
    s = spawn(repo, tmux_socket)
    sid = s["session"]
    wait_state(repo, sid, "idle")
    # The pane is confined: what it writes for the test goes in its output folder.
    out, which = session_out(repo, sid) / "whoami.json", session_out(repo, sid) / "which"
    n = inject(repo, sid, f"!a2a whoami --json > {out}; command -v a2a > {which}")
    wait_until(lambda: dispatch(repo, n)["state"] == "done", timeout=60, what="the turn")
    me = json.loads(out.read_text())
    assert (me["session"], me["role"], me["via"], me["is_user"]) == (sid, "worker", "broker",
                                                                     False)
    assert which.read_text().strip() == str(repo / ".a2a" / "run" / sid / "bin" / "a2a")


def test_a_detached_python_script_in_a_demo_pane_that_patches_identity_is_still_the_session(
        repo, tmux_socket, serve):
    serve()
    sid = spawn(repo, tmux_socket, role="executive")["session"]
    wait_state(repo, sid, "idle")
    # The script and its answer in the session's output folder, which the confined pane sees.
    out = session_out(repo, sid) / "out.json"
    script = session_out(repo, sid) / "patch.py"
    script.write_text(PATCHED)
    line = (f"!setsid -f sh -c {shlex.quote(f'{sys.executable} {script} > {out}')}"
            " </dev/null >/dev/null 2>&1")
    n = inject(repo, sid, line)
    wait_until(lambda: dispatch(repo, n)["state"] == "done", timeout=60, what="the turn")
    me = wait_until(lambda: out.exists() and out.read_text().strip()
                    and json.loads(out.read_text()), timeout=30, what="the script's whoami")
    assert (me["session"], me["is_user"], me["via"]) == (sid, False, "broker")


def test_the_second_check_follows_the_process_tree_to_the_pane_and_its_start(repo):
    pane = subprocess.Popen(["sh", "-c", "sleep 60 & wait"])
    try:
        child = wait_until(lambda: _children(pane.pid), what="the pane's child")[0]
        register_session(repo, "w1", "worker", pid=pane.pid)
        register_session(repo, "w2", "worker", pid=pane.pid, start=proc_start(pane.pid) + 1)
        with store(repo) as s:
            assert identity.in_session(s, "w1", child) == "process tree"
            assert identity.in_session(s, "w1", pane.pid) == "process tree"
            assert identity.in_session(s, "w1", os.getpid()) is None   # the user's process
            assert identity.in_session(s, "w2", child) is None         # a pid reused
            assert identity.in_session(s, "nobody", child) is None
    finally:
        pane.kill()
        pane.wait()


def _children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                         text=True).stdout
    return [int(p) for p in out.split()]
