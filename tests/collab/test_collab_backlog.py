"""Records addressed to a role while no session of it runs reach its first session, once, as one
prompt."""

from __future__ import annotations

from tests.support import a2a, prompts, spawn, wait_state, wait_until


def test_backlog_reaches_the_first_session_of_the_role(repo, tmux_socket, serve, ready_card):
    serve()
    said = a2a("say", "please plan the greeting work", "--json", cwd=repo).json
    assert said["dispatch"] is None
    posted = a2a("inbox", "post", "stop", "--card", ready_card, "--text", "hold everything",
                 "--json", cwd=repo).json
    assert posted["delivered"] is None

    idea = spawn(repo, tmux_socket, role="ideation")["session"]
    wait_state(repo, idea, "idle")
    got = wait_until(lambda: prompts(repo, idea), timeout=30, what="the ideation backlog")
    assert len(got) == 1 and said["id"] in got[0] and "please plan the greeting work" in got[0]
    assert posted["id"] not in got[0]  # the stop is for the executive controller

    ex = spawn(repo, tmux_socket, role="executive")["session"]
    wait_state(repo, ex, "idle")
    got = wait_until(lambda: prompts(repo, ex), timeout=30, what="the executive backlog")
    assert len(got) == 1 and f"Inbox {posted['id']}: stop" in got[0]

    # Delivered once: a second executive session gets nothing old.
    ex2 = spawn(repo, tmux_socket, role="executive", args=("--session", "exec2"))["session"]
    wait_state(repo, ex2, "idle")
    assert prompts(repo, ex2) == []
    shown = a2a("inbox", "show", posted["id"], "--json", cwd=repo).json
    assert shown["delivered"]["session"] == ex
