"""Codex CLI 0.171.0, for real, driven through a2a, against our fake OpenAI Responses server.

Codex reports turns through `notify` (one per completed turn, plus one for the hidden
title-generation turn of a thread's first prompt) and, per session, through its own hooks that
a2a trusts for that invocation only (PermissionRequest, Pre/PostToolUse, Interrupt, and
UserPromptSubmit: the signal that Codex took a delivered prompt).
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from tests.real_cli.fakemodel import Reply
from tests.real_cli.harness import mark
from tests.real_cli.isolation import require
from tests.support import wait_until

require()
pytestmark = pytest.mark.real_cli


def start(world, panes) -> dict:
    """Spawn Codex with a first prompt on its command line (Codex signals nothing before a turn
    ends): that turn's notify makes the pane idle from a signal."""
    return world.start(panes, "codex", f"say hello {mark('HELLO')}")


def test_launch_sends_nothing_until_a_turn_ends_and_the_title_notify_never_releases(world, panes):
    s = world.spawn("codex")
    panes.append(s["pane"])
    sid, pane = s["session"], s["pane"]
    assert any(a.startswith("notify=") for a in s["argv"])
    assert any(a.startswith("hooks.state=") for a in s["argv"])
    # The user's eyes only: wait until Codex shows its prompt. a2a itself sees no signal at all.
    wait_until(lambda: "Ask Codex to do anything" in world.screen(pane), timeout=30,
               what="Codex's prompt on screen")
    with pytest.raises(AssertionError):
        world.wait_state(sid, "idle", timeout=2)
    assert world.sessions()[sid]["state"] == "unknown" and world.signals(sid) == []
    world.release(sid)

    m = mark("FIRST")
    world.fm.on_text(m, Reply(text="slow first answer", delay_s=2.0))
    n = world.inject(sid, f"first task {m}")
    world.wait_dispatch(n, "done", timeout=30)
    text = world.dispatch(n)["text"]
    assert world.turns_with('codex', m) == [text]
    notes = world.signals(sid, "agent-turn-complete")
    title = [p for p in notes if p["raw"]["input-messages"][0].startswith("Generate a concise")]
    genuine = [p for p in notes if p not in title]
    assert len(title) == 1 and len(genuine) == 1
    # The hidden title turn answered at once, while the user's turn was still running: its
    # notify was recorded and ignored, the pane stayed busy until the genuine one.
    assert title[0]["ts_ns"] < genuine[0]["ts_ns"]
    assert title[0]["ignored"] and title[0]["to"] == "busy" and title[0].get("finished") is None
    assert genuine[0]["finished"] == n and genuine[0]["to"] == "idle"
    assert world.session(sid)["thread_id"] == genuine[0]["raw"]["thread-id"]
    assert world.session(sid)["state"] == "idle"


def test_a_first_prompt_on_the_command_line_makes_the_pane_idle_then_turns_cycle(world, panes):
    s = start(world, panes)
    sid = s["session"]
    first = world.signals(sid, "agent-turn-complete")
    assert [p["to"] for p in first if not p.get("ignored")] == ["idle"]
    m = mark("TURN")
    world.fm.on_text(m, Reply(text="slow answer", delay_s=1.5))
    n = world.inject(sid, f"please answer {m}")
    assert world.wait_state(sid, "busy")["in_flight"] == n
    assert world.sessions()[sid]["state"] == "busy"
    world.wait_dispatch(n, "done")
    assert world.sessions()[sid]["state"] == "idle"
    text = world.dispatch(n)["text"]
    assert world.turns_with('codex', m) == [text]
    last = world.signals(sid, "agent-turn-complete")[-1]
    assert last["finished"] == n and last["confirmed"] == n
    assert last["raw"]["input-messages"][-1] == text


def test_a_delivery_is_confirmed_by_codexs_prompt_hook_as_it_is_taken(world, panes):
    s = start(world, panes)
    sid = s["session"]
    # The prompt on the command line is the user's, recorded once: by its prompt hook (the
    # notify that ends its turn repeats it).
    assert len(world.events("user_input", session=sid)) == 1
    m = mark("TAKEN")
    world.fm.on_text(m, Reply(text="slow answer", delay_s=3.0))
    n = world.inject(s["session"], f"confirm me {m}")
    d = world.wait_dispatch(n, "delivered", timeout=20)   # long before the turn ends
    [ups] = [p for p in world.signals(sid, "UserPromptSubmit") if p.get("confirmed") == n]
    assert ups["raw"]["prompt"] == d["text"] and d["confirmed_ns"] == ups["ts_ns"]
    assert world.signals(sid, "agent-turn-complete")[-1].get("finished") != n
    world.wait_dispatch(n, "done")
    assert len(world.events("user_input", session=sid)) == 1
    assert world.events("dispatch_enter_resent", session=sid) == []


def test_three_queued_prompts_are_delivered_one_at_a_time_in_order(world, panes):
    sid = start(world, panes)["session"]
    m = mark("Q")
    world.fm.on_text(m, Reply(text="done", delay_s=0.4), times=None)
    ns = [world.inject(sid, f"task {i} {m}") for i in range(3)]
    world.wait_dispatch(ns[2], "done", timeout=40)
    texts = [world.dispatch(n)["text"] for n in ns]
    assert world.turns_with('codex', m) == texts
    ends = {p["finished"]: p for p in world.signals(sid, "agent-turn-complete")
            if p.get("finished") is not None}
    for prev, nxt in pairwise(ns):
        assert world.dispatch(nxt)["enter_ns"] > ends[prev]["ts_ns"]
    # each turn's notify names its own prompt as the last input message
    assert [ends[n]["raw"]["input-messages"][-1] for n in ns] == texts
    assert [ends[n].get("confirmed") for n in ns] == ns


def test_a_multi_line_prompt_arrives_as_one(world, panes):
    sid = start(world, panes)["session"]
    m = mark("ML")
    n = world.inject(sid, f"first line {m}\n  indented second line\n\nfourth line\tend")
    world.wait_dispatch(n, "done")
    text = world.dispatch(n)["text"]
    assert world.turns_with('codex', m) == [text]


def test_esc_gives_a_hint_the_pane_stays_busy_until_released_and_the_next_prompt_is_alone(
        world, panes):
    s = start(world, panes)
    sid, pane = s["session"], s["pane"]
    m1, m2 = mark("ESC"), mark("AFTER")
    n1, req = world.begin_endless_turn(sid, f"a long job {m1}\nsecond line", m1)
    world.keys(pane, "Escape")
    wait_until(lambda: world.session(sid).get("hint"), timeout=10,
               what="the Interrupt hook's hint")
    view = world.sessions()[sid]
    assert view["state"] == "busy" and view["hint"] == "probably idle — release?"
    assert [p["to"] for p in world.signals(sid, "Interrupt")] == ["busy"]
    wait_until(lambda: req.disconnected, timeout=10, what="Codex to drop the request")
    with pytest.raises(AssertionError):
        world.wait_state(sid, "idle", timeout=2)

    world.release(sid)
    n2 = world.inject(sid, f"the next task {m2}")
    world.wait_dispatch(n2, "done")
    assert world.turns_with('codex', m2) == [world.dispatch(n2)["text"]]
    assert world.dispatch(n1)["state"] == "released"
