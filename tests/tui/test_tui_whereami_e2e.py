"""Always knowing where one is (issue 28), in real tmux: each agent's window is named for its
session, role and state (and queue, and pause) from the same signals that move it; in a2a's
tmux session F12 goes back to the workbench and its status line says so (that session's
options alone); after `q` the terminal is told the full command that comes back, and where."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from a2a_tui.repo import Repo
from tests.support import A2A, Terminal, a2a, tmux, wait_until

pytestmark = pytest.mark.tmux


def window_names(sock: str, session: str) -> list[str]:
    return tmux(sock, "list-windows", "-t", f"={session}", "-F", "#{window_name}").split()


def current_window(sock: str, session: str) -> str:
    return tmux(sock, "display-message", "-p", "-t", f"={session}:", "#{window_name}").strip()


@pytest.fixture
def terminal(world):
    t = Terminal(env=world.env, size=(120, 36))
    yield t
    t.close()


def test_windows_say_who_and_how_f12_goes_back_and_q_says_the_way_back(repo, tmux_socket,
                                                                     terminal):
    up = a2a("up", "--no-attach", "--tmux-socket", tmux_socket, "--json", cwd=repo).json
    session = up["session"]
    r = a2a("spawn", "worker", "--cli", "demo", "--tmux-socket", tmux_socket, "--json", "--",
            "--delay", "0.1", cwd=repo)
    assert r.code == 0, r.err
    agent = r.json["pane"]
    wait_until(lambda: "w1·worker·idle" in window_names(tmux_socket, session), timeout=30,
               what="w1's window named for its session, role and state")
    # Busy with a queue behind it, then paused: the name follows.
    assert a2a("inject", "w1", "#delay=4 a long turn", cwd=repo).code == 0
    assert a2a("inject", "w1", "next", cwd=repo).code == 0
    wait_until(lambda: "w1·worker·busy·q1" in window_names(tmux_socket, session), timeout=20,
               what="w1 busy with one queued")
    assert a2a("pause", "w1", cwd=repo).code == 0
    wait_until(lambda: any(n.startswith("w1·worker·") and n.endswith("·⏸")
                           for n in window_names(tmux_socket, session)), timeout=20,
               what="w1 shown paused")

    # The way back: a key of a2a's session alone, and its status line says it.
    assert "F12: workbench" in tmux(tmux_socket, "show-options", "-v", "-t", f"={session}:",
                                    "status-left")
    assert "F12" not in tmux(tmux_socket, "show-options", "-gv", "status-left")
    assert "F12" not in tmux(tmux_socket, "list-keys", "-T", "root")
    # The user's terminal, outside tmux, comes in through `a2a up`.
    up_cmd = shlex.join([*A2A, "up", "--tmux-socket", tmux_socket])
    terminal.open(f"cd {shlex.quote(str(repo))} && TMUX= {up_cmd}; echo DETACHED; exec sh")
    wait_until(lambda: "Sessions" in terminal.screen(), timeout=30, what="the workbench")
    tmux(tmux_socket, "select-window", "-t", agent)
    wait_until(lambda: current_window(tmux_socket, session).startswith("w1·"),
               what="the agent's window shown")
    terminal.keys("F12")
    wait_until(lambda: current_window(tmux_socket, session) == "workbench",
               what="F12 back on the workbench")

    # q: the terminal is told, by full path, how to come back and end it.
    terminal.keys("q")
    wait_until(lambda: "DETACHED" in terminal.screen(), what="the terminal back")
    told = terminal.screen()
    a2a_path = str(Path(sys.executable).parent / "a2a")
    assert f"back:  {a2a_path} up --repo {shlex.quote(str(repo))}" in told, told
    assert f"end:   {a2a_path} down --repo {shlex.quote(str(repo))}" in told, told
    assert Repo(repo).config().tmux_session == session
