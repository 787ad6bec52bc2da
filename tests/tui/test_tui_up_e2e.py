"""`a2a up` in real tmux: attaching from outside, switching from inside, detaching (the client
goes; the workbench, the orchestrator and the agents live on, and deliver) and coming back."""

from __future__ import annotations

import shlex

import pytest

from a2a_tui.panes.orchestrator import lock_holder
from a2a_tui.repo import Repo
from tests.support import A2A, Terminal, a2a, rows, tmux, wait_until

pytestmark = pytest.mark.tmux


@pytest.fixture
def terminal():
    """A stand-in for the user's terminal: a pane of another private tmux server, 80x24."""
    t = Terminal()
    yield t
    t.close()


def a2a_cmd(*args: str) -> str:
    return shlex.join([*A2A, *args])


def clients(sock: str) -> list[str]:
    return tmux(sock, "list-clients", "-F", "#{client_session}", check=False).split()


def test_up_from_outside_tmux_q_detaches_and_delivery_goes_on(repo, tmux_socket, terminal):
    session = Repo(repo).config().tmux_session
    # Outside tmux: $TMUX cleared, as in a plain terminal.
    terminal.open(f"cd {shlex.quote(str(repo))} &&"
                  f" TMUX= {a2a_cmd('up', '--tmux-socket', tmux_socket)};"
                  " echo UP-RETURNED; sleep 600")
    wait_until(lambda: "Sessions" in terminal.screen() and lock_holder(Repo(repo)) is not None,
               timeout=20, what="the workbench in the terminal, the orchestrator beside it")
    assert clients(tmux_socket) == [session]
    orchestrator = lock_holder(Repo(repo))
    r = a2a("spawn", "worker", "--cli", "demo", "--tmux-socket", tmux_socket, "--json", "--",
            "--delay", "0.1", cwd=repo)
    assert r.code == 0, r.err
    agent_pane = r.json["pane"]
    wait_until(lambda: "w1" in terminal.screen() and "idle" in terminal.screen(),
               what="w1 idle on the screen")

    terminal.keys("q")
    wait_until(lambda: "UP-RETURNED" in terminal.screen(), what="the terminal back from tmux")
    assert clients(tmux_socket) == []
    told = terminal.screen()
    assert f"you left tmux session {session}: 1 agent(s) keep running and the orchestrator" \
           f" (pid {orchestrator}) delivers" in told, told
    # Detached: the workbench and the orchestrator run on, and deliver.
    live = tmux(tmux_socket, "list-panes", "-a", "-F", "#{pane_id} #{pane_dead}").split("\n")
    assert f"{agent_pane} 0" in live
    assert lock_holder(Repo(repo)) == orchestrator
    n = a2a("inject", "w1", "while you were away", "--json", cwd=repo).json["dispatch"]
    wait_until(lambda: rows(repo, "SELECT state FROM dispatches WHERE n = ?", (n,))
               == [{"state": "done"}], timeout=20, what="the prompt delivered while detached")

    # Up again: the same workbench (not a second one), and it shows what happened.
    again = a2a("up", "--no-attach", "--tmux-socket", tmux_socket, "--json", cwd=repo).json
    assert again["started"] is False and again["orchestrator_started"] is False
    assert again["orchestrator_pid"] == orchestrator
    wait_until(lambda: f"w1 finished prompt #{n}" in tmux(tmux_socket, "capture-pane", "-p",
                                                           "-t", again["pane"]),
               what="the delivery, in a sentence, on the workbench")


def test_up_inside_the_same_tmux_server_switches_the_client(repo, tmux_socket, terminal):
    session = Repo(repo).config().tmux_session
    tmux(tmux_socket, "new-session", "-d", "-s", "mine", "-x", "80", "-y", "24", "sh")
    terminal.open(f"TMUX= tmux -L {tmux_socket} attach -t mine")
    wait_until(lambda: clients(tmux_socket) == ["mine"], what="a client on 'mine'")
    # Typed in the user's own pane of that server: $TMUX names this server.
    done = repo / "up.rc"
    tmux(tmux_socket, "send-keys", "-t", "mine", "-l",
         f"cd {shlex.quote(str(repo))} && {a2a_cmd('up', '--tmux-socket', tmux_socket)};"
         f" echo $? > {done}")
    tmux(tmux_socket, "send-keys", "-t", "mine", "Enter")
    # `echo $? > up.rc` makes the file before it writes the code: wait for the code.
    wait_until(lambda: done.exists() and done.read_text().strip(), timeout=20,
               what="`a2a up` to return")
    assert done.read_text().strip() == "0"
    wait_until(lambda: clients(tmux_socket) == [session], what="the client moved to the workbench")
    wait_until(lambda: "Sessions" in terminal.screen(), timeout=20,
               what="the workbench on screen")


@pytest.mark.parametrize("attach", ["at once", "later"])
def test_the_workbench_fills_the_terminal_whatever_columns_and_lines_say(repo, tmux_socket,
                                                                         attach):
    """COLUMNS and LINES in the environment that starts the tmux server (a shell that exports
    them; Python's readline exports 80x24 from every process that imports it without a
    terminal, pytest's among them) reach every pane: a workbench started before the user
    attached drew itself 80x24 in a 120x40 terminal for good."""
    terminal = Terminal(size=(120, 40))
    env = {"COLUMNS": "80", "LINES": "24"}
    try:
        if attach == "later":
            r = a2a("up", "--no-attach", "--tmux-socket", tmux_socket, "--json", cwd=repo,
                    env=env)
            assert r.code == 0, r.err
            wait_until(lambda: "Sessions" in tmux(tmux_socket, "capture-pane", "-p", "-t",
                                                  r.json["pane"]),
                       timeout=20, what="the workbench drawn, detached")
            terminal.open(f"TMUX= tmux -L {tmux_socket} attach; sleep 600")
        else:
            terminal.open(f"cd {shlex.quote(str(repo))} && export COLUMNS=80 LINES=24 &&"
                          f" TMUX= {a2a_cmd('up', '--tmux-socket', tmux_socket)}; sleep 600")
        wait_until(lambda: "Sessions" in terminal.screen(), timeout=20,
                   what="the workbench in the terminal")
        told = tmux(tmux_socket, "show-environment", "-g", "COLUMNS", check=False)
        assert told.strip() == "COLUMNS=80", told   # the server took them from that shell
        # The workbench's own lines (its boxes' borders), not tmux's status line below them.
        wait_until(lambda: drawn(terminal.screen()) == (120, 39), timeout=10,
                   what="the workbench as large as the terminal (120x40, tmux's status line"
                        " taking one)")
    finally:
        terminal.close()


def drawn(screen: str) -> tuple[int, int]:
    """(width, height) of what the workbench drew: its widest box border, its last box line."""
    lines = screen.splitlines()
    boxes = [i for i, line in enumerate(lines) if line.lstrip().startswith(("╭", "╰", "│"))]
    width = max((len(lines[i].rstrip()) for i in boxes), default=0)
    return width, (boxes[-1] + 2 if boxes else 0)   # the footer line follows the last box


def test_up_again_with_another_editor_hands_it_to_the_running_workbench(repo, tmux_socket,
                                                                        tmp_path):
    """`export EDITOR=...; a2a up` on a session that already runs: the workbench (started
    with the old environment) opens the new editor on `N` (it opened the one it started with)."""
    def editor(name: str) -> str:
        script = tmp_path / name
        script.write_text(f"#!/bin/sh\necho {name} > {shlex.quote(str(tmp_path))}/ran\n")
        script.chmod(0o755)
        return str(script)

    first = a2a("up", "--no-attach", "--tmux-socket", tmux_socket, "--json", cwd=repo,
                env={"EDITOR": editor("old"), "VISUAL": ""})
    assert first.code == 0, first.err
    pane = first.json["pane"]
    wait_until(lambda: "Sessions" in tmux(tmux_socket, "capture-pane", "-p", "-t", pane),
               timeout=20, what="the workbench drawn")
    again = a2a("up", "--no-attach", "--tmux-socket", tmux_socket, "--json", cwd=repo,
                env={"EDITOR": editor("new"), "VISUAL": ""})
    assert again.json["started"] is False and again.json["pane"] == pane
    tmux(tmux_socket, "send-keys", "-t", pane, "N")
    ran = tmp_path / "ran"
    wait_until(lambda: ran.exists() and ran.read_text().strip(), timeout=20,
               what="an editor run on N")
    assert ran.read_text().strip() == "new"
