"""`a2a up` in real tmux: attaching from outside, switching from inside, quitting (the client
detaches, the agents live on) and coming back (the orchestrator resumes from the store)."""

from __future__ import annotations

import shlex
import uuid

import pytest

from a2a_tui.panes.orchestrator import lock_holder
from a2a_tui.repo import Repo
from tests.support import A2A, a2a, rows, tmux, wait_until

pytestmark = pytest.mark.tmux


@pytest.fixture
def terminal():
    """A stand-in for the user's terminal: a pane of another private tmux server, 80x24."""
    sock = f"a2a-term-{uuid.uuid4().hex[:8]}"

    def open_(command: str) -> str:
        tmux(sock, "new-session", "-d", "-s", "term", "-x", "80", "-y", "24", "sh", "-c",
             command)
        return "term:0"

    open_.sock = sock  # type: ignore[attr-defined]
    yield open_
    tmux(sock, "kill-server", check=False)


def a2a_cmd(*args: str) -> str:
    return shlex.join([*A2A, *args])


def clients(sock: str) -> list[str]:
    return tmux(sock, "list-clients", "-F", "#{client_session}", check=False).split()


def test_up_from_outside_tmux_quit_detaches_agents_live_on_and_up_resumes(repo, tmux_socket,
                                                                          terminal):
    session = Repo(repo).config().tmux_session
    # Outside tmux: $TMUX cleared, as in a plain terminal.
    term = terminal(f"cd {shlex.quote(str(repo))} &&"
                    f" TMUX= {a2a_cmd('up', '--tmux-socket', tmux_socket)};"
                    " echo UP-RETURNED; sleep 600")

    def shown() -> str:
        return tmux(terminal.sock, "capture-pane", "-p", "-t", term)

    wait_until(lambda: "Sessions" in shown() and lock_holder(Repo(repo)) is not None,
               timeout=20, what="the workbench, hosting the orchestrator, in the terminal")
    assert clients(tmux_socket) == [session]
    r = a2a("spawn", "worker", "--cli", "demo", "--tmux-socket", tmux_socket, "--json", "--",
            "--delay", "0.1", cwd=repo)
    assert r.code == 0, r.err
    agent_pane = r.json["pane"]
    wait_until(lambda: "w1" in shown() and "idle" in shown(), what="w1 idle on the screen")

    tmux(terminal.sock, "send-keys", "-t", term, "q")
    wait_until(lambda: "UP-RETURNED" in shown(), what="the terminal back from tmux")
    assert clients(tmux_socket) == []
    wait_until(lambda: lock_holder(Repo(repo)) is None, what="the orchestrator stopped")
    panes = tmux(tmux_socket, "list-panes", "-a", "-F", "#{pane_id} #{pane_dead}").split("\n")
    assert f"{agent_pane} 0" in panes  # the agent lives on
    assert rows(repo, "SELECT state FROM sessions WHERE id = 'w1'") == [{"state": "idle"}]

    # Down: a prompt waits in the queue. Up again: the orchestrator resumes and delivers it.
    r = a2a("inject", "w1", "after the restart", "--json", cwd=repo)
    n = r.json["dispatch"]
    assert rows(repo, "SELECT state FROM dispatches WHERE n = ?", (n,)) == [{"state": "queued"}]
    r = a2a("up", "--no-attach", "--tmux-socket", tmux_socket, "--json", cwd=repo)
    assert r.code == 0 and r.json["started"] is True, r.err
    wait_until(lambda: rows(repo, "SELECT state FROM dispatches WHERE n = ?", (n,))
               == [{"state": "done"}], timeout=20, what="the queued prompt delivered")
    # Once more: the running workbench is reused, not doubled.
    again = a2a("up", "--no-attach", "--tmux-socket", tmux_socket, "--json", cwd=repo).json
    assert again["started"] is False and again["pane"] == r.json["pane"]


def test_up_inside_the_same_tmux_server_switches_the_client(repo, tmux_socket, terminal):
    session = Repo(repo).config().tmux_session
    tmux(tmux_socket, "new-session", "-d", "-s", "mine", "-x", "80", "-y", "24", "sh")
    term = terminal(f"TMUX= tmux -L {tmux_socket} attach -t mine")
    wait_until(lambda: clients(tmux_socket) == ["mine"], what="a client on 'mine'")
    # Typed in the user's own pane of that server: $TMUX names this server.
    done = repo / "up.rc"
    tmux(tmux_socket, "send-keys", "-t", "mine", "-l",
         f"cd {shlex.quote(str(repo))} && {a2a_cmd('up', '--tmux-socket', tmux_socket)};"
         f" echo $? > {done}")
    tmux(tmux_socket, "send-keys", "-t", "mine", "Enter")
    wait_until(done.exists, timeout=20, what="`a2a up` to return")
    assert done.read_text().strip() == "0"
    wait_until(lambda: clients(tmux_socket) == [session], what="the client moved to the workbench")
    shown = lambda: tmux(terminal.sock, "capture-pane", "-p", "-t", term)  # noqa: E731
    wait_until(lambda: "Sessions" in shown(), timeout=20, what="the workbench on screen")
