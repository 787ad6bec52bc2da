"""The import contracts in pyproject.toml hold: `lint-imports` (import-linter) passes.

The layers, top to bottom: `__main__` > `cli` > `demo` > `tui` > `lifecycle` > `spawn` > `gate |
panes | metrics` > `collab` > `repo | settings` > `queue | store` > adapters (`demo_agent |
dirwatch | profiles | tmux` > `git`) > `config | faults | identity | resources` > `errors | host |
ids`. A module imports only from layers below its own (function-level imports count too); peers
split by `|` never import each other, so the gate and the panes stay apart. Every top-level module
must be placed (`exhaustive`). A second contract keeps textual and rich out of the core.

It fails the build when a back-import is added. Tried by hand: appending
`from a2a_tui.panes import machine` to a2a_tui/gate/model.py makes `lint-imports` exit 1 with
"a2a_tui.gate is not allowed to import a2a_tui.panes: a2a_tui.gate.model ->
a2a_tui.panes.machine", and this file's first test fails; removing the line makes it pass again.
`test_a_back_import_breaks_the_contract` repeats that on a copy of the package on every run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """`lint-imports` on the package under `root`, with the contracts of its pyproject.toml."""
    assert LINT_IMPORTS.exists(), f"{LINT_IMPORTS} is missing: pip install -e '.[test]'"
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "pyproject.toml"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=120)


def copy_package(dest: Path) -> None:
    """The package and its contracts, to plant an import in without touching the checkout."""
    shutil.copytree(ROOT / "a2a_tui", dest / "a2a_tui",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")


def test_the_import_contracts_hold():
    r = lint_imports(ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Contracts: 2 kept, 0 broken." in r.stdout, r.stdout


@pytest.mark.parametrize("module, line, broken", [
    # the gate and the panes are peers
    ("gate/model.py", "from a2a_tui.panes import machine",
     "a2a_tui.gate is not allowed to import a2a_tui.panes"),
    ("panes/delivery.py", "from a2a_tui.gate import model",
     "a2a_tui.panes is not allowed to import a2a_tui.gate"),
    # a lower layer reaching up, even inside a function
    ("queue.py", "def _f():\n    from a2a_tui.collab import delivery",
     "a2a_tui.queue is not allowed to import a2a_tui.collab"),
    ("collab/inbox.py", "from a2a_tui.spawn import spawn",
     "a2a_tui.collab is not allowed to import a2a_tui.spawn"),
    ("store/watch.py", "from a2a_tui.repo import Repo",
     "a2a_tui.store is not allowed to import a2a_tui.repo"),
    ("git.py", "from a2a_tui.repo import Repo",
     "a2a_tui.git is not allowed to import a2a_tui.repo"),
    ("faults.py", "from a2a_tui import identity",
     "a2a_tui.faults is not allowed to import a2a_tui.identity"),
    # the core and the UI libraries
    ("collab/board.py", "import rich", "a2a_tui.collab is not allowed to import rich"),
])
def test_a_back_import_breaks_the_contract(tmp_path, module, line, broken):
    copy_package(tmp_path)
    assert lint_imports(tmp_path).returncode == 0  # the copy is what is checked
    with open(tmp_path / "a2a_tui" / module, "a", encoding="utf-8") as f:
        f.write(f"\n{line}\n")
    r = lint_imports(tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    assert broken in r.stdout, r.stdout


def test_a_module_outside_every_layer_breaks_the_contract(tmp_path):
    copy_package(tmp_path)
    (tmp_path / "a2a_tui" / "stray.py").write_text('"""Placed in no layer."""\n')
    r = lint_imports(tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "stray" in r.stdout, r.stdout
