"""a2a's own tmux server, always: without `--tmux-socket` (or $A2A_TMUX_SOCKET) a2a's panes go
to a private server of a2a's (`tmux -L a2a`), never to the user's default one, where their own
sessions, hooks and key bindings live (and where a pane's process could reach them)."""

from __future__ import annotations

import subprocess

from a2a_tui.tmux import DEFAULT_SOCKET, socket_from_env
from tests.support import a2a, tmux


def test_with_nothing_named_a2a_uses_its_own_server(monkeypatch):
    monkeypatch.delenv("A2A_TMUX_SOCKET", raising=False)
    assert socket_from_env(None) == DEFAULT_SOCKET == "a2a"
    monkeypatch.setenv("A2A_TMUX_SOCKET", "mine")
    assert socket_from_env(None) == "mine" and socket_from_env("given") == "given"


def test_a_spawn_without_a_socket_never_lands_on_the_users_default_server(repo, world):
    # The user's own default server, with a session of theirs (TMUX_TMPDIR is the test's own).
    subprocess.run(["tmux", "-f", "/dev/null", "new-session", "-d", "-s", "users-own"],
                   check=True, env=world.env)
    try:
        r = a2a("spawn", "worker", "--cli", "demo", "--json", cwd=repo)
        assert r.code == 0, r.out + r.err
        assert r.json["tmux_socket"] == "a2a"
        panes = tmux("a2a", "list-panes", "-a", "-F", "#{pane_id}")
        assert r.json["pane"] in panes.split()
        default = subprocess.run(["tmux", "list-panes", "-a", "-F", "#{session_name}"],
                                 capture_output=True, text=True, env=world.env).stdout.split()
        assert default == ["users-own"], default        # nothing of a2a's there
    finally:
        subprocess.run(["tmux", "kill-server"], env=world.env, capture_output=True)
        subprocess.run(["tmux", "-L", "a2a", "kill-server"], env=world.env, capture_output=True)
