"""The injection queue against real demo agents in a private tmux server."""

from __future__ import annotations

from tests.support import (
    a2a,
    barrier,
    dispatch,
    events,
    inject,
    prompts,
    session,
    signals,
    spawn,
    wait_state,
    wait_until,
)


def test_three_quick_prompts_one_in_flight_in_order(repo, tmux_socket, serve):
    serve()
    sid = spawn(repo, tmux_socket, "--delay", "0.4")["session"]
    wait_state(repo, sid, "idle")
    ns = [inject(repo, sid, f"prompt {i}") for i in (1, 2, 3)]
    wait_until(lambda: dispatch(repo, ns[2])["state"] == "done", timeout=20, what="#3 done")

    # The agent saw exactly the three prompts, once each, in order, each with its marker.
    assert prompts(repo, sid) == [f"⟦主控 #{n} · 用户⟧ prompt {i}"
                                  for i, n in zip((1, 2, 3), ns, strict=True)]
    # Exactly one in flight: each delivery comes after the previous dispatch's Stop, and that
    # Stop was timestamped after the Enter that delivered it.
    log = [e for e in events(repo, "dispatch_sent", "signal", session=sid)
           if e.kind == "dispatch_sent" or e.payload["event"] == "Stop"]
    order = [(e.kind, e.payload.get("n", e.payload.get("finished"))) for e in log]
    assert order == [("dispatch_sent", ns[0]), ("signal", ns[0]), ("dispatch_sent", ns[1]),
                     ("signal", ns[1]), ("dispatch_sent", ns[2]), ("signal", ns[2])]
    for n in ns:
        d = dispatch(repo, n)
        stop = next(e for e in log if e.kind == "signal" and e.payload.get("finished") == n)
        assert stop.payload["ts_ns"] > d["enter_ns"]


def test_multiline_prompt_arrives_as_one_prompt(repo, tmux_socket, serve):
    serve()
    sid = spawn(repo, tmux_socket, "--delay", "0.1")["session"]
    wait_state(repo, sid, "idle")
    text = "first line\nsecond line\n\nfourth line after a blank"
    n = inject(repo, sid, text)
    wait_until(lambda: dispatch(repo, n)["state"] == "done", what="the dispatch done")
    assert prompts(repo, sid) == [f"⟦主控 #{n} · 用户⟧ {text}"]
    assert len(signals(repo, sid, "Stop")) == 1


def test_pause_holds_delivery_and_resume_releases_it(repo, tmux_socket, serve):
    serve()
    held = spawn(repo, tmux_socket, "--delay", "0.1")["session"]
    other = spawn(repo, tmux_socket, "--delay", "0.1")["session"]
    wait_state(repo, held, "idle")
    wait_state(repo, other, "idle")
    assert a2a("pause", held, cwd=repo).code == 0
    n_held = inject(repo, held, "wait for me")
    n_other = inject(repo, other, "go ahead")
    # The unpaused pane is served in the same cycles: once it is done, the paused one had its
    # chances and was held.
    wait_until(lambda: dispatch(repo, n_other)["state"] == "done", what="the unpaused delivery")
    barrier(repo)
    assert dispatch(repo, n_held)["state"] == "queued"
    assert session(repo, held)["state"] == "idle" and prompts(repo, held) == []

    assert a2a("resume", held, cwd=repo).code == 0
    wait_until(lambda: dispatch(repo, n_held)["state"] == "done", what="the resumed delivery")
    assert prompts(repo, held) == [f"⟦主控 #{n_held} · 用户⟧ wait for me"]


def test_pause_all_and_resume_all(repo, tmux_socket, serve):
    serve()
    a = spawn(repo, tmux_socket)["session"]
    b = spawn(repo, tmux_socket)["session"]
    r = a2a("pause", "--all", "--json", cwd=repo)
    assert r.code == 0 and sorted(r.json["paused"]) == sorted([a, b])
    assert session(repo, a)["paused"] == 1 and session(repo, b)["paused"] == 1
    r = a2a("resume", "--all", "--json", cwd=repo)
    assert sorted(r.json["resumed"]) == sorted([a, b])
    assert session(repo, a)["paused"] == 0
