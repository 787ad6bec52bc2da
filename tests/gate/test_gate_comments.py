"""Line comments on an attempt's diff, through the real CLI: held, listed, edited, removed, then
sent to the attempt's writer (a demo agent in a real tmux pane) as ONE prompt in the order of
the diff, recorded once as a `review_comments` user input naming the SHA; a comment written
against an older SHA says so; bad input is one line with a code, and writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fuzz.invariants import table_counts
from tests.support import add_ready_card, commit_in, rows, store

pytestmark = pytest.mark.tmux

A = "".join(f"a line {i}\n" for i in range(1, 11))
B = "".join(f"b line {i}\n" for i in range(1, 6))


def writer(world, tmux_socket) -> tuple[str, str, Path]:
    """T-1 claimed, a demo worker writing it (served: idle), two files committed on its
    branch."""
    world.serve()
    add_ready_card(world.repo)
    r = world.a2a("claim", "T-1", "--json")
    assert r.code == 0, r.err
    attempt, wt = r.json["attempt"], Path(r.json["worktree"])
    s = world.a2a("spawn", "worker", "--cli", "demo", "--attempt", attempt, "--tmux-socket",
                  tmux_socket, "--json", "--", "--delay", "0.05")
    assert s.code == 0, s.err
    world.wait_state(s.json["session"], "idle", timeout=30)
    commit_in(wt, {"src/a.py": A, "src/b.py": B})
    return attempt, s.json["session"], wt


def branch(world, attempt: str) -> str:
    [a] = rows(world.repo, "SELECT branch FROM attempts WHERE id = ?", (attempt,))
    return a["branch"]


def clone(world, attempt: str) -> Path:
    """The attempt's clone, where its branch is."""
    return world.repo / ".a2a" / "worktrees" / attempt


def comment(world, attempt: str, path: str, line: int, text: str) -> str:
    r = world.a2a("comment", attempt, "--file", path, "--line", str(line), "--text", text,
                  "--json")
    assert r.code == 0, r.err
    return r.json["id"]


def prompts(world, sid: str) -> list[str]:
    return [p["raw"]["prompt"] for p in world.signals(sid, "UserPromptSubmit")]


def test_comments_go_to_the_writer_as_one_prompt_in_diff_order_recorded_once(
        world, repo, tmux_socket, serve):
    attempt, sid, _wt = writer(world, tmux_socket)
    world.wait_state(sid, "idle", timeout=30)
    # Written out of order: b before a, and a's line 7 before its line 2.
    cb = comment(world, attempt, "src/b.py", 3, "b three: rename")
    c7 = comment(world, attempt, "src/a.py", 7, "a seven: first draft")
    gone = comment(world, attempt, "src/a.py", 9, "a nine: never sent")
    c2 = comment(world, attempt, "src/a.py", 2, "a two:\nwhy this?")
    assert world.a2a("comment", "edit", c7, "--text", "a seven: edited").code == 0
    assert world.a2a("comment", "remove", gone).code == 0
    again = world.a2a("comment", "edit", gone, "--text", "back?", "--json")
    assert again.code != 0 and again.json["error"]["code"] == "comment_removed"
    listed = world.a2a("comment", "list", attempt, "--json").json["comments"]
    assert [(c["id"], c["text"]) for c in listed] == [
        (c2, "a two:\nwhy this?"), (c7, "a seven: edited"), (cb, "b three: rename")]

    r = world.a2a("comment", "send", attempt, "--json")
    assert r.code == 0, r.err
    assert r.json["comments"] == [c2, c7, cb] and r.json["older"] == []
    head = world.git("rev-parse", branch(world, attempt), cwd=clone(world, attempt))
    assert r.json["sha"] == head
    world.wait_dispatch(r.json["dispatch"], "done", timeout=30)

    [got] = [p for p in prompts(world, sid) if "Review comments" in p]
    assert f"Review comments on {attempt} at {head[:12]}" in got
    order = [got.index(s) for s in ("1. src/a.py:2", "2. src/a.py:7", "3. src/b.py:3")]
    assert order == sorted(order)
    assert "a seven: edited" in got and "first draft" not in got and "never sent" not in got
    # Each with the lines around it, the commented one marked.
    assert "> 2 | a line 2" in got and "  1 | a line 1" in got and "  4 | a line 4" in got
    assert "> 3 | b line 3" in got
    assert "older SHA" not in got

    [u] = rows(world.repo, "SELECT * FROM user_inputs WHERE kind = 'review_comments'")
    assert (u["to_session"], u["attempt"], u["source"]) == (sid, attempt, "cli")
    assert u["text"] in got
    [ev] = world.events("user_input")
    assert ev.payload["sha"] == head and ev.payload["comments"] == [c2, c7, cb]
    states = {c["id"]: c["state"] for c in
              world.a2a("comment", "list", attempt, "--all", "--json").json["comments"]}
    assert states == {c2: "sent", c7: "sent", cb: "sent", gone: "removed"}
    # Sent once: nothing is held any more, and a sent comment cannot change.
    again = world.a2a("comment", "send", attempt, "--json")
    assert again.code != 0 and again.json["error"]["code"] == "no_comments"
    late = world.a2a("comment", "edit", c2, "--text", "x", "--json")
    assert late.code != 0 and late.json["error"]["code"] == "comment_sent"


def test_a_comment_written_against_an_older_sha_says_so(world, repo, tmux_socket):
    attempt, sid, wt = writer(world, tmux_socket)
    old = comment(world, attempt, "src/a.py", 4, "before the fix")
    old_head = world.git("rev-parse", branch(world, attempt), cwd=clone(world, attempt))
    commit_in(wt, {"src/a.py": "new first line\n" + A})
    new = comment(world, attempt, "src/a.py", 1, "after the fix")
    r = world.a2a("comment", "send", attempt, "--json")
    assert r.code == 0, r.err
    assert r.json["older"] == [old] and r.json["comments"] == [new, old]
    text = r.json["text"]
    assert (f"2. src/a.py:4 (written against an older SHA {old_head[:12]}, not"
            f" {r.json['sha'][:12]}" in text)
    # Its context is the file as the comment saw it.
    assert "> 4 | a line 4" in text
    assert "1. src/a.py:1\n" in text and "> 1 | new first line" in text
    [d] = rows(world.repo, "SELECT text FROM dispatches WHERE session = ?", (sid,))
    assert "older SHA" in d["text"]


@pytest.mark.parametrize("args,code", [
    (["T-9-a1", "--file", "src/a.py", "--line", "1", "--text", "x"], "unknown_attempt"),
    (["T-1-a1", "--file", "README.md", "--line", "1", "--text", "x"], "not_in_diff"),
    (["T-1-a1", "--file", "src/a.py", "--line", "11", "--text", "x"], "bad_line"),
    (["T-1-a1", "--file", "src/a.py", "--line", "0", "--text", "x"], "bad_line"),
    (["T-1-a1", "--file", "src/a.py", "--line", "two", "--text", "x"], "usage"),
    (["T-1-a1", "--file", "src/a.py", "--line", "1", "--text", " \n"], "empty_text"),
    (["T-1-a1", "--file", "src/a.py", "--line", "1", "--text", "a\x1bb"], "bad_text"),
    (["T-1-a1", "--line", "1", "--text", "x"], "usage"),
    (["T-1-a1", "--file", "src/a.py", "--line", "1"], "usage"),
    (["edit", "C-99", "--text", "x"], "unknown_comment"),
    (["remove", "C-99"], "unknown_comment"),
    (["send", "T-1-a1"], "no_comments"),
    (["send", "T-9-a1"], "unknown_attempt"),
    (["send"], "usage"),
])
def test_bad_input_is_one_line_with_a_code_and_writes_nothing(world, repo, tmux_socket, args,
                                                             code):
    writer(world, tmux_socket)
    with store(world.repo) as s:
        before = table_counts(s)
    r = world.a2a("comment", *args)
    assert r.code != 0 and r.out == "" and len(r.err.strip().splitlines()) == 1, r.err
    assert r.err.startswith("a2a: error: ") and r.err.rstrip().endswith(f"[{code}]"), r.err
    j = world.a2a("comment", *args, "--json")
    assert j.code != 0 and j.json["error"]["code"] == code
    with store(world.repo) as s:
        assert table_counts(s) == before


def test_a_managed_session_cannot_comment_or_send(world, repo, tmux_socket):
    attempt, sid, _wt = writer(world, tmux_socket)
    held = comment(world, attempt, "src/a.py", 1, "mine")
    refused = (["comment", attempt, "--file", "src/a.py", "--line", "1", "--text", "x"],
               ["comment", "send", attempt], ["comment", "remove", held])
    for i, args in enumerate(refused, 1):
        r = world.a2a_as(f"r{i}", "reviewer", *args, "--json")
        assert r.code != 0 and r.json["error"]["code"] == "user_only", r.out
    assert world.a2a("comment", "list", attempt, "--json").json["comments"][0]["state"] == "held"


def test_comments_wait_while_the_writer_has_exited(world, repo, tmux_socket, serve):
    attempt, sid, _wt = writer(world, tmux_socket)
    held = comment(world, attempt, "src/b.py", 1, "later")
    world.kill_pane(world.session(sid)["pane_id"])
    world.wait_state(sid, "exited", timeout=20)
    r = world.a2a("comment", "send", attempt, "--json")
    assert r.code != 0 and r.json["error"]["code"] == "writer_exited"
    assert f"a2a session revive {sid}" in r.json["error"]["message"]
    assert world.a2a("comment", "list", attempt, "--json").json["comments"][0]["id"] == held
