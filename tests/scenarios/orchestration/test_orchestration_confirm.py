"""Orchestration: a delivery is done when the CLI says it took the prompt, not when Enter was
written.

The demo agent is told to lose the first Enters after a paste (`--drop-enters N`), as Claude Code
under load loses the Enter that follows a paste (tests/real_cli/FINDINGS.md). A lost Enter is
written again — never the paste — where a second Enter is harmless and nothing was heard from
the pane since the first; once the bounded Enters are spent, the dispatch is `unknown`, never
sent again, and the user is called once, with the pane named.
"""

from __future__ import annotations

from a2a_tui import profiles
from tests.scenarios.switches import scenario
from tests.support import (
    a2a,
    barrier,
    dispatch,
    events,
    holds_for,
    inject,
    prompts,
    sessions_json,
    spawn,
    tmux,
    wait_state,
    wait_until,
)

DEMO = profiles.get("demo")


@scenario("enter_again")
def test_a_swallowed_enter_is_recovered_by_a_second_enter_and_recorded(repo, tmux_socket, serve):
    serve()
    sid = spawn(repo, tmux_socket, "--delay", "0.1", "--drop-enters", "1")["session"]
    wait_state(repo, sid, "idle")
    ns = [inject(repo, sid, "the Enter after this paste is lost"),
          inject(repo, sid, "and after this one\nsecond line")]
    # 20 s: done in 2-4 s here (a second Enter 2 s after the paste); the counterexample
    # waits it out whole.
    wait_until(lambda: dispatch(repo, ns[1])["state"] == "done", timeout=20,
               what="both dispatches done")
    # Each arrived once, whole; each was pasted once and needed one more Enter.
    assert prompts(repo, sid) == [f"⟦主控 #{ns[0]} · 用户⟧ the Enter after this paste is lost",
                                  f"⟦主控 #{ns[1]} · 用户⟧ and after this one\nsecond line"]
    assert [e.payload["n"] for e in events(repo, "dispatch_sending", session=sid)] == ns
    resent = events(repo, "dispatch_enter_resent", session=sid)
    assert [(e.payload["n"], e.payload["enter"]) for e in resent] == [(ns[0], 2), (ns[1], 2)]
    assert all(e.payload["pane"] for e in resent)
    confirmed = {e.payload["n"]: e for e in events(repo, "dispatch_confirmed", session=sid)}
    for e in resent:   # confirmed by the prompt signal that followed the second Enter
        assert confirmed[e.payload["n"]].payload["ts_ns"] > e.payload["enter_ns"]
    assert events(repo, "dispatch_unknown", session=sid) == []
    assert unknown_calls(repo) == []


def never_taken(repo, sock) -> tuple[str, str, int, int]:
    """A demo agent that loses every Enter a2a may write after a paste (the user's own, after
    them, is taken), given two prompts; returns (session, pane, first, second) once the first
    is `unknown`."""
    s = spawn(repo, sock, "--delay", "0.1", "--drop-enters", str(1 + DEMO.enter_retries))
    sid, pane = s["session"], s["pane"]
    wait_state(repo, sid, "idle")
    n = inject(repo, sid, "never submitted by a2a")
    later = inject(repo, sid, "queued behind it")
    # 20 s: unknown after about 6 s here (the paste, then 2 s before each of the bounded
    # Enters); the counterexamples wait it out whole.
    wait_until(lambda: dispatch(repo, n)["state"] == "unknown", timeout=20, what="#n unknown")
    return sid, pane, n, later


def unknown_calls(repo) -> list[dict]:
    return [w for e in events(repo, "user_called") for w in e.payload["new"]
            if w["kind"] == "unknown"]


@scenario("unconfirmed_is_unknown")
def test_a_prompt_never_taken_becomes_unknown_and_is_never_pasted_again(
        repo, tmux_socket, serve):
    serve()
    sid, pane, n, later = never_taken(repo, tmux_socket)

    resent = events(repo, "dispatch_enter_resent", session=sid)
    assert [e.payload["enter"] for e in resent] == list(range(2, 2 + DEMO.enter_retries))
    [unknown] = events(repo, "dispatch_unknown", session=sid)
    assert unknown.payload["n"] == n and unknown.payload["pane"] == pane
    view = sessions_json(repo)[sid]
    assert view["state"] == "unknown" and view["unknown_dispatches"] == [n]
    assert f"#{n}" in view["hint"] and "look at the pane" in view["hint"]

    holds_for(lambda: dispatch(repo, later)["state"] == "queued", 2.0,
              "nothing pasted on top of an unconfirmed prompt")
    assert [e.payload["n"] for e in events(repo, "dispatch_sending", session=sid)] == [n]

    # The user looks, and presses Enter in the pane: the CLI takes the prompt and says so, and
    # the queue goes on (the next paste, whose Enters this agent loses as well, is not awaited).
    tmux(tmux_socket, "send-keys", "-t", pane, "Enter")
    wait_until(lambda: dispatch(repo, n)["state"] == "done", timeout=30, what="#n done")
    wait_until(lambda: dispatch(repo, later)["state"] != "queued", timeout=30,
               what="the queue to go on")
    assert prompts(repo, sid) == [f"⟦主控 #{n} · 用户⟧ never submitted by a2a"]
    assert events(repo, "dispatch_confirmed", session=sid)[0].payload["was"] == "unknown"


@scenario("unknown_calls_user")
def test_the_user_is_called_once_naming_the_pane(repo, tmux_socket, serve):
    serve()
    sid, pane, n, _ = never_taken(repo, tmux_socket)
    wait_until(lambda: unknown_calls(repo), timeout=10, what="the user to be called")
    [call] = unknown_calls(repo)
    assert call["key"] == f"unknown:{n}" and call["ref"] == sid and pane in call["text"]
    r = a2a("attention", "--json", cwd=repo)
    assert [w["key"] for w in r.json["waiting"] if w["kind"] == "unknown"] == [f"unknown:{n}"]
    # Once: more store changes (the user's release among them) call nobody about it again.
    assert a2a("release", sid, cwd=repo).code == 0
    barrier(repo)
    holds_for(lambda: len(unknown_calls(repo)) == 1, 1.0, "one call")
    r = a2a("attention", "--json", cwd=repo)
    assert [w for w in r.json["waiting"] if w["kind"] == "unknown"] == []
