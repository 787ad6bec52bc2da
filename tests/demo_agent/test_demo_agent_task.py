"""The demo agent given a worker's task (issue 37): it does what the card's `!` hints say and
then delivers with the task's last line, its commit's SHA put in; a task without them gets a
reply that says what to type. The task is the one the gate writes (cards/commands.py)."""

from __future__ import annotations

from a2a_tui.demo_agent.options import Options
from a2a_tui.demo_agent.signals import Task
from a2a_tui.demo_agent.turn import new_turn, reply_text
from a2a_tui.gate.cards.commands import assignment
from a2a_tui.gate.context import GateContext
from a2a_tui.identity import Caller
from a2a_tui.repo import Repo
from tests.support import a2a, add_ready_card, store

HINTS = ('hints = ["Write it in one go.", "!printf hello > src/hello.txt",'
         ' "!git add -A && git commit -qm hello"]\n')


def task_of(repo, extra: str = "") -> str:
    add_ready_card(repo, "T-1", extra=extra)
    assert a2a("claim", "T-1", cwd=repo).code == 0
    with store(repo) as s:
        return assignment(GateContext(Repo(repo), s, Caller()), "T-1-a1")


def test_the_task_runs_the_cards_bang_hints_then_delivers_its_commit(repo):
    prompt = task_of(repo, HINTS)
    assert "Hints (from the card):\nWrite it in one go.\n!printf" in prompt
    turn = new_turn(prompt, Options(), Task())
    delivery = prompt.splitlines()[-1].replace("<SHA>", "$(git rev-parse HEAD)")
    assert turn.commands == ["printf hello > src/hello.txt", "git add -A && git commit -qm hello"]
    assert turn.deliver == delivery and delivery.startswith("a2a submit T-1-a1 --sha $(git")


def test_a_later_prompt_of_bang_lines_delivers_with_the_tasks_line(repo):
    task = Task()
    first = new_turn(task_of(repo), Options(), task)
    assert first.commands == [] and first.deliver is None
    # The first reply says what to type: the agent runs only `!` lines.
    assert "only lines that start with `!`" in reply_text(first)
    later = new_turn("!printf hello > src/hello.txt\n!git commit -qam hello", Options(), task)
    assert later.deliver is not None and later.deliver.startswith("a2a submit T-1-a1 --sha $(")
    # Commands that deliver themselves are not followed by a second delivery.
    assert new_turn("!a2a submit T-1-a1 --sha abc", Options(), task).deliver is None


def test_a_prompt_outside_a_task_is_as_before():
    t = new_turn("!echo hi", Options(), Task())
    assert (t.commands, t.deliver) == (["echo hi"], None)
    assert reply_text(t) == "demo: got 8 chars, 1 line; ran 0 commands"
