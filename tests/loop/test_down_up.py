"""`a2a down` ends a repository's a2a tmux session and keeps its store and worktrees (asking
first when agents are at work); `a2a up` where there is no a2a repository says what to do and
which a2a sessions run."""

from __future__ import annotations

from pathlib import Path

import pytest

from a2a_tui.panes.orchestrator import lock_holder
from a2a_tui.repo import Repo
from a2a_tui.tmux import Tmux
from tests.support import (
    a2a,
    add_ready_card,
    events,
    inject,
    make_repo,
    rows,
    session,
    wait_state,
    wait_until,
)

pytestmark = pytest.mark.tmux


def test_down_asks_when_agents_work_then_ends_the_session_and_keeps_the_rest(repo, tmux_socket):
    add_ready_card(repo)
    worktree = Path(a2a("claim", "T-1", "--json", cwd=repo).json["worktree"])
    up = a2a("up", "--no-attach", "--tmux-socket", tmux_socket, "--json", cwd=repo).json
    w1 = a2a("spawn", "worker", "--cli", "demo", "--attempt", "T-1-a1", "--tmux-socket",
             tmux_socket, "--json", "--", "--delay", "30", cwd=repo).json["session"]
    wait_state(repo, w1, "idle")
    inject(repo, w1, "a long turn")
    wait_state(repo, w1, "busy")
    tmux_session = up["session"]

    r = a2a("down", "--tmux-socket", tmux_socket, "--json", cwd=repo)  # no terminal: no
    assert r.code == 1 and r.json["error"]["code"] == "agents_busy", r.out
    assert w1 in r.json["error"]["message"]
    assert Tmux(tmux_socket).has_session(tmux_session) and lock_holder(Repo(repo)) is not None
    assert session(repo, w1)["state"] == "busy" and not events(repo, "session_ended")

    r = a2a("down", "--tmux-socket", tmux_socket, "--yes", "--json", cwd=repo)
    assert r.code == 0, r.out + r.err
    assert r.json["orchestrator_stopped"] == up["orchestrator_pid"] and r.json["killed"]
    assert not Tmux(tmux_socket).has_session(tmux_session)
    assert lock_holder(Repo(repo)) is None
    [ended] = events(repo, "session_ended", session=w1)
    assert ended.payload["ended_by"] == "user" and ended.payload["from"] == "busy"
    assert session(repo, w1)["state"] == "exited"
    assert rows(repo, "SELECT state FROM dispatches") == [{"state": "ended"}]
    # Kept: the worktree, the attempt, the store; `a2a up` starts again from it.
    assert worktree.is_dir() and rows(repo, "SELECT state FROM attempts") == [
        {"state": "claimed"}]
    again = a2a("up", "--no-attach", "--tmux-socket", tmux_socket, "--json", cwd=repo)
    assert again.code == 0 and again.json["started"] and again.json["orchestrator_started"]


def test_up_outside_a_repository_names_the_running_a2a_sessions(world, repo, tmux_socket,
                                                                 tmp_path):
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    r = a2a("up", "--tmux-socket", tmux_socket, "--json", cwd=nowhere)
    assert r.code == 1 and r.json["error"]["code"] == "not_a_repo"
    assert "`a2a init`" in r.json["error"]["message"]
    assert "No a2a session runs" in r.json["error"]["message"]

    up = a2a("up", "--no-attach", "--tmux-socket", tmux_socket, "--json", cwd=repo).json
    plain = make_repo(tmp_path / "plain", env=world.env)  # a git repository, not initialised
    for where, code in ((nowhere, "not_a_repo"), (plain, "not_initialized")):
        r = a2a("up", "--tmux-socket", tmux_socket, "--json", cwd=where)
        assert r.code == 1 and r.json["error"]["code"] == code
        message = r.json["error"]["message"]
        assert f"{up['session']} ({repo}: `a2a up --repo {repo}`)" in message, message
        assert r.json["error"]["details"]["running"] == [
            {"root": str(repo), "session": up["session"]}]
    text = a2a("up", "--tmux-socket", tmux_socket, cwd=plain).err
    assert text.count("\n") == 1 and "a2a init" in text


@pytest.mark.parametrize("folder", ["plain", "git"])
def test_down_where_the_demo_was_typed_ends_that_demo(world, tmux_socket, tmp_path, folder):
    """`a2a demo` then `a2a down` in the same folder: the demo ends and its sample repository
    goes. The folder is a plain one, or a git repository with no a2a state (the README's: the
    clone of a2a itself). Anywhere else, the one error line gives the exact command."""
    here, elsewhere_ = tmp_path / "here", tmp_path / "elsewhere"
    if folder == "git":
        make_repo(here, env=world.env)
    else:
        here.mkdir()
    elsewhere_.mkdir()
    env = {"A2A_TMUX_SOCKET": tmux_socket, "A2A_DEMO_PACE": "30"}
    demo = a2a("demo", "--no-attach", "--json", cwd=here, env=env)
    assert demo.code == 0, demo.err
    root = Path(demo.json["root"])
    assert "`a2a down` here" in demo.json["text"] and str(root) in demo.json["text"]
    # The director's first words name the sample repository.
    first = wait_until(lambda: events(root, "demo_step"), timeout=30, what="the narration")
    assert str(root) in first[0].payload["text"]

    lost = a2a("down", "--json", cwd=elsewhere_, env=env)
    assert lost.code == 1 and lost.json["error"]["code"] == "not_a_repo"
    assert f"`a2a down --repo {root}`" in lost.json["error"]["message"], lost.json
    assert root.is_dir()

    r = a2a("down", "--yes", cwd=here, env=env)
    assert r.code == 0, r.err
    assert f"removed the demo repository {root}" in r.out
    assert not root.exists()
    assert not Tmux(tmux_socket).has_session(demo.json["session"])
