"""Claude Code 2.1.332, for real, driven through a2a (`a2a serve/spawn/inject/release/sessions`).

Everything runs in a network namespace with only loopback, against our fake Anthropic server; the
pane state is read from a2a's store and `a2a sessions --json`, never from the screen.
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from tests.real_cli.fakemodel import Reply
from tests.real_cli.harness import mark, unwrap_paste
from tests.real_cli.isolation import require
from tests.support import wait_until

require()
pytestmark = pytest.mark.real_cli


def test_launch_is_idle_from_session_start_and_a_turn_cycles_busy_idle(world, panes):
    s = world.start(panes, "claude")
    sid = s["session"]
    assert "--settings" in s["argv"] and "--session-id" in s["argv"]
    start_sig = world.signals(sid, "SessionStart")
    assert (start_sig and start_sig[0]["to"] == "idle"
            and start_sig[0]["detail"]["source"] == "startup")
    assert world.sessions()[sid]["state"] == "idle"

    m = mark("TURN")
    world.fm.on_text(m, Reply(text="slow answer", delay_s=1.5))
    n = world.inject(sid, f"please answer {m}")
    busy = world.wait_state(sid, "busy", timeout=15)
    assert busy["in_flight"] == n
    assert world.sessions()[sid]["state"] == "busy"
    world.wait_dispatch(n, "done")
    assert world.sessions()[sid]["state"] == "idle"
    text = world.dispatch(n)["text"]
    # exactly the pasted prompt, marker included
    assert world.turns_with('claude', m) == [text]
    ups = world.signals(sid, "UserPromptSubmit")
    assert [p["raw"]["prompt"] for p in ups] == [text] and ups[0]["confirmed"] == n
    stop = world.signals(sid, "Stop")
    assert len(stop) == 1 and stop[0]["finished"] == n and stop[0]["to"] == "idle"


def test_three_queued_prompts_are_delivered_one_at_a_time_in_order(world, panes):
    sid = world.start(panes, "claude")["session"]
    m = mark("Q")
    world.fm.on_text(m, Reply(text="done", delay_s=0.4), times=None)
    ns = [world.inject(sid, f"task {i} {m}") for i in range(3)]
    world.wait_dispatch(ns[2], "done", timeout=40)
    texts = [world.dispatch(n)["text"] for n in ns]
    assert world.turns_with('claude', m) == texts
    assert [p["raw"]["prompt"] for p in world.signals(sid, "UserPromptSubmit")] == texts
    stops = {p["finished"]: p for p in world.signals(sid, "Stop")}
    for prev, nxt in pairwise(ns):
        # the next Enter only after the previous turn's Stop, and its request only after that
        assert world.dispatch(nxt)["enter_ns"] > stops[prev]["ts_ns"]
    reqs = [r for r in world.fm.turns("anthropic") if m in r.text]
    assert [r.text for r in reqs] == texts


def test_a_multi_line_prompt_arrives_as_one(world, panes):
    sid = world.start(panes, "claude")["session"]
    m = mark("ML")
    body = f"first line {m}\n  indented second line\n\nfourth line after a blank\tand a tab"
    n = world.inject(sid, body)
    world.wait_dispatch(n, "done")
    text = world.dispatch(n)["text"]
    got = world.turns_with('claude', m)
    assert (len(got) == 1
            and [p["raw"]["prompt"] for p in world.signals(sid, "UserPromptSubmit")] == got)
    # Claude Code keeps a paste of 4+ lines as "[Pasted text #1]" and sends it wrapped in a
    # <pasted_content> envelope (once, under load, bare), with tabs expanded to 4 spaces
    # (FINDINGS.md): the same text either way.
    assert unwrap_paste(got[0]) == text.replace("\t", "    ")
    assert world.signals(sid, "UserPromptSubmit")[0]["confirmed"] == n


def test_esc_leaves_the_pane_busy_until_released_and_the_next_prompt_arrives_alone(world, panes):
    s = world.start(panes, "claude")
    sid, pane = s["session"], s["pane"]
    m1, m2 = mark("ESC"), mark("AFTER")
    n1, req = world.begin_endless_turn(sid, f"a long job {m1}\nsecond line\nthird line", m1)
    world.keys(pane, "Escape")
    wait_until(lambda: req.disconnected, timeout=10, what="Claude to drop the request on Esc")
    # No hook fires on Esc: the pane stays busy (the machine must not guess).
    with pytest.raises(AssertionError):
        world.wait_state(sid, "idle", timeout=3)
    assert world.sessions()[sid]["state"] == "busy"
    assert world.signals(sid, "Stop", "StopFailure") == []

    assert world.release(sid)["from"] == "busy"
    assert world.session(sid)["state"] == "idle"
    n2 = world.inject(sid, f"the next task {m2}")
    world.wait_dispatch(n2, "done")
    text2 = world.dispatch(n2)["text"]
    # Claude had put the interrupted prompt back in the input box; it must not ride along.
    assert world.turns_with('claude', m2) == [text2]
    assert [p["raw"]["prompt"] for p in world.signals(sid, "UserPromptSubmit")][-1] == text2
    assert world.dispatch(n1)["state"] == "released"
    sending = [e.payload for e in world.events("dispatch_sending", session=sid)]
    assert [p["clear_first"] for p in sending] == [False, True]


def test_text_typed_in_the_pane_is_a_human_intervention(world, panes):
    s = world.start(panes, "claude")
    sid, pane = s["session"], s["pane"]
    m = mark("TYPED")
    world.type(pane, f"typed by hand {m}")
    # The user's eyes only: on a loaded machine Claude Code can read the typed burst and the Enter
    # in one go and take the Enter as part of it (a new line); a person presses Enter once the
    # text shows. a2a's own deliveries are bracketed pastes.
    wait_until(lambda: m in world.screen(pane), timeout=10, what="the typed text on screen")
    world.keys(pane, "Enter")
    ui = wait_until(lambda: [e for e in world.events("user_input", session=sid)], timeout=20,
                    what="the typed prompt to be recorded")
    assert ui[0].payload["text"] == f"typed by hand {m}" and ui[0].payload["via"] == "pane"
    hi = world.events("human_intervention", session=sid)
    assert [e.payload["kind"] for e in hi] == ["typed_in_pane"]
    assert hi[0].payload["user_input"] == ui[0].payload["id"]
    world.wait_state(sid, "idle")
    assert world.signals(sid, "Stop")[-1]["to"] == "idle"
    assert world.events("dispatch_sent", session=sid) == []


def test_a_tool_call_that_needs_permission_makes_the_pane_waiting(world, panes):
    s = world.start(panes, "claude", "--permission-mode", "default")
    sid, pane = s["session"], s["pane"]
    m = mark("PERM")
    # In its session's own output folder: a worker with no attempt cannot write the
    # repository (its confinement binds it read-only).
    made = world.repo / ".a2a" / "run" / sid / "out" / "perm.txt"
    world.fm.on_text(m, Reply(text="I will make the file.",
                              tool=("Bash", {"command": f"touch {made}",
                                             "description": "make a file"})))
    n = world.inject(sid, f"make a file {m}")
    try:
        waiting = world.wait_state(sid, "waiting", timeout=20)
    except AssertionError:
        raise AssertionError(f"no waiting; screen:\n{world.screen(pane)}") from None
    assert waiting["in_flight"] == n
    assert world.sessions()[sid]["state"] == "waiting"
    req = world.signals(sid, "PermissionRequest")
    assert req[0]["to"] == "waiting" and req[0]["raw"]["tool_name"] == "Bash"
    assert req[0]["raw"]["tool_input"]["command"] == f"touch {made}"
    pre = world.signals(sid, "PreToolUse")
    assert pre and pre[0]["ts_ns"] <= req[0]["ts_ns"]
    # The user answers "Yes" in the pane. The dialog ignores keys for its first 0.1-0.2 s (a
    # guard against typed-ahead approval, FINDINGS.md), so, like a person, press "1" again
    # while the dialog is still on screen (the user's eyes only; a2a never reads the screen).
    def answered() -> bool:
        if "Do you want to proceed?" not in world.screen(pane):
            return True
        world.keys(pane, "1")
        return False

    wait_until(lambda: "Do you want to proceed?" in world.screen(pane), timeout=10,
               what="the permission dialog on screen")
    wait_until(answered, timeout=10, interval=0.25, what="the permission dialog to be answered")
    world.wait_dispatch(n, "done")
    assert world.signals(sid, "PostToolUse")[0]["to"] == "busy"
    assert made.exists()
    assert world.session(sid)["state"] == "idle"


def test_a_model_error_ends_the_turn_with_stop_failure(world, panes):
    sid = world.start(panes, "claude")["session"]
    m, m2 = mark("ERR"), mark("OK")
    world.fm.on_text(m, Reply(error=(400, "invalid_request_error", "fake: refused")), times=None)
    n = world.inject(sid, f"this fails {m}")
    n2 = world.inject(sid, f"this works {m2}")
    world.wait_dispatch(n, "done")
    failure = world.signals(sid, "StopFailure")
    assert len(failure) == 1 and failure[0]["finished"] == n and failure[0]["to"] == "idle"
    assert "fake: refused" in failure[0]["raw"]["last_assistant_message"]
    assert world.signals(sid, "Stop") == [] or all(p.get("finished") != n
                                                  for p in world.signals(sid, "Stop"))
    world.wait_dispatch(n2, "done")  # the queue goes on after the failed turn
    assert world.turns_with('claude', m2) == [world.dispatch(n2)["text"]]
