"""Seed 003's acceptance walk, with demo agents, keys only (issue 28): a new repository,
`a2a init`, `a2a up` in the user's terminal; then only keys pressed in that terminal (tmux
send-keys, each counted): a card written with N through an $EDITOR script, made ready, claimed
with a worker started on it, the worker's commit submitted, verified, reviewed by a fresh
reviewer, integrated with scores. The count of keys is printed (aim: under 40).

The agents are demo agents scripted the way tests/real_cli scripts the fake model: the worker's
turn writes the file, commits and runs the delivery command its task ends with; the reviewer's
writes its report and runs the verdict command its prompt ends with (--replies)."""

from __future__ import annotations

import re
import shlex
import stat
import sys
import time
from pathlib import Path

import pytest

from a2a_tui.repo import Repo
from tests.support import (
    A2A,
    Terminal,
    a2a,
    git,
    make_repo,
    rows,
    store,
    wait_until,
    write_user_config,
)

pytestmark = pytest.mark.tmux

KEY_BUDGET = 40

CARD = {
    'title = ""': 'title = "Say hello"',
    'goal = ""': 'goal = "src/hello.txt says hello"',
    'non_goals = [\n    "",': 'non_goals = [\n    "nothing outside src/",',
    'allowed_paths = [\n    "",': 'allowed_paths = [\n    "src/**",',
    'acceptance = [\n    "",': 'acceptance = [\n    "src/hello.txt holds the one line hello",',
    '# artifacts = ["tests/test_names.py"]': 'artifacts = ["src/hello.txt"]',
    'command = "python -m pytest -q"': "command = 'test \"$(cat src/hello.txt)\" = hello'",
}

# The worker's turn: write, commit, and run the delivery its task ends with (the SHA put in).
WORK = (
    "mkdir -p src && printf 'hello\\n' > src/hello.txt\n"
    "git add -A && git commit -q -m 'Say hello'\n"
    'eval "$(tail -n 1 "$DEMO_PROMPT" | sed "s/<SHA>/$(git rev-parse HEAD)/")"\n'
)
# The reviewer's turn: a report with its verdict block, then the command its prompt ends with.
REVIEW = (
    'cmd=$(tail -n 1 "$DEMO_PROMPT")\n'
    'report=${cmd##* --file }\n'
    "printf '# Review\\n\\nsrc/hello.txt says hello; nothing else changed.\\n\\n"
    "```verdict\\nverdict = \"pass\"\\nrecommends_follow_up = false\\n```\\n' > \"$report\"\n"
    'eval "$cmd"\n'
)


def replies(tmp: Path) -> Path:
    """The demo agents' scripted turns (`a2a demo-agent --replies`)."""
    (tmp / "work.sh").write_text(WORK)
    (tmp / "review.sh").write_text(REVIEW)
    path = tmp / "replies.toml"
    path.write_text(f'[[reply]]\nwhen = "a2a submit "\nrun = ["sh {tmp / "work.sh"}"]\n\n'
                    f'[[reply]]\nwhen = "a2a review verdict "\nrun = ["sh {tmp / "review.sh"}"]\n')
    return path


class Keys:
    """The user's hands on the terminal: every key pressed goes through here and is counted.

    Keys go at a fast typist's pace (CADENCE_S apart), not all in one burst: a burst that
    arrives in one read is not what a person produces (a Tab right behind a letter in the same
    read was seen lost by the form's focus change)."""

    CADENCE_S = 0.1

    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal
        self.count = 0
        self.log: list[str] = []

    def press(self, *keys: str) -> None:
        for k in keys:
            self._send(k)

    def type(self, text: str) -> None:
        """Text typed key by key (each character a key)."""
        for ch in text:
            self._send("-l", ch)

    def _send(self, *key: str) -> None:
        self.terminal.keys(*key)
        self.count += 1
        self.log.append(key[-1])
        time.sleep(self.CADENCE_S)


def editor_script(tmp: Path, replace: dict[str, str]) -> str:
    script = tmp / "editor"
    script.write_text(f"#!{sys.executable}\nimport sys\np = sys.argv[1]\nt = open(p).read()\n"
                      f"for a, b in {replace!r}.items():\n    t = t.replace(a, b)\n"
                      "open(p, 'w').write(t)\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def test_an_idea_to_integration_with_demo_agents_by_keys_alone(world, tmp_path, tmux_socket,
                                                               capsys):
    repo = make_repo(tmp_path / "hello", {"README.md": "hello\n"}, env=world.env)
    assert a2a("init", cwd=repo).code == 0
    # The agents' scripts lie outside the repository, under /tmp, which a confined session sees
    # as a private empty folder: the user lets them be read, as any shared folder
    # ([confinement] read in the user's settings).
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    write_user_config(world, f'[roles.worker]\ncli = "demo"\n[roles.reviewer]\ncli = "demo"\n'
                             f'[clis.demo]\noptions = ["--delay", "0.1", "--replies",'
                             f' "{replies(scripts)}"]\n[confinement]\nread = ["{scripts}"]\n')
    terminal = Terminal(env={**world.env, "EDITOR": editor_script(tmp_path, CARD)},
                        size=(120, 40))
    try:
        walk(world, repo, terminal, tmux_socket, capsys)
    except AssertionError as exc:
        refused = [(e.kind, e.payload) for e in world_events(repo) if e.kind.endswith("_refused")
                   or e.kind in ("role_forbidden", "caller_unidentified")]
        raise AssertionError(f"{exc}\nrefusals: {refused}\n--- the terminal ---\n"
                             f"{terminal.screen()}") from None
    finally:
        terminal.close()


def world_events(repo: Path) -> list:
    with store(repo) as s:
        return s.events()


def shows(terminal: Terminal, pattern: str) -> bool:
    """Whether the terminal shows `pattern` (a regex): a person acts on what they see, and a
    key pressed before the panel shows the new state is refused as it was (dimmed)."""
    return re.search(pattern, terminal.screen()) is not None


def attempt_state(repo: Path) -> str | None:
    found = rows(repo, "SELECT state FROM attempts ORDER BY n DESC LIMIT 1")
    return found[0]["state"] if found else None


def walk(world, repo: Path, terminal: Terminal, tmux_socket: str, capsys) -> None:
    up = shlex.join([*A2A, "up", "--tmux-socket", tmux_socket])
    terminal.open(f"cd {shlex.quote(str(repo))} && TMUX= {up}; echo DETACHED; exec sh")
    wait_until(lambda: "Sessions" in terminal.screen() and "orchestrator: pid"
               in terminal.screen(), timeout=60, what="the workbench after `a2a up`")
    keys = Keys(terminal)

    keys.press("N")          # a card, written in $EDITOR
    wait_until(lambda: rows(repo, "SELECT id, state FROM cards") == [
        {"id": "T-1", "state": "draft"}], timeout=30, what="card T-1 added as a draft")
    # The card selected, its line under the panel: before that, `r` has no card to act on.
    wait_until(lambda: "T-1 v1 (draft)" in terminal.screen(), what="T-1 selected on the Gate")
    keys.press("r")          # the card shown: ready?
    wait_until(lambda: "Ready T-1" in terminal.screen(), what="the card before ready")
    keys.press("y")
    wait_until(lambda: rows(repo, "SELECT state FROM cards") == [{"state": "ready"}],
               what="T-1 ready")
    wait_until(lambda: shows(terminal, r"T-1 +ready"), what="T-1 ready on the Gate panel")

    keys.press("C")          # claim, and a session on the attempt (the worker, on demo)
    wait_until(lambda: "Start a session on T-1-a1" in terminal.screen(), timeout=30,
               what="the session form on T-1-a1")
    keys.press("C-s")
    wait_until(lambda: attempt_state(repo) == "submitted", timeout=90,
               what="the worker's commit submitted")
    wait_until(lambda: shows(terminal, r"T-1-a1 +submitted"), what="submitted, on the Gate")

    keys.press("v")          # verify
    wait_until(lambda: attempt_state(repo) == "verified", timeout=90, what="T-1-a1 verified")
    wait_until(lambda: shows(terminal, r"T-1-a1 +verified"), what="verified, on the Gate")

    keys.press("R")          # the review screen: a fresh reviewer
    wait_until(lambda: "T-1-a1 · reviews" in terminal.screen(), what="the review screen")
    keys.press("s")
    wait_until(lambda: "Review T-1-a1" in terminal.screen(), what="the reviewer's CLI form")
    keys.press("C-s")
    wait_until(lambda: rows(repo, "SELECT verdict FROM reviews") == [{"verdict": "pass"}],
               timeout=90, what="the reviewer's verdict")
    keys.press("Escape")
    wait_until(lambda: "T-1-a1 · reviews" not in terminal.screen(), what="back on the Gate")

    keys.press("I")          # integrate, with both scores and reasons
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
    assert git(repo, "rev-parse", "main", env=world.env) == sha
    assert git(repo, "show", "main:src/hello.txt", env=world.env) == "hello"
    with capsys.disabled():
        print(f"\nwalk (demo agents): {keys.count} keys from `a2a up` to integrated:"
              f" {' '.join(keys.log)}")
    assert keys.count < KEY_BUDGET, keys.log
    assert Repo(repo).config().tmux_session
