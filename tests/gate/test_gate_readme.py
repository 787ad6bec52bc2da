"""The README's gate tables say what the code does: every error code the gate raises has a
meaning there, and the role table is the one `a2a_tui/gate/roles.py` enforces."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from a2a_tui.gate.roles import GATE_ROLES, who_may

ROOT = Path(__file__).resolve().parents[2]
GATE = ROOT / "a2a_tui" / "gate"


def _table_after(marker: str) -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = []
    for line in text.split(f"<!-- {marker} -->", 1)[1].lstrip().splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]])
    return rows


def gate_codes() -> set[str]:
    """Codes raised in the gate: `A2AError("code", ...)` (GitError, refuse),
    `problem = ("code", ...)` and `return ("code", ...)` in a `..._refusal` helper."""
    codes = set()
    for path in GATE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef) and fn.name.endswith("_refusal"):
                codes |= {r.value.elts[0].value for r in ast.walk(fn)
                          if isinstance(r, ast.Return) and isinstance(r.value, ast.Tuple)
                          and isinstance(r.value.elts[0], ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if (name in ("A2AError", "GitError", "refuse") and node.args
                        and isinstance(node.args[0], ast.Constant)):
                    codes.add(node.args[0].value)
            elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple)
                  and any(getattr(t, "id", "") == "problem" for t in node.targets)):
                codes.add(node.value.elts[0].value)
    return codes


def test_every_gate_error_code_has_a_meaning_in_the_readme():
    documented = {code for row in _table_after("gate-codes")
                  for code in re.findall(r"`([a-z_]+)`", row[0])}
    found = gate_codes()
    assert {"target_diverged", "ref_locked", "role_forbidden", "target_lacks_sha"} <= found
    assert found - documented == set(), "codes the README does not explain"
    assert documented - found <= {"git_missing", "usage"}, "codes the gate no longer raises"


def test_the_readme_role_table_is_the_enforced_one():
    rows = {row[0].strip("`"): row[1] for row in _table_after("gate-roles")}
    assert rows == {command: who_may(command) for command in GATE_ROLES}
