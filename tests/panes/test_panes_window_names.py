"""An agent's window is named after its session only while the pane is that session's: a pane id
a session once had (tmux counts pane ids again from %0 after its server restarts) may now be the
user's own window, the shell `w` opened, and keeps its name (issue 37: `w1·worker·exited`)."""

from __future__ import annotations

import pytest

from a2a_tui.panes.windows import WindowNames
from a2a_tui.tmux import SESSION_TAG, Tmux
from tests.support import register_session, store

pytestmark = pytest.mark.tmux


def names(tmux: Tmux) -> dict[str, str]:
    out = tmux.server.cmd("list-panes", "-a", "-F", "#{pane_id} #{window_name}").stdout
    return dict(line.split(" ", 1) for line in out)


def test_only_a_sessions_own_pane_is_named_after_it(repo, tmux_socket):
    tmux = Tmux(tmux_socket)
    users = tmux.open_window("a2a-x", str(repo), "T-1-a1")          # the user's shell
    agent = tmux.new_pane("a2a-x", ["sleep", "60"], str(repo)).pane_id
    tmux.set_pane_option(agent, SESSION_TAG, "w2")
    register_session(repo, "w1", pane_id=users, socket=tmux_socket, tmux_session="a2a-x",
                     state="exited")
    register_session(repo, "w2", pane_id=agent, socket=tmux_socket, tmux_session="a2a-x")
    with store(repo) as s:
        WindowNames(tmux).show(s)
    shown = names(tmux)
    assert shown[users] == "T-1-a1"
    assert shown[agent] == "w2·worker·idle"
