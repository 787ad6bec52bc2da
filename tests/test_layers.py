"""The import contracts in pyproject.toml hold: `lint-imports` (import-linter) passes.

The layers, top to bottom: `__main__` > `cli` > `demo` > `tui` > `lifecycle` > `spawn` > `gate |
panes | metrics` > `collab` > `repo | settings` > `queue | store` > adapters (`demo_agent |
dirwatch | profiles | tmux` > `git`) > `config | faults | identity | resources` > `payloads` >
`errors | host | ids | kinds`. A module imports only from layers below its own (function-level
imports count too); peers split by `|` never import each other, so the gate and the panes stay
apart. Every
top-level module must be placed (`exhaustive`). A second contract forbids import circles among
the modules of each of the gate's packages (cards, attempts, verification, integration, reviews,
ledger), of the metrics and of the git adapter (`acyclic_siblings`); a third keeps textual and
rich out of the core; a fourth sets the gate's packages in one direction (integration > reviews >
verification > attempts > cards > context | escalate | roles | views > ledger > model).

It fails the build when a back-import is added. Tried by hand: appending
`from a2a_tui.panes import machine` to a2a_tui/gate/model.py makes `lint-imports` exit 1 with
"a2a_tui.gate is not allowed to import a2a_tui.panes: a2a_tui.gate.model ->
a2a_tui.panes.machine", and this file's first test fails; removing the line makes it pass again.
`test_a_back_import_breaks_the_contract` repeats that on a copy of the package on every run.
"""

from __future__ import annotations

import ast
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
    assert "Contracts: 4 kept, 0 broken." in r.stdout, r.stdout


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
    ("git/runner.py", "from a2a_tui.repo import Repo",
     "a2a_tui.git is not allowed to import a2a_tui.repo"),
    ("faults.py", "from a2a_tui import identity",
     "a2a_tui.faults is not allowed to import a2a_tui.identity"),
    # the core and the UI libraries
    ("collab/board.py", "import rich", "a2a_tui.collab is not allowed to import rich"),
    # a circle inside one of the gate's packages (commands already imports schema)
    ("gate/cards/schema.py", "from a2a_tui.gate.cards import commands",
     "No cycles are allowed in a2a_tui.gate.cards."),
    ("gate/verification/isolated.py", "def _f():\n    from a2a_tui.gate.verification import chain",
     "No cycles are allowed in a2a_tui.gate.verification."),
    # the gate's packages in one direction: the cards' commands never read the verification
    # (they were two-way), the attempts never the integration or the reviews, the fold nothing
    ("gate/cards/commands.py", "def _f():\n    from a2a_tui.gate.verification import chain",
     "a2a_tui.gate.cards is not allowed to import a2a_tui.gate.verification"),
    ("gate/attempts/ownership.py", "from a2a_tui.gate.integration import targets",
     "a2a_tui.gate.attempts is not allowed to import a2a_tui.gate.integration"),
    ("gate/attempts/cleanup.py", "from a2a_tui.gate.reviews import launch",
     "a2a_tui.gate.attempts is not allowed to import a2a_tui.gate.reviews"),
    ("gate/ledger/writer.py", "from a2a_tui.gate.cards import commands",
     "a2a_tui.gate.ledger is not allowed to import a2a_tui.gate.cards"),
    # and inside the git adapter (its runner already imports env)
    ("git/env.py", "def _f():\n    from a2a_tui.git import runner",
     "No cycles are allowed in a2a_tui.git."),
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


def unexplained_deferred_imports(root: Path) -> list[str]:
    """Imports inside functions with no reason given: a `#` comment on the import, on its block of
    imports or on the comment lines just above it, or a module-wide `# Imports inside functions:`
    line for a module that defers them all for one reason."""
    found = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "# Imports inside functions:" in text:
            continue
        lines = text.splitlines()
        for fn in ast.walk(ast.parse(text)):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            nodes = sorted((n for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom))),
                           key=lambda n: n.lineno)
            blocks: list[list[ast.stmt]] = []
            for n in nodes:
                between = lines[blocks[-1][-1].end_lineno:n.lineno - 1] if blocks else ["x"]
                if blocks and all(not s.strip() or s.strip().startswith("#") for s in between):
                    blocks[-1].append(n)
                else:
                    blocks.append([n])
            for block in blocks:
                start = block[0].lineno - 1
                while start > 0 and lines[start - 1].strip().startswith("#"):
                    start -= 1
                if not any("#" in line for line in lines[start:block[-1].end_lineno]):
                    found.append(f"{path.relative_to(root.parent)}:{block[0].lineno}")
    return found


def test_every_deferred_import_says_why():
    """An import inside a function dodges no cycle (the contract counts it) and costs a reader a
    question: each one says why it waits (start-up time, mostly)."""
    assert unexplained_deferred_imports(ROOT / "a2a_tui") == []


def test_a_deferred_import_without_a_reason_is_seen(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "m.py").write_text('"""m."""\n\n\ndef f():\n    import json\n\n    return json\n\n\n'
                              'def g():\n    import json  # lazy: g is rare\n\n    return json\n')
    assert unexplained_deferred_imports(pkg) == ["pkg/m.py:5"]
