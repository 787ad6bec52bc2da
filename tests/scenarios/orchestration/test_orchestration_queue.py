"""Orchestration (seed 003 三.10), the injection queue against demo agents: order, pause, Esc and
release, the user typing, permission waits, a Stop from before the Enter, long and multi-line
pastes."""

from __future__ import annotations

import json

from a2a_tui.panes.machine import PROBABLY_IDLE
from tests.scenarios.switches import scenario
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
    tmux,
    wait_state,
    wait_until,
)


def idle_demo(repo, sock, *opts: str) -> dict:
    s = spawn(repo, sock, *opts)
    wait_state(repo, s["session"], "idle")
    return s


@scenario("one_in_flight")
def test_prompts_go_one_at_a_time_in_order_each_after_the_last_stop(repo, tmux_socket, serve):
    serve()
    sid = idle_demo(repo, tmux_socket, "--delay", "0.2")["session"]
    texts = ["prompt 1 #delay=3", "prompt 2", "prompt 3"]
    ns = [inject(repo, sid, texts[0])]
    wait_until(lambda: dispatch(repo, ns[0])["state"] == "delivered", what="#1 in its turn")
    ns += [inject(repo, sid, t) for t in texts[1:]]
    barrier(repo)
    assert dispatch(repo, ns[1])["state"] == "queued"  # nothing on top of a turn in flight
    wait_until(lambda: dispatch(repo, ns[2])["state"] == "done", timeout=20, what="#3 done")
    assert prompts(repo, sid) == [f"⟦主控 #{n}⟧ {t}" for t, n in zip(texts, ns, strict=True)]
    log = [(e.kind, e.payload.get("n", e.payload.get("finished")))
           for e in events(repo, "dispatch_sent", "signal", session=sid)
           if e.kind == "dispatch_sent" or e.payload["event"] == "Stop"]
    assert log == [(k, n) for n in ns for k in ("dispatch_sent", "signal")]


@scenario("pause_holds_delivery")
def test_a_paused_pane_is_held_and_resume_releases_it(repo, tmux_socket, serve):
    serve()
    sid = idle_demo(repo, tmux_socket, "--delay", "0.1")["session"]
    assert a2a("pause", sid, cwd=repo).code == 0
    n = inject(repo, sid, "wait for me")
    barrier(repo)
    assert dispatch(repo, n)["state"] == "queued" and prompts(repo, sid) == []
    assert a2a("resume", sid, cwd=repo).code == 0
    wait_until(lambda: dispatch(repo, n)["state"] == "done", what="the resumed delivery")
    assert prompts(repo, sid) == [f"⟦主控 #{n}⟧ wait for me"]


@scenario("hint_never_releases")
def test_after_esc_the_pane_stays_busy_until_the_user_releases_it(repo, tmux_socket, serve):
    serve()
    s = idle_demo(repo, tmux_socket, "--delay", "30", "--idle-notify", "0.3")
    sid = s["session"]
    first = inject(repo, sid, "a long task")
    wait_until(lambda: dispatch(repo, first)["state"] == "delivered", what="#1 confirmed")
    second = inject(repo, sid, "the next task")
    tmux(tmux_socket, "send-keys", "-t", s["pane"], "Escape")
    # No Stop comes; the CLI's idle notification is a hint, never a release.
    wait_until(lambda: (v := session(repo, sid))["hint"] == PROBABLY_IDLE
               or v["state"] != "busy", what="the idle hint")
    barrier(repo)
    assert session(repo, sid)["state"] == "busy"
    assert dispatch(repo, second)["state"] == "queued"
    assert a2a("release", sid, cwd=repo).code == 0
    wait_until(lambda: dispatch(repo, second)["state"] == "delivered", what="#2 delivered")
    assert prompts(repo, sid) == [f"⟦主控 #{first}⟧ a long task",
                                  f"⟦主控 #{second}⟧ the next task"]


@scenario("typed_prompt_is_user_input")
def test_typing_straight_into_a_pane_is_recorded_as_the_users_input(repo, tmux_socket, serve):
    serve()
    s = idle_demo(repo, tmux_socket, "--delay", "0.1")
    tmux(tmux_socket, "send-keys", "-t", s["pane"], "-l", "--", "let me fix this myself")
    tmux(tmux_socket, "send-keys", "-t", s["pane"], "Enter")
    wait_until(lambda: signals(repo, s["session"], "UserPromptSubmit"), what="the prompt")
    ui = events(repo, "user_input", session=s["session"])
    assert ui, "the typed prompt was not recorded as the user's input"
    assert ui[0].payload["text"] == "let me fix this myself" and ui[0].payload["via"] == "pane"


@scenario("nothing_pasted_into_a_wait")
def test_a_permission_wait_holds_the_queue(repo, tmux_socket, serve):
    serve()
    sid = idle_demo(repo, tmux_socket, "--ask-permission", "--delay", "0.1")["session"]
    n = inject(repo, sid, "!echo hi")
    wait_state(repo, sid, "waiting")
    second = inject(repo, sid, "queued behind the permission")
    barrier(repo)
    assert dispatch(repo, second)["state"] == "queued"
    assert dispatch(repo, n)["state"] == "delivered"
    assert len(events(repo, "dispatch_sent", session=sid)) == 1


@scenario("stop_after_enter")
def test_a_stop_from_before_the_enter_does_not_release_the_pane(repo, tmux_socket, serve):
    serve()
    s = idle_demo(repo, tmux_socket, "--delay", "30")
    sid = s["session"]
    first = inject(repo, sid, "a long task")
    wait_until(lambda: dispatch(repo, first)["state"] == "delivered", what="#1 confirmed")
    second = inject(repo, sid, "the next task")
    # The previous turn's Stop, taken before the Enter, lands late.
    before = dispatch(repo, first)["enter_ns"] - 1_000_000
    late = {"v": 1, "ts_ns": before, "session": sid, "pane": s["pane"], "source": "claude",
            "payload": {"hook_event_name": "Stop", "session_id": "x"}}
    spool = repo / ".a2a/spool" / sid   # the session's own folder, where its hooks write
    (spool / f".{before}-{sid}-late.tmp").write_text(json.dumps(late))
    (spool / f".{before}-{sid}-late.tmp").rename(spool / f"{before}-{sid}-late")
    wait_until(lambda: any(x["event"] == "Stop" for x in signals(repo, sid)),
               what="the late Stop ingested")
    barrier(repo)
    assert session(repo, sid)["state"] == "busy"
    assert dispatch(repo, second)["state"] == "queued"


@scenario("bracketed_paste")
def test_a_multi_line_prompt_arrives_as_one_prompt(repo, tmux_socket, serve):
    serve()
    sid = idle_demo(repo, tmux_socket, "--delay", "0.1")["session"]
    text = "first line\nsecond line\n\nfourth line after a blank"
    n = inject(repo, sid, text)
    wait_until(lambda: dispatch(repo, n)["state"] == "done", what="the dispatch done")
    assert prompts(repo, sid) == [f"⟦主控 #{n}⟧ {text}"]
    assert len(signals(repo, sid, "Stop")) == 1


@scenario("paste_from_stdin")
def test_a_5000_character_prompt_arrives_whole(repo, tmux_socket, serve):
    serve()
    sid = idle_demo(repo, tmux_socket, "--delay", "0.1")["session"]
    # 5,000 characters of a user's real text: Chinese and emoji, 17 kB of UTF-8.
    text = ("门禁验收" * 750 + "🙂" * 2000)
    assert len(text) == 5000 and len(text.encode()) > 16_384
    n = inject(repo, sid, text)
    wait_until(lambda: events(repo, "dispatch_sent", "dispatch_not_sent", session=sid),
               what="the paste tried")
    assert not events(repo, "dispatch_not_sent", session=sid)
    wait_until(lambda: dispatch(repo, n)["state"] == "done", what="the dispatch done")
    # The record keeps the prompt's first 4,000 characters and its whole length.
    want = f"⟦主控 #{n}⟧ {text}"
    assert prompts(repo, sid) == [f"{want[:4000]}… [{len(want)} chars]"]


