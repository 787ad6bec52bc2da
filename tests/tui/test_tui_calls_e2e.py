"""a2a calls the user, end to end: `a2a up` on a private tmux server, the user's terminal
attached and in an agent's window; the agent asks a question on the board. tmux flags the
workbench window (its bell) and a2a's status line counts what waits; once per thing. The
settings turn both off."""

from __future__ import annotations

import shlex

import pytest

from a2a_tui.repo import Repo
from tests.support import (
    Terminal,
    a2a,
    attach_command,
    events,
    inject,
    rows,
    tmux,
    wait_state,
    wait_until,
    write_user_config,
)

pytestmark = pytest.mark.tmux


@pytest.fixture
def terminal(world):
    t = Terminal(env=world.env, size=(120, 30))
    yield t
    t.close()


def ask(repo, sid: str, title: str) -> int:
    """Have the demo agent ask the user (the command runs in its pane, as its own)."""
    return inject(repo, sid, f"!a2a board ask --title {shlex.quote(title)} --option y=Yes"
                             " --option n=No --recommend y --why 'the tests pass'")


def up_with_an_agent(repo, sock: str) -> tuple[str, str, str]:
    """`a2a up` (not attached) and a demo executive exec1; (session, workbench pane, exec1's)."""
    r = a2a("up", "--no-attach", "--tmux-socket", sock, "--json", cwd=repo)
    assert r.code == 0, r.out + r.err
    s = a2a("spawn", "executive", "--cli", "demo", "--session", "exec1", "--tmux-socket", sock,
            "--json", "--", "--delay", "0.1", cwd=repo)
    assert s.code == 0, s.err
    wait_state(repo, "exec1", "idle")
    return r.json["session"], r.json["pane"], s.json["pane"]


def window_flag(sock: str, pane: str) -> str:
    return tmux(sock, "display", "-p", "-t", pane, "#{window_bell_flag}").strip()


def count(sock: str, session: str) -> str:
    return tmux(sock, "show-options", "-q", "-v", "-t", f"={session}:", "@a2a_waiting").strip()


def test_a_question_while_the_user_is_in_an_agent_pane_flags_the_workbench_and_counts(
        repo, tmux_socket, terminal):
    session, workbench, agent = up_with_an_agent(repo, tmux_socket)
    terminal.open(attach_command(tmux_socket, session))
    wait_until(lambda: "Sessions" in terminal.screen(), timeout=20, what="the workbench shown")
    tmux(tmux_socket, "select-window", "-t", agent)  # the user goes to exec1's window
    wait_until(lambda: tmux(tmux_socket, "display", "-p", "-t", agent, "#{window_active}")
               .strip() == "1", what="the user in exec1's window")
    assert window_flag(tmux_socket, workbench) == "0" and count(tmux_socket, session) == ""

    ask(repo, "exec1", "Ship it?")
    wait_until(lambda: window_flag(tmux_socket, workbench) == "1", timeout=20,
               what="tmux's bell flag on the workbench window")
    assert count(tmux_socket, session) == "1"
    status = wait_until(lambda: (line := terminal.screen().splitlines()[-1])
                        and "a2a: 1 waiting for you" in line and line,
                        what="the count in the status line")
    assert "workbench!" in status  # the flagged window, in tmux's own window list
    [call] = events(repo, "user_called")
    assert [t["key"] for t in call.payload["new"]] == ["Q-1"]

    # Once per thing: other changes call nobody; a second question is one more call.
    n = inject(repo, "exec1", "!true")
    wait_until(lambda: rows(repo, "SELECT state FROM dispatches WHERE n = ?", (n,))
               == [{"state": "done"}], what="an unrelated turn")
    assert len(events(repo, "user_called")) == 1
    ask(repo, "exec1", "And the docs?")
    wait_until(lambda: count(tmux_socket, session) == "2", timeout=20, what="two waiting")
    calls = wait_until(lambda: len(got := events(repo, "user_called")) == 2 and got,
                       what="the second call")
    assert [t["key"] for t in calls[1].payload["new"]] == ["Q-2"]
    # Answered, it waits no more.
    assert a2a("board", "answer", "Q-1", "--adopt", cwd=repo).code == 0
    wait_until(lambda: count(tmux_socket, session) == "1", what="one waiting")


def test_the_settings_turn_the_bell_and_the_count_off(world, repo, tmux_socket):
    config = write_user_config(world, "[notify]\nbell = false\n")
    session, workbench, _agent = up_with_an_agent(repo, tmux_socket)
    ask(repo, "exec1", "Ship it?")
    wait_until(lambda: count(tmux_socket, session) == "1", timeout=20, what="the count")
    assert events(repo, "user_called") == [] and window_flag(tmux_socket, workbench) == "0"
    ours = tmux(tmux_socket, "show-options", "-v", "-t", f"={session}:", "status-right")
    assert "@a2a_waiting" in ours

    config.write_text("[notify]\nbell = false\nstatus = false\n", encoding="utf-8")
    inject(repo, "exec1", "!true")  # a cycle: the orchestrator takes the edited file in
    wait_until(lambda: events(repo, "settings_loaded"), what="the settings reloaded")
    ask(repo, "exec1", "And the docs?")
    wait_until(lambda: tmux(tmux_socket, "show-options", "-q", "-v", "-t", f"={session}:",
                            "status-right").strip() == "", timeout=20,
               what="a2a's status-right gone (the global one shows)")
    assert count(tmux_socket, session) == ""
    assert Repo(repo).config().tmux_session == session
