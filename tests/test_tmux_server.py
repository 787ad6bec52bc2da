"""a2a's own tmux server (issue 37): Esc as quick as any key. tmux waits `escape-time` (500 ms
by default) after an Esc for the rest of a sequence, so Esc came 0.7 s late and an Esc followed
quickly by Tab arrived as Alt-Tab. a2a sets a short one on its own server, by arguments, as the
server starts; the user's default server and tmux config are never touched."""

from __future__ import annotations

import sys

import pytest

from a2a_tui.tmux import Tmux
from tests.support import tmux

pytestmark = pytest.mark.tmux


def escape_time(sock: str) -> int:
    return int(tmux(sock, "show-options", "-s", "-v", "escape-time").strip())


def test_a2as_server_waits_a_short_escape_time_after_esc(world, tmux_socket, tmp_path):
    t = Tmux(tmux_socket)
    t.new_pane("a2a-x", [sys.executable, "-c", "import time; time.sleep(60)"], str(tmp_path))
    assert escape_time(tmux_socket) <= 10
    # A window opened on a server that a2a started another way gets it too.
    t.kill_session("a2a-x")
    t.open_window("a2a-y", str(tmp_path), "w")
    assert escape_time(tmux_socket) <= 10
