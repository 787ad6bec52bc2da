"""gate/ is grouped by concept (issue 23): few modules at its top level, files small enough to read
at once, and no module named like a function it defines, so `gate.verify` is always the function.

Read from the source with `ast` (nothing imported): a new module at gate/'s top level past the
twelfth, a file past 450 lines, or a module `x.py` defining a public `def x` fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "a2a_tui"
GATE = PACKAGE / "gate"
MAX_TOP = 12
MAX_LINES = 450


def _sources(*roots: Path) -> list[Path]:
    return sorted(p for root in roots for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def top_level(gate: Path) -> list[str]:
    """gate/'s own modules and packages, `__init__.py` included."""
    return sorted(p.name for p in gate.iterdir()
                  if p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists()))


def long_files(paths: list[Path]) -> list[str]:
    return [f"{p}: {n} lines" for p in paths
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES]


def named_like_their_function(paths: list[Path]) -> list[str]:
    """Modules (or packages, by their `__init__.py`) that define a public function of their name."""
    out = []
    for p in paths:
        name = p.parent.name if p.name == "__init__.py" else p.stem
        tree = ast.parse(p.read_text(encoding="utf-8"))
        if any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name
               for n in tree.body):
            out.append(str(p))
    return out


def test_gate_has_at_most_twelve_modules_at_its_top_level():
    top = top_level(GATE)
    assert len(top) <= MAX_TOP, top


def test_no_file_of_the_gate_or_the_metrics_is_over_450_lines():
    assert long_files(_sources(GATE, PACKAGE / "metrics")) == []


def test_no_module_of_the_gate_is_named_like_a_function_it_defines():
    assert named_like_their_function(_sources(GATE)) == []


def test_no_subpackage_of_the_gate_is_named_like_one_of_its_functions():
    # `from a2a_tui.gate import verify` is the command; a part of that name, imported first,
    # would bind the module over it (PEP 562 only answers for names not yet set).
    tree = ast.parse((GATE / "__init__.py").read_text(encoding="utf-8"))
    names = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                 and any(getattr(t, "id", None) == "__all__" for t in n.targets))
    parts = {p.stem if p.suffix == ".py" else p.name for p in GATE.iterdir()}
    assert parts & set(names) == set()


@pytest.mark.parametrize("check, plant", [
    (lambda g: len(top_level(g)) > MAX_TOP,
     lambda g: [(g / f"extra{i}.py").write_text("") for i in range(MAX_TOP)]),
    (lambda g: long_files(_sources(g)) != [],
     lambda g: (g / "model.py").write_text("x = 1\n" * (MAX_LINES + 1))),
    (lambda g: named_like_their_function(_sources(g)) != [],
     lambda g: (g / "model.py").write_text("def model():\n    pass\n")),
    (lambda g: named_like_their_function(_sources(g)) != [],
     lambda g: (g / "cards" / "__init__.py").write_text("def cards():\n    pass\n")),
], ids=["top-level", "long-file", "module-named-like-its-function", "package-named-likewise"])
def test_each_check_finds_what_it_names(tmp_path, check, plant):
    # The checks above on a copy of gate/'s shape, clean and then with the fault planted.
    gate = tmp_path / "gate"
    gate.mkdir()
    for name in top_level(GATE):
        if name.endswith(".py"):
            (gate / name).write_text("")
        else:
            (gate / name).mkdir()
            (gate / name / "__init__.py").write_text("")
    assert not check(gate)
    plant(gate)
    assert check(gate)
