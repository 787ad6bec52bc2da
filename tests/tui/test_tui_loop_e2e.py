"""The daily loop end to end, on a private tmux server and the user's own terminal (another
private server): the demo runs, the user detaches and work goes on, comes back with `a2a up`,
quits for good (confirmed), and `a2a down` cleans the demo up."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from a2a_tui.panes.orchestrator import lock_holder
from a2a_tui.repo import Repo
from a2a_tui.tmux import Tmux
from tests.support import (
    A2A,
    Terminal,
    a2a,
    attach_command,
    rows,
    tmux,
    wait_until,
    write_user_config,
)

pytestmark = pytest.mark.tmux


@pytest.fixture
def terminal(world):
    t = Terminal(env=world.env, size=(120, 40))
    yield t
    t.close()


def clients(sock: str) -> list[str]:
    return tmux(sock, "list-clients", "-F", "#{client_session}", check=False).split()


def test_demo_goes_on_while_detached_and_up_shows_it_then_quit_and_down(
        world, tmp_path, tmux_socket, terminal):
    # Room in the Events panel to see what happened while away (the user's layout setting).
    write_user_config(world, "[layout]\nevents_rows = 20\n")
    r = a2a("demo", "--no-attach", "--json", "--tmux-socket", tmux_socket, "--dir",
            str(tmp_path / "demo"), cwd=tmp_path, env={"A2A_DEMO_PACE": "0.1"})
    assert r.code == 0, r.out + r.err
    info = r.json
    root, session = Path(info["root"]), info["session"]
    assert info["down"] == shlex.join(["a2a", "down", "--repo", str(root), "--tmux-socket",
                                       tmux_socket]) and info["down"] in r.json["text"]
    # The demo's scenario runs until it waits for the user's answers: then it is quiet.
    wait_until(lambda: rows(root, "SELECT COUNT(*) AS n FROM inbox WHERE kind = 'report'")
               == [{"n": 2}], timeout=120, what="the demo's task done and reported")

    terminal.open(attach_command(tmux_socket, session))
    try:
        # Its status line (the panels follow the terminal's size once tmux has resized the
        # window to this client: until then it may still be drawn for an earlier one).
        wait_until(lambda: "orchestrator: pid" in terminal.screen(), timeout=45,
                   what="the workbench shown")
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{terminal.screen()}") from None
    orchestrator = lock_holder(Repo(root))
    assert orchestrator is not None
    terminal.keys("q")
    wait_until(lambda: "DETACHED" in terminal.screen(), what="the terminal back from tmux")
    assert clients(tmux_socket) == []

    # Away: a prompt injected now is delivered by the orchestrator, which never stopped.
    n = a2a("inject", "idea1", "!echo while-you-were-away", "--json", cwd=root).json["dispatch"]
    wait_until(lambda: rows(root, "SELECT state FROM dispatches WHERE n = ?", (n,))
               == [{"state": "done"}], timeout=30, what="the prompt delivered while detached")
    assert lock_holder(Repo(root)) == orchestrator

    # Back: `a2a up` attaches this terminal to the same workbench, which shows the delivery.
    terminal.type(shlex.join([*A2A, "up", "--repo", str(root), "--tmux-socket", tmux_socket]))
    try:
        wait_until(lambda: f"idea1 finished prompt #{n}" in terminal.screen(),
                   timeout=45, what=f"dispatch #{n} done, on the workbench (call toasts gone)")
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{terminal.screen()}") from None

    # Quit for good: asked first, told what stops; then the orchestrator is gone, the agents
    # are not.
    terminal.keys("Q")
    wait_until(lambda: "Stops:" in terminal.screen(), what="the quit question")
    shown = terminal.screen()
    assert "orchestrator" in shown and "Keeps running: the agents" in shown, shown
    terminal.keys("y")
    wait_until(lambda: lock_holder(Repo(root)) is None, timeout=20,
               what="the orchestrator stopped")
    wait_until(lambda: clients(tmux_socket) == [], what="the terminal detached")

    def windows() -> list[str]:
        return tmux(tmux_socket, "list-windows", "-t", f"={session}", "-F",
                    "#{window_name}").split()

    wait_until(lambda: not {"workbench", "orchestrator"} & set(windows()),
               what="the workbench and the orchestrator windows closed")
    # The agents' windows, named for session, role and state (idea1·ideation·idle).
    assert {"idea1", "exec1", "w1"} <= {w.split("·")[0] for w in windows()}

    # Down: the tmux session and the sample repository go.
    done = a2a("down", "--repo", str(root), "--yes", "--json", cwd=tmp_path)
    assert done.code == 0, done.out + done.err
    assert {e["session"] for e in done.json["ended"]} == {"idea1", "exec1", "w1"}
    assert not Tmux(tmux_socket).has_session(session)
    assert not root.exists()
