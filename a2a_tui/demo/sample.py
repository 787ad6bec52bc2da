"""The demo's sample repository: a tiny Python module, its test, and two task cards.

Built with the same functions a user's commands run (`a2a init`, `a2a card add/ready`), in a
fresh folder. Only Python and git are needed: the checks run `python -m unittest`.
"""

from __future__ import annotations

import shlex
import sys
import tempfile
from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.gate.cards.commands import add_card, ready_card
from a2a_tui.gate.context import GateContext
from a2a_tui.git import Git
from a2a_tui.identity import Caller
from a2a_tui.repo import Repo, find_repo, init

FILES = {
    "greet.py": 'def greet(name):\n    return f"Hello, {name}!"\n',
    "test_greet.py": ("import unittest\n\nfrom greet import greet\n\n\n"
                      "class Greet(unittest.TestCase):\n"
                      "    def test_hello(self):\n"
                      '        self.assertEqual(greet("Ada"), "Hello, Ada!")\n'),
    "README.md": "# greet\n\nThe a2a demo's sample project.\n",
}

CARD = """\
id = "{id}"
title = "{title}"
goal = "{goal}"
non_goals = ["{non_goal}"]
allowed_paths = ["greet.py", "test_*.py"]
acceptance = ["{acceptance}"]
task_type = "{task_type}"
complexity = "S"
source_ticket = "DEMO-{n}"

[executor]
cli = "demo"
model = "demo"
effort = "low"

[[checks]]
name = "unit-tests"
command = '''{check}'''
blocking = true
timeout_s = 60
"""

CARDS = [
    dict(id="T-1", n=1, title="Refuse empty names", task_type="bugfix",
         goal="greet('') raises ValueError('name is empty') instead of greeting nobody",
         non_goal="No change to how real names are greeted",
         acceptance="greet('') raises ValueError; greet('Ada') still says Hello, Ada!"),
    dict(id="T-2", n=2, title="Greet in the user's language", task_type="feature",
         goal="greet(name, lang) greets in French and German too",
         non_goal="No translation service; a small table is enough",
         acceptance="greet('Ada', 'fr') == 'Bonjour, Ada!'"),
]


def new_folder(where: str | None) -> Path:
    """An empty folder for the sample repository."""
    if where is None:
        return Path(tempfile.mkdtemp(prefix="a2a-demo-"))
    path = Path(where).resolve()
    if path.exists() and any(path.iterdir()):
        raise A2AError("demo_dir_not_empty", f"{path} is not empty: give a new or empty folder")
    path.mkdir(parents=True, exist_ok=True)
    return path


def build(root: Path, tmux_session: str) -> Repo:
    """A git repository with the sample project committed, a2a initialised, both cards ready."""
    git = Git(root)
    git.init("main")
    # The demo commits as itself; a fresh machine may have no git identity at all.
    git.set_config("user.name", "a2a demo")
    git.set_config("user.email", "demo@a2a.invalid")
    for name, text in FILES.items():
        (root / name).write_text(text, encoding="utf-8")
    git.commit_all("greet: the sample project")
    repo = find_repo(root)
    init(repo)
    cfg = repo.config()
    cfg.tmux_session = tmux_session
    repo.write_config(cfg)
    _add_cards(repo)
    return repo


def _add_cards(repo: Repo) -> None:
    check = f"{shlex.quote(sys.executable)} -m unittest -q"
    cards_dir = repo.a2a_dir / "demo-cards"
    cards_dir.mkdir(exist_ok=True)
    with repo.store() as store:
        g = GateContext(repo, store, Caller())
        for spec in CARDS:
            path = cards_dir / f"{spec['id']}.toml"
            path.write_text(CARD.format(check=check, **spec), encoding="utf-8")
            add_card(g, path)
            ready_card(g, spec["id"])
