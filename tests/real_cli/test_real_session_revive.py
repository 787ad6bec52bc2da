"""`a2a session revive` and `a2a session fork` (issue 17) against the real CLIs and the fake model.

Revive: a session with two turns holds a prompt queued while paused; its pane dies; `a2a session
revive` starts it again under the same id, on its own conversation (Claude Code and Gemini CLI
`--resume`, Codex `resume`): the kept prompt is delivered, and the model request that carries
it holds both earlier turns (Gemini CLI drops a paste that comes right after its resumed
SessionStart: a launch's first paste waits for the pane to settle). Fork: `a2a session fork`
starts a second Claude Code session on a copy of the conversation, under its own id, bound to
no attempt; both go on, each on its own conversation.
"""

from __future__ import annotations

import pytest

from tests.real_cli.harness import mark, needs_safe_folder
from tests.real_cli.isolation import require
from tests.real_cli.test_real_revive import first_request, missing, two_turns

require()
pytestmark = pytest.mark.real_cli


@pytest.mark.parametrize("cli", ["claude", "codex", pytest.param(
    "gemini", marks=needs_safe_folder())])
def test_session_revive_goes_on_with_its_own_conversation_and_its_kept_queue(world, panes, cli):
    old, marks = two_turns(world, panes, cli)
    sid = old["session"]
    row = world.session(sid)
    conversation, first_launch = row["thread_id"], row["launch_seq"]
    assert conversation
    assert world.a2a("pause", sid).code == 0
    m = mark("AFTER")
    kept = world.inject(sid, f"what did I say? {m}")
    world.kill_pane(old["pane"])
    world.wait_state(sid, "exited")

    r = world.a2a("session", "revive", sid, "--json")
    assert r.code == 0, r.out + r.err
    panes.append(r.json["pane"])
    assert (r.json["session"], r.json["fresh"], r.json["continues"]) == (sid, None, conversation)
    world.wait_dispatch(kept, "done", timeout=60)
    body = first_request(world, m)
    assert not missing(body, marks), (missing(body, marks), body[-3000:])
    launch = world.events("session_launching", session=sid)[-1]
    assert launch.seq == r.json["launch_seq"]
    assert (launch.payload["revives"], launch.payload["continues"], launch.payload["fork"]) == (
        first_launch, conversation, False)
    assert launch.payload.get("restarts") is None
    assert world.session(sid)["thread_id"] == conversation
    after = [p for p in world.signals(sid) if p["ts_ns"] > launch.ts_ns]
    if cli == "codex":
        assert {p["raw"]["thread-id"] for p in after if p["event"] == "agent-turn-complete"} \
            == {conversation}
    else:
        assert [(p["raw"]["session_id"], p["detail"]["source"]) for p in after
                if p["event"] == "SessionStart"] == [(conversation, "resume")]


def test_session_fork_runs_a_claude_copy_alongside_the_original(world, panes):
    old, marks = two_turns(world, panes, "claude")
    sid = old["session"]
    conversation = world.session(sid)["thread_id"]

    r = world.a2a("session", "fork", sid, "--as", "fork1", "--json")
    assert r.code == 0, r.out + r.err
    panes.append(r.json["pane"])
    assert (r.json["session"], r.json["forks"], r.json["attempt"]) == ("fork1", sid, None)
    launch = world.events("session_launching", session="fork1")[0].payload
    assert (launch["forks"], launch["continues"], launch["fork"]) == (sid, conversation, True)
    world.wait_state("fork1", "idle", timeout=40)
    copy = world.session("fork1")["thread_id"]
    assert copy and copy != conversation

    m = mark("FORK")
    world.wait_dispatch(world.inject("fork1", f"what did I say? {m}"), "done", timeout=40)
    body = first_request(world, m)
    assert not missing(body, marks), (missing(body, marks), body[-3000:])
    # The original runs beside it, on its own conversation: the fork's turn is not in it.
    m2 = mark("ORIGINAL")
    world.wait_dispatch(world.inject(sid, f"still there? {m2}"), "done", timeout=40)
    original = first_request(world, m2)
    assert marks[1] in original and m not in original
    assert {world.session(s)["state"] for s in (sid, "fork1")} == {"idle"}
