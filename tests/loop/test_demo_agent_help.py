"""The demo agent in your own repository (issue 28): how it runs commands (`!` lines), its
directives and its scripted turns are in `a2a demo-agent --help` and in its how-to
(docs/how-to/demo-agent.md)."""

from __future__ import annotations

from pathlib import Path

from a2a_tui.demo_agent.options import Options, read_replies
from a2a_tui.demo_agent.turn import new_turn
from tests.support import a2a

HOWTO = Path(__file__).resolve().parents[2] / "docs" / "how-to" / "demo-agent.md"
SAID = ("starts with `!`", "#delay=S", "#fail", "#ask", "--replies", "$DEMO_PROMPT")


def test_help_and_docs_say_how_the_demo_agent_runs_commands(tmp_path):
    r = a2a("demo-agent", "--help", cwd=tmp_path)
    assert r.code == 0, r.err
    for words in SAID:
        assert words in r.out, words
    part = HOWTO.read_text(encoding="utf-8").split("## The demo agent in your own repository")
    assert len(part) == 2, "no demo agent section in docs/how-to/demo-agent.md"
    for words in SAID:
        assert words in part[1][:2000], words


def test_a_scripted_reply_runs_after_the_prompts_own_lines(tmp_path):
    f = tmp_path / "replies.toml"
    f.write_text('[[reply]]\nwhen = "deliver"\nrun = ["git status", "echo done"]\n')
    opts = Options(replies=read_replies(f))
    turn = new_turn("⟦主控 #1⟧ please deliver\n!echo first", opts)
    assert turn.commands == ["echo first", "git status", "echo done"]
    assert new_turn("nothing to do", opts).commands == []
