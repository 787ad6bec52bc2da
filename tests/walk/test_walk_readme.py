"""The README's walk ("One task through the gate, in 60 seconds"), typed as the README says
(issue 37): a new repository, `a2a init`, `a2a up` in the user's terminal, the README's card put
in place of the template in $EDITOR, then only the keys the README names, each sent once the
screen shows what it acts on: `N`, `r` `y`, `C` `Ctrl-S` (the card's demo agent does the task
from its `!` hints and delivers), `v`, `I` with both scores and reasons. No user config and no
scripted replies: the demo agent as a newcomer gets it. At most 40 keys after `a2a up`."""

from __future__ import annotations

import re
import shlex
import stat
import sys
from pathlib import Path

import pytest

from tests.support import A2A, Terminal, a2a, git, make_repo, rows, wait_until
from tests.walk.test_walk_demo import Keys, attempt_state, shows

pytestmark = pytest.mark.tmux

README = Path(__file__).resolve().parents[2] / "README.md"
KEY_BUDGET = 40


def walk_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## One task through the gate, in 60 seconds")
    return text[start:text.index("\n## ", start + 1)]


def readme_card() -> str:
    """The card the README gives for the demo agent (its ```toml block), unindented."""
    block = re.search(r"```toml\n(.*?)\n\s*```", walk_section(), re.S)
    assert block, "the README's walk shows no card"
    return "\n".join(line.strip() for line in block.group(1).splitlines()) + "\n"


def editor_writing(tmp: Path, card: str) -> str:
    """$EDITOR: the README's card put in place of the template."""
    (tmp / "card.toml").write_text(card)
    script = tmp / "editor"
    script.write_text(f"#!{sys.executable}\nimport shutil, sys\n"
                      f"shutil.copy({str(tmp / 'card.toml')!r}, sys.argv[1])\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def test_the_readmes_walk_reaches_integrated_with_the_demo_agent(world, tmp_path, tmux_socket,
                                                                 capsys):
    section = walk_section()
    for key in ("`N`", "`r`", "`y`", "`C`", "`Ctrl-S`", "`v`", "`I`", "`Tab`"):
        assert key in section, f"the README's walk does not name {key}"
    repo = make_repo(tmp_path / "hello", {"README.md": "hello\n"}, env=world.env)
    assert a2a("init", cwd=repo).code == 0
    terminal = Terminal(env={**world.env, "EDITOR": editor_writing(tmp_path, readme_card())},
                        size=(120, 40))
    keys = Keys(terminal)
    try:
        walk(repo, terminal, tmux_socket, keys)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\nkeys: {keys.log}\n--- the terminal ---\n"
                             f"{terminal.screen()}") from None
    finally:
        terminal.close()
    assert git(repo, "show", "main:hello.txt", env=world.env) == "hello"
    with capsys.disabled():
        print(f"\nREADME walk: {keys.count} keys from `a2a up` to integrated:"
              f" {' '.join(keys.log)}")
    assert keys.count <= KEY_BUDGET, keys.log


def walk(repo: Path, terminal: Terminal, tmux_socket: str, keys: Keys) -> None:
    up = shlex.join([*A2A, "up", "--tmux-socket", tmux_socket])
    terminal.open(f"cd {shlex.quote(str(repo))} && TMUX= {up}; echo DETACHED; exec sh")
    wait_until(lambda: "Sessions" in terminal.screen() and "orchestrator: pid"
               in terminal.screen(), timeout=60, what="the workbench after `a2a up`")
    keys.press("N")
    wait_until(lambda: "T-1 v1 (draft)" in terminal.screen(), timeout=30,
               what="T-1 added and selected on the Gate")
    keys.press("r")
    wait_until(lambda: "Ready T-1" in terminal.screen(), what="the card before ready")
    keys.press("y")
    wait_until(lambda: shows(terminal, r"T-1 +ready"), what="T-1 ready on the Gate panel")
    keys.press("C")
    wait_until(lambda: shows(terminal, r"Start a session on T-1-a1[\s\S]*CLI[^\n]*demo"),
               timeout=30, what="the session form on T-1-a1, on the demo agent")
    keys.press("C-s")
    wait_until(lambda: shows(terminal, r"T-1-a1 +submitted"), timeout=90,
               what="the demo worker's commit submitted, on the Gate")
    keys.press("v")
    wait_until(lambda: shows(terminal, r"T-1-a1 +verified"), timeout=90,
               what="verified, on the Gate")
    keys.press("I")
    wait_until(lambda: "Integrate T-1-a1" in terminal.screen(), what="the score form")
    for dim in ("boundary", "taste"):   # each key once the form shows the one before it
        keys.type("3")
        row = rf"{dim} +3 +why"
        wait_until(lambda row=row: shows(terminal, row), what=f"{dim} 3 in the form")
        keys.press("Tab")
        for typed in ("o", "ok"):
            keys.type(typed[-1])
            row = rf"{dim} +3 +{typed} *│"
            wait_until(lambda row=row: shows(terminal, row), what=f"{dim}'s reason in the form")
        if dim == "boundary":
            keys.press("Tab")
    keys.press("C-s")
    wait_until(lambda: attempt_state(repo) == "integrated", timeout=60,
               what="T-1-a1 integrated")
    sha = rows(repo, "SELECT submitted_sha FROM attempts")[0]["submitted_sha"]
    assert sha
