"""Orchestration (seed 003 三.10), the workbench: detached, it and the orchestrator go on
delivering."""

from __future__ import annotations

import shlex

import pytest

from a2a_tui.panes.orchestrator import lock_holder
from a2a_tui.repo import Repo
from tests.scenarios.switches import scenario
from tests.support import A2A, Terminal, a2a, dispatch, spawn, wait_state, wait_until


@pytest.fixture
def terminal():
    """The user's terminal: a pane of another private tmux server."""
    t = Terminal()
    yield t
    t.close()


@scenario("q_detaches")
def test_a_detached_workbench_goes_on_delivering(repo, tmux_socket, terminal):
    up = shlex.join([*A2A, "up", "--tmux-socket", tmux_socket])
    terminal.open(f"cd {shlex.quote(str(repo))} && TMUX= {up}; echo UP-RETURNED; sleep 600")
    wait_until(lambda: "Sessions" in terminal.screen() and lock_holder(Repo(repo)) is not None,
               timeout=30, what="the workbench in the terminal, the orchestrator beside it")
    orchestrator = lock_holder(Repo(repo))
    sid = spawn(repo, tmux_socket, "--delay", "0.1")["session"]
    wait_state(repo, sid, "idle")
    terminal.keys("q")
    wait_until(lambda: "UP-RETURNED" in terminal.screen(), what="the terminal back from tmux")
    # Away: the orchestrator runs on and delivers.
    assert lock_holder(Repo(repo)) == orchestrator
    n = a2a("inject", sid, "while you were away", "--json", cwd=repo).json["dispatch"]
    wait_until(lambda: dispatch(repo, n)["state"] == "done", what="delivered while detached")
