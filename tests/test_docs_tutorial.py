"""The tutorial works as written (issue 26): every `sh` block of docs/tutorial.md runs, in order,
as a newcomer would type it at a terminal of their own (a throwaway HOME, a private tmux
server: tests/support), with `a2a` on PATH and their $EDITOR writing the card the tutorial
shows. Where the tutorial shows output after a block, that output must appear (each line, spaces
collapsed); a block that only looks (`a2a status`) is run again until it does, as a person
would look again. The task ends integrated on main."""

from __future__ import annotations

import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support import at_terminal, git

pytestmark = pytest.mark.tmux

TUTORIAL = Path(__file__).resolve().parents[1] / "docs" / "tutorial.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
LOOKS = ("a2a status", "a2a sessions", "a2a events")   # run again until the output shows
PATIENCE_S = 90


@dataclass
class Step:
    commands: str
    shows: list[str]


def steps(text: str) -> tuple[list[Step], str]:
    """The tutorial's `sh` blocks, each with the output shown right after it, and its card."""
    out: list[Step] = []
    card = ""
    for m in FENCE.finditer(text):
        lang, body = m[1], m[2]
        if lang == "sh":
            out.append(Step(body, []))
        elif lang == "text" and out and not out[-1].shows and _right_after(text, m, out):
            out[-1].shows = [line for line in body.splitlines() if line.strip()]
        elif lang == "toml" and not card:
            card = body
    return out, card


def _right_after(text: str, m: re.Match, out: list[Step]) -> bool:
    """Whether this output block follows the last `sh` block with only prose between."""
    before = text[:m.start()]
    return before.rfind("```sh\n") > before.rfind("```text\n")


def squeeze(s: str) -> str:
    return " ".join(s.split())


def shown(expected: str, out: str) -> bool:
    """Whether the output has the tutorial's line: a whole line as shown, or where the tutorial
    marks what it leaves out with "…", a line with each shown part in order (issue 37: a
    shortened output says it is one)."""
    parts = [squeeze(p) for p in expected.split("…")]
    for line in (squeeze(x) for x in out.splitlines()):
        if len(parts) == 1:
            if line == parts[0]:
                return True
            continue
        at = 0
        for part in parts:
            at = line.find(part, at)
            if at < 0:
                break
            at += len(part)
        else:
            if line.startswith(parts[0]) and line.endswith(parts[-1]):
                return True
    return False


class Newcomer:
    """A shell at a terminal of its own; the folder a block ends in is where the next begins."""

    def __init__(self, world, base: Path, card: str):
        self.cwd = base
        editor = base / "editor.sh"
        (base / "card.toml").write_text(card)
        editor.write_text(f'#!/bin/sh\ncat {base / "card.toml"} > "$1"\n')
        editor.chmod(0o755)
        self.env = {**world.env, "EDITOR": str(editor), "VISUAL": str(editor),
                    "A2A_TMUX_SOCKET": world.sock,
                    "PATH": f"{Path(sys.executable).parent}:{world.env['PATH']}"}
        self.where = base / "cwd"

    def run(self, commands: str) -> tuple[int, str]:
        script = f'set -e\ncd "$1"\n{commands}\npwd > "$2"\n'
        r = at_terminal(["sh", "-c", script, "sh", str(self.cwd), str(self.where)],
                        cwd=str(self.cwd), env=self.env, capture_output=True, text=True,
                        timeout=120)
        if r.returncode == 0:
            self.cwd = Path(self.where.read_text().strip())
        return r.returncode, r.stdout + r.stderr


def test_the_tutorial_takes_a_task_to_integrated(world, tmp_path):
    blocks, card = steps(TUTORIAL.read_text(encoding="utf-8"))
    assert len(blocks) >= 8 and card, "the tutorial's blocks were not found"
    me = Newcomer(world, tmp_path, card)
    for step in blocks:
        deadline = time.monotonic() + (PATIENCE_S if step.commands.startswith(LOOKS) else 0)
        while True:
            code, out = me.run(step.commands)
            assert code == 0, f"$ {step.commands}\nexit {code}\n{out}"
            missing = [s for s in step.shows if not shown(s, out)]
            if not missing or time.monotonic() > deadline:
                break
            time.sleep(1)
        assert not missing, f"$ {step.commands}\nshowed no {missing!r}:\n{out}"
    repo = tmp_path / "hello"
    assert git(repo, "log", "-1", "--format=%s", "main", env=world.env) == "Greet by name"
