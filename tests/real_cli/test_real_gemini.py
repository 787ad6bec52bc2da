"""Gemini CLI 0.61.0, for real, driven through a2a, against our fake Gemini API server.

Gemini's hooks come from the per-session settings file the profile generates (FINDINGS.md):
SessionStart at launch, BeforeAgent with the prompt, AfterAgent at the end of a turn — and,
unlike Claude Code and Codex, also after an Esc ("Request cancelled").
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from tests.real_cli.fakemodel import Reply
from tests.real_cli.harness import mark, work_root
from tests.real_cli.isolation import require
from tests.support import wait_until

require()
if work_root()[1] is not None:
    pytest.skip(f"Gemini CLI tests skipped: {work_root()[1]}", allow_module_level=True)
pytestmark = pytest.mark.real_cli


def prompts(world, sid: str) -> list[str]:
    return [p["raw"]["prompt"] for p in world.signals(sid, "BeforeAgent")]


def test_launch_is_idle_from_session_start_and_a_turn_cycles_busy_idle(world, panes):
    s = world.start(panes, "gemini")
    sid = s["session"]
    started = world.signals(sid, "SessionStart")
    assert started[0]["to"] == "idle" and started[0]["detail"]["source"] == "startup"
    # --session-id fixed the id the hooks report.
    assert started[0]["raw"]["session_id"] == world.session(sid)["thread_id"]

    m = mark("TURN")
    world.fm.on_text(m, Reply(text="slow answer", delay_s=1.5))
    n = world.inject(sid, f"please answer {m}")
    busy = world.wait_state(sid, "busy", timeout=15)
    assert busy["in_flight"] == n and world.sessions()[sid]["state"] == "busy"
    world.wait_dispatch(n, "done")
    assert world.sessions()[sid]["state"] == "idle"
    text = world.dispatch(n)["text"]
    # exactly the pasted prompt, marker included
    assert world.turns_with('gemini', m) == [text]
    assert prompts(world, sid) == [text]
    assert world.signals(sid, "BeforeAgent")[0]["confirmed"] == n
    end = world.signals(sid, "AfterAgent")
    assert len(end) == 1 and end[0]["finished"] == n and end[0]["to"] == "idle"


def test_three_queued_prompts_one_at_a_time_and_a_multi_line_prompt_as_one(world, panes):
    sid = world.start(panes, "gemini")["session"]
    m = mark("Q")
    world.fm.on_text(m, Reply(text="done", delay_s=0.4), times=None)
    bodies = [f"task 0 {m}", f"task 1 {m}\n  indented second line\n\nfourth line", f"task 2 {m}"]
    ns = [world.inject(sid, b) for b in bodies]
    world.wait_dispatch(ns[2], "done", timeout=60)
    texts = [world.dispatch(n)["text"] for n in ns]
    # the multi-line one arrived whole, as one
    assert world.turns_with('gemini', m) == texts
    assert prompts(world, sid) == texts
    ends = {p["finished"]: p for p in world.signals(sid, "AfterAgent")}
    for prev, nxt in pairwise(ns):
        assert world.dispatch(nxt)["enter_ns"] > ends[prev]["ts_ns"]


def test_esc_ends_the_turn_with_after_agent_and_the_next_prompt_arrives_alone(world, panes):
    s = world.start(panes, "gemini")
    sid, pane = s["session"], s["pane"]
    m1, m2 = mark("ESC"), mark("AFTER")
    n1, req = world.begin_endless_turn(sid, f"a long job {m1}\nsecond line", m1)
    n2 = world.inject(sid, f"the next task {m2}")
    world.keys(pane, "Escape")
    wait_until(lambda: req.disconnected, timeout=10, what="Gemini to drop the request on Esc")
    # Gemini signals the interrupt itself: no `a2a release` is needed before the next prompt.
    world.wait_dispatch(n2, "done", timeout=30)
    end = world.signals(sid, "AfterAgent")[0]
    assert end["finished"] == n1 and end["raw"]["prompt_response"] == "[no response text]"
    assert world.events("pane_released", session=sid) == []
    text2 = world.dispatch(n2)["text"]
    assert world.turns_with('gemini', m2) == [text2] and prompts(world, sid)[-1] == text2


def test_text_typed_in_the_pane_is_a_human_intervention(world, panes):
    s = world.start(panes, "gemini")
    sid, pane = s["session"], s["pane"]
    m = mark("TYPED")
    world.type(pane, f"typed by hand {m}")
    # The user's eyes only: Gemini takes an Enter that follows a burst of typed characters
    # within a moment as part of that burst (FINDINGS.md); a person presses it once the text
    # shows. a2a's own deliveries are bracketed pastes and are not affected.
    wait_until(lambda: m in world.screen(pane), timeout=10, what="the typed text on screen")
    world.keys(pane, "Enter")
    ui = wait_until(lambda: world.events("user_input", session=sid), timeout=20,
                    what="the typed prompt to be recorded")
    assert ui[0].payload["text"] == f"typed by hand {m}" and ui[0].payload["via"] == "pane"
    hi = world.events("human_intervention", session=sid)
    assert [e.payload["kind"] for e in hi] == ["typed_in_pane"]
    world.wait_state(sid, "idle")
    assert world.events("dispatch_sent", session=sid) == []
