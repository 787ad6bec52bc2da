"""Revive and fork on the CLI's own conversation (issue 17), against the real CLIs.

A session has two turns; a new session started with `a2a spawn --resume <its conversation id>`
(revive) or `--fork` (a copy, under a new id) sends the fake model a first request that holds the
earlier turns. The conversation id is the one the launch record keeps: Claude Code's and Gemini
CLI's `--session-id`, Codex's thread id (its notify's `thread-id`, the id of its rollout file).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.real_cli.harness import World, mark, needs_safe_folder
from tests.real_cli.isolation import require
from tests.support import wait_until

require()
pytestmark = pytest.mark.real_cli


def two_turns(w: World, panes: list[str], cli: str) -> tuple[dict, list[str]]:
    """A session with two finished turns; returns it and the two turns' marks."""
    marks = [mark("ONE"), mark("TWO")]
    # Codex signals nothing before its first turn ends: the first turn is its command line.
    first = [f"remember {marks[0]}"] if cli == "codex" else []
    s = w.start(panes, cli, *first, timeout=60)
    for m in marks[1:] if cli == "codex" else marks:
        w.wait_dispatch(w.inject(s["session"], f"remember {m}"), "done", timeout=40)
    if cli != "codex":
        on_disk(w, s["session"], marks[-1], cli)
    return s, marks


def on_disk(w: World, sid: str, needle: str, cli: str) -> None:
    """Wait until the session's transcript (the file its hooks name) holds the turn with
    `needle`, ended, before the session is killed: the CLIs write it asynchronously (Claude
    Code's hook docs say so), and what is not on disk cannot be resumed. For Claude Code the
    turn has ended when a `system` line (`stop_hook_summary`, `turn_duration`) follows the
    prompt's line: those come after its Stop hooks return, and a2a counts a dispatch done
    while the hook still runs. Killed inside that window, a revived Claude Code's first
    request lacked the turn (twice in CI, on a loaded machine; not reproduced in 8 runs beside
    two busy loops). Codex's hooks name no transcript."""
    paths = {p["raw"].get("transcript_path") for p in w.signals(sid)} - {None}
    assert paths, f"no transcript_path in {sid}'s signals"
    ended = turn_ended if cli == "claude" else (lambda text, needle: needle in text)
    wait_until(lambda: any(Path(p).is_file() and ended(Path(p).read_text(errors="replace"),
                                                       needle) for p in paths),
               timeout=20, what=f"the turn with {needle} ended in {sid}'s transcript")


def turn_ended(jsonl: str, needle: str) -> bool:
    """Whether a Claude Code transcript holds a line with `needle` and, after it, a `system`
    line (the turn's end)."""
    seen = False
    for line in jsonl.splitlines():
        seen = seen or needle in line
        if seen and '"type":"system"' in line.replace(" ", ""):
            return True
    return False


def missing(body: str, marks: list[str]) -> list[str]:
    return [x for x in marks if x not in body]


def first_request(w: World, needle: str) -> str:
    """The first model request of the turn holding `needle`, as JSON text."""
    return json.dumps(w.fm.wait_for(lambda r: needle in r.text and r.side is None,
                                    timeout=60, what=f"the model request holding {needle}").body)


def ask(w: World, panes: list[str], cli: str, needle: str, **how: str) -> dict:
    """Start a session continuing a conversation and ask it one thing (`needle`). Codex and
    Gemini get it on their command line: Codex signals nothing before a turn; a resumed Gemini
    drops a paste that comes right after its SessionStart (FINDINGS.md)."""
    text = f"what did I say? {needle}"
    if cli == "codex":
        s = w.spawn(cli, text, **how)
    elif cli == "gemini":
        s = w.spawn(cli, "-i", text, **how)
    else:
        s = w.start(panes, cli, **how)
        w.inject(s["session"], text)
    panes.append(s["pane"])
    return s


@pytest.mark.parametrize("cli", ["claude", "codex", pytest.param(
    "gemini", marks=needs_safe_folder())])
def test_a_revived_session_goes_on_with_its_own_conversation(world, panes, cli):
    old, marks = two_turns(world, panes, cli)
    conversation = world.session(old["session"])["thread_id"]
    assert conversation
    world.kill_pane(old["pane"])
    world.wait_state(old["session"], "exited")

    m = mark("AFTER")
    new = ask(world, panes, cli, m, resume=conversation)
    body = first_request(world, m)
    assert not missing(body, marks), (missing(body, marks), body[-3000:])
    record = world.events("session_launching", session=new["session"])[0].payload
    assert record["continues"] == conversation and record["fork"] is False
    # The same conversation: its id is the one the revived session reports.
    state = world.wait_state(new["session"], "idle", timeout=40)
    assert state["thread_id"] == conversation
    if cli == "codex":
        notes = world.signals(new["session"], "agent-turn-complete")
        assert {p["raw"]["thread-id"] for p in notes} == {conversation}
    else:
        start = world.signals(new["session"], "SessionStart")
        assert [(p["raw"]["session_id"], p["detail"]["source"]) for p in start] == [
            (conversation, "resume")]


@pytest.mark.parametrize("cli", ["claude", "codex"])
def test_a_forked_session_runs_alongside_the_original_on_a_copy(world, panes, cli):
    old, marks = two_turns(world, panes, cli)
    conversation = world.session(old["session"])["thread_id"]

    m = mark("FORK")
    fork = ask(world, panes, cli, m, fork=conversation)
    body = first_request(world, m)
    assert not missing(body, marks), (missing(body, marks), body[-3000:])
    world.wait_state(fork["session"], "idle", timeout=40)
    fork_conversation = world.session(fork["session"])["thread_id"]
    assert fork_conversation and fork_conversation != conversation

    # The original goes on, on its own conversation: the fork's turn is not in it.
    m2 = mark("ORIGINAL")
    world.wait_dispatch(world.inject(old["session"], f"still there? {m2}"), "done", timeout=40)
    original = first_request(world, m2)
    assert marks[1] in original and m not in original
    assert world.session(old["session"])["state"] == "idle"


@needs_safe_folder()   # below an unsafe folder the launch is refused for that reason first
def test_gemini_cannot_fork_and_says_so_recording_nothing(world):
    launches = lambda: [e.seq for e in world.events("session_launching",  # noqa: E731
                                                     "session_launch_failed")]
    before = (set(world.sessions()), launches())
    r = world.a2a("spawn", "worker", "--cli", "gemini", "--fork",
                  "11111111-2222-3333-4444-555555555555", "--tmux-socket", world.sock, "--json")
    assert r.code != 0 and r.json["error"]["code"] == "cannot_fork"
    assert "Gemini CLI cannot fork" in r.json["error"]["message"]
    assert (set(world.sessions()), launches()) == before
