"""Text an agent wrote reaches the user's terminal as text (issue 35, "quoted by class"): an
escape sequence in a board report's title or in a committed file cannot clear the
screen, retitle the window or hide a line, and a bidi override cannot reorder what is shown.
Every command's answer shows such characters as escapes (`\\x1b`, `\\u202e`); lines and tabs
stay as they are (a line's own CR before its LF too), and `--json` keeps the text exactly."""

from __future__ import annotations

from tests.scenarios.flows import card, claim, submit, worktree
from tests.support import a2a, commit_in

# Clear the screen, set the window's title, a bell, a carriage return that would write over
# the line's start, a right-to-left override.
HOSTILE = "ok\x1b[2J\x1b]0;owned\x07\rfine\u202eevil"
RAW = ("\x1b", "\x07", "\u202e")


def _shown(out: str) -> None:
    assert not any(c in out for c in RAW), repr(out)
    assert "\\x1b[2J" in out and "\\u202e" in out, out


def test_a_board_title_with_terminal_escapes_is_shown_as_text(repo):
    assert a2a("board", "report", "--title", HOSTILE, "--body", "b\tc\nnext line",
               cwd=repo).code == 0
    _shown(a2a("board", "list", cwd=repo).out)
    shown = a2a("board", "show", "F-1", cwd=repo).out
    _shown(shown)
    assert "b\tc\nnext line" in shown        # its lines and tabs kept
    assert a2a("board", "list", "--json", cwd=repo).json["items"][0]["title"] == HOSTILE


def test_a_files_escapes_are_shown_as_text_in_diff_and_show(repo):
    card(repo)
    c = claim(repo)
    sha = commit_in(worktree(repo, c), {"src/app.py": f"v = {HOSTILE!r}\r\n# {HOSTILE}\r\n"})
    assert submit(repo, c, sha).code == 0
    for cmd in (("diff", c["attempt"]), ("show", f"{c['attempt']}:src/app.py")):
        run = a2a(*cmd, cwd=repo)
        assert run.code == 0, run.err
        _shown(run.out)
