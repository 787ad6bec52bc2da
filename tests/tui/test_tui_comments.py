"""Comments on a diff from the workbench (c, x, s in the diff screen), with a real repository, a
demo agent writing the attempt in a real tmux pane and the orchestrator hosted by the app: the
comments go to the writer as ONE prompt, in the order of the diff, recorded once; one written
against an older SHA is marked, on the screen and in the prompt."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static, TextArea

from a2a_tui.tui.messages import CommentsChanged, UserActionRefused
from a2a_tui.tui.screens.diff import DiffView
from a2a_tui.tui.screens.editor import EditorScreen
from tests.support import a2a, add_ready_card, commit_in, rows, signals
from tests.tui.test_tui_gate_views import open_diff, shown
from tests.tui.tui_support import of_type, run, until, workbench

pytestmark = pytest.mark.tmux

A = "".join(f"a line {i}\n" for i in range(1, 11))
B = "".join(f"b line {i}\n" for i in range(1, 6))


def writer(repo: Path, tmux_socket: str) -> tuple[str, str, Path]:
    add_ready_card(repo)
    c = a2a("claim", "T-1", "--json", cwd=repo)
    assert c.code == 0, c.err
    s = a2a("spawn", "worker", "--cli", "demo", "--attempt", c.json["attempt"],
            "--tmux-socket", tmux_socket, "--json", "--", "--delay", "0.05", cwd=repo)
    assert s.code == 0, s.err
    wt = Path(c.json["worktree"])
    commit_in(wt, {"src/a.py": A, "src/b.py": B})
    return c.json["attempt"], s.json["session"], wt


async def to_line(pilot, view: DiffView, path: str, line: int) -> None:
    view.cursor = next(i for i, ln in enumerate(view.lines) if ln.target == (path, line))
    await pilot.pause()


async def write(pilot, app, seen: list, text: str, replacing: str = "") -> None:
    """The editor is open: it holds `replacing`; write `text` and keep it (Ctrl-S)."""
    editor = await until(pilot, lambda: isinstance(app.screen, EditorScreen) and app.screen,
                         what="the editor")
    area = editor.query_one(TextArea)
    assert area.text == replacing
    area.load_text(text)
    n = len(of_type(seen, CommentsChanged))
    await pilot.press("ctrl+s")
    await until(pilot, lambda: len(of_type(seen, CommentsChanged)) > n, timeout=20,
                what=f"{text!r} kept")


def test_comments_on_two_files_one_edited_one_removed_go_as_one_prompt_in_diff_order(
        repo, tmux_socket):
    attempt, sid, wt = writer(repo, tmux_socket)

    def received() -> str | None:
        return next((p["raw"]["prompt"] for p in signals(repo, sid, "UserPromptSubmit")
                     if "Review comments" in p["raw"]["prompt"]), None)

    async def scenario():
        async with workbench(repo, tmux_socket=tmux_socket, host=True) as (app, pilot, seen):
            screen = await open_diff(pilot, app)
            view = screen.query_one(DiffView)
            await pilot.press("s")          # nothing held: it says why, sends nothing
            await pilot.press("x")
            assert not of_type(seen, CommentsChanged)
            assert screen.why_disabled("comment", ()) is not None   # on a file's header
            # Out of the diff's order: b's line 3, then a's 7, 9 and 2.
            for path, line, text in (("src/b.py", 3, "b three: rename"),
                                     ("src/a.py", 7, "a seven: first draft"),
                                     ("src/a.py", 9, "a nine: never sent"),
                                     ("src/a.py", 2, "a two:\nwhy this?")):
                await to_line(pilot, view, path, line)
                await pilot.press("c")
                await write(pilot, app, seen, text)
            await until(pilot, lambda: len(screen.comments) == 4, what="four held")
            assert view.marked == {("src/a.py", 2), ("src/a.py", 7), ("src/a.py", 9),
                                   ("src/b.py", 3)}
            # c on a commented line edits its comment; x removes the one there.
            await to_line(pilot, view, "src/a.py", 7)
            await pilot.press("c")
            await write(pilot, app, seen, "a seven: edited", replacing="a seven: first draft")
            await to_line(pilot, view, "src/a.py", 9)
            await pilot.press("x")
            await until(pilot, lambda: len(screen.comments) == 3, what="one removed")
            listed = shown(screen.query_one("#comments", Static))
            assert [ln.split()[1] for ln in listed.splitlines()] == [
                "src/a.py:2", "src/a.py:7", "src/b.py:3"]
            assert "a seven: edited" in listed and "older SHA" not in listed

            await pilot.press("s")
            sent = await until(pilot, lambda: [m for m in of_type(seen, CommentsChanged)
                                               if m.summary.startswith("sent")],
                               timeout=20, what="sent")
            assert not of_type(seen, UserActionRefused)
            await until(pilot, lambda: not screen.comments, what="none held after sending")
            # The workbench hosts the orchestrator (delivery, and the signals' ingestion): it
            # stays open until the writer's prompt signal is recorded (seen under load in CI).
            await until(pilot, received, timeout=30, what="the writer to receive the comments")
            return sent[0].data

    data = run(scenario())
    head = a2a("comment", "list", attempt, "--all", "--json", cwd=repo).json["comments"][0]["sha"]
    prompt = received()
    order = [prompt.index(s) for s in ("1. src/a.py:2", "2. src/a.py:7", "3. src/b.py:3")]
    assert order == sorted(order)
    assert "a seven: edited" in prompt and "why this?" in prompt
    assert "first draft" not in prompt and "never sent" not in prompt
    assert f"at {head[:12]}" in prompt and "older SHA" not in prompt
    [u] = rows(repo, "SELECT * FROM user_inputs WHERE kind = 'review_comments'")
    assert (u["id"], u["source"], u["to_session"]) == (data["user_input"], "tui", sid)
    assert [d["n"] for d in rows(repo, "SELECT n FROM dispatches WHERE text LIKE"
                                       " '%Review comments%'")] == [data["dispatch"]]


def test_a_comment_against_an_older_sha_is_marked_on_the_screen_and_in_the_prompt(
        repo, tmux_socket):
    attempt, sid, wt = writer(repo, tmux_socket)
    r = a2a("comment", attempt, "--file", "src/b.py", "--line", "2", "--text", "stale?",
            "--json", cwd=repo)
    assert r.code == 0, r.err
    old = r.json["sha"]
    commit_in(wt, {"src/b.py": "top\n" + B})

    async def scenario():
        async with workbench(repo, tmux_socket=tmux_socket, host=True) as (app, pilot, seen):
            screen = await open_diff(pilot, app)
            await until(pilot, lambda: screen.comments, what="the held comment")
            listed = shown(screen.query_one("#comments", Static))
            assert f"src/b.py:2 (older SHA {old[:12]})" in listed
            # Not marked on the new diff's line 2: the line it meant may have moved.
            assert screen.query_one(DiffView).marked == set()
            await pilot.press("s")
            await until(pilot, lambda: [m for m in of_type(seen, CommentsChanged)
                                        if m.summary.startswith("sent")], timeout=20,
                        what="sent")

    run(scenario())
    [d] = rows(repo, "SELECT text FROM dispatches WHERE session = ?", (sid,))
    assert f"1. src/b.py:2 (written against an older SHA {old[:12]}" in d["text"]
