"""Esc interrupts, hints, manual release, and the user typing straight into a pane."""

from __future__ import annotations

from a2a_tui.panes.machine import PROBABLY_IDLE
from tests.support import (
    a2a,
    barrier,
    dispatch,
    events,
    inject,
    prompts,
    session,
    spawn,
    tmux,
    wait_state,
    wait_until,
    write_card,
)


def test_esc_leaves_the_pane_busy_until_release_and_the_next_prompt_arrives_alone(
        repo, tmux_socket, serve):
    serve()
    s = spawn(repo, tmux_socket, "--delay", "30", "--idle-notify", "0.3")
    sid, pane = s["session"], s["pane"]
    wait_state(repo, sid, "idle")
    first = inject(repo, sid, "a long task")
    wait_until(lambda: dispatch(repo, first)["state"] == "delivered", what="#1 confirmed")
    second = inject(repo, sid, "the next task")
    tmux(tmux_socket, "send-keys", "-t", pane, "Escape")

    # No Stop comes; the CLI's idle_prompt notification becomes a hint, never a release.
    wait_until(lambda: session(repo, sid)["hint"] == PROBABLY_IDLE, what="the idle hint")
    barrier(repo)
    assert session(repo, sid)["state"] == "busy"
    assert dispatch(repo, second)["state"] == "queued"
    assert [e.payload["event"] for e in events(repo, "signal", session=sid)
            ].count("Stop") == 0

    r = a2a("release", sid, "--json", cwd=repo)
    assert r.code == 0 and r.json["from"] == "busy"
    assert dispatch(repo, first)["state"] == "released"
    wait_until(lambda: dispatch(repo, second)["state"] == "delivered", what="#2 delivered")
    # The demo put the interrupted prompt back in its input box; it was cleared first.
    assert prompts(repo, sid) == [f"⟦主控 #{first} · 用户⟧ a long task",
                                  f"⟦主控 #{second} · 用户⟧ the next task"]


def test_release_refuses_idle_and_unknown_sessions(repo, tmux_socket, serve):
    serve()
    sid = spawn(repo, tmux_socket)["session"]
    wait_state(repo, sid, "idle")
    r = a2a("release", sid, "--json", cwd=repo)
    assert r.code == 1 and r.json["error"]["code"] == "already_idle"
    r = a2a("release", "nosuch", "--json", cwd=repo)
    assert r.code == 1 and r.json["error"]["code"] == "unknown_session"


def test_typing_in_the_pane_is_a_user_input_and_a_human_intervention(repo, tmux_socket, serve):
    card = write_card(repo)
    assert a2a("card", "add", str(card), cwd=repo).code == 0
    assert a2a("card", "ready", "T-1", cwd=repo).code == 0
    att = a2a("claim", "T-1", "--json", cwd=repo).json["attempt"]
    serve()
    s = spawn(repo, tmux_socket, "--delay", "0.1", args=("--attempt", att))
    sid, pane = s["session"], s["pane"]
    wait_state(repo, sid, "idle")
    tmux(tmux_socket, "send-keys", "-t", pane, "-l", "--", "let me fix this myself")
    tmux(tmux_socket, "send-keys", "-t", pane, "Enter")

    ui = wait_until(lambda: events(repo, "user_input", session=sid), what="a user input")
    assert ui[0].payload["text"] == "let me fix this myself" and ui[0].payload["via"] == "pane"
    hi = events(repo, "human_intervention", session=sid)
    assert len(hi) == 1 and hi[0].attempt == att and hi[0].task == "T-1"
    assert hi[0].payload["user_input"] == ui[0].payload["id"]
    # It is not a dispatch, and the pane went busy on it.
    prompt_sig = [e for e in events(repo, "signal", session=sid)
                  if e.payload["event"] == "UserPromptSubmit"][0]
    assert prompt_sig.payload["to"] == "busy" and prompt_sig.payload["confirmed"] is None
    # An injected prompt is not an intervention.
    n = inject(repo, sid, "from the controller")
    wait_until(lambda: dispatch(repo, n)["state"] == "done", what="the dispatch done")
    assert len(events(repo, "human_intervention", session=sid)) == 1


def test_permission_request_makes_the_pane_wait(repo, tmux_socket, serve):
    serve()
    sid = spawn(repo, tmux_socket, "--ask-permission", "--delay", "0.1")["session"]
    wait_state(repo, sid, "idle")
    n = inject(repo, sid, "!echo hi")
    wait_state(repo, sid, "waiting")
    second = inject(repo, sid, "queued behind the permission")
    barrier(repo)
    assert dispatch(repo, second)["state"] == "queued"
    assert dispatch(repo, n)["state"] == "delivered"
