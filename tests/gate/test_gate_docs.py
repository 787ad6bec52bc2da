"""The docs say what the gate does: every error code the gate raises has a meaning in the error
code reference (docs/reference/error-codes.md), and the role table of docs/reference/gate.md is
the one `a2a_tui/gate/roles.py` enforces."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from a2a_tui.gate.roles import ROLE_TABLE, who_may

ROOT = Path(__file__).resolve().parents[2]
GATE = ROOT / "a2a_tui" / "gate"
CODES = ROOT / "docs" / "reference" / "error-codes.md"


def table_rows(path: Path, after: str) -> list[list[str]]:
    """The cells of the first table after the line `after` (a heading or a marker)."""
    text = path.read_text(encoding="utf-8").split(after, 1)[1]
    lines = [ln for ln in text.splitlines() if ln.startswith("|")]
    first = text.splitlines().index(lines[0])
    rows = []
    for line in text.splitlines()[first + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]])
    return rows


def documented_codes() -> dict[str, str]:
    """Every code of the error-code reference, with its meaning."""
    out = {}
    for line in CODES.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| `([a-z_]+)` \| (.+?) \|", line)
        if m:
            out[m[1]] = m[2]
    return out


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
                code = next((k.value for k in node.keywords if k.arg == "code"), None)
                if name == "GitError" and isinstance(code, ast.Constant):
                    codes.add(code.value)   # GitError(operation, stderr, code=...)
                elif (name in ("A2AError", "GitError", "refuse") and node.args
                        and isinstance(node.args[0], ast.Constant)):
                    codes.add(node.args[0].value)
            elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple)
                  and any(getattr(t, "id", "") == "problem" for t in node.targets)
                  and isinstance(node.value.elts[0], ast.Constant)):
                codes.add(node.value.elts[0].value)
    return codes


def test_every_gate_error_code_has_a_meaning_in_the_docs():
    documented = documented_codes()
    found = gate_codes()
    assert {"target_diverged", "ref_locked", "role_forbidden", "target_lacks_sha"} <= found
    assert found - set(documented) == set(), "codes the docs do not explain"
    assert all(len(documented[c]) > 10 for c in found), "a code with no real meaning"


def test_the_docs_role_table_is_the_enforced_one():
    table = table_rows(ROOT / "docs" / "reference" / "gate.md", "<!-- gen:roles -->")
    rows = {row[0].strip("`"): row[1] for row in table}
    assert rows == {command: who_may(command) for command in ROLE_TABLE}
    # One table: the broker runs for a session exactly the commands some session's row names.
    from a2a_tui.broker import commands

    runs = {row[0].strip("`") for row in table if row[2].startswith("runs it")}
    assert runs == set(commands.AGENT)
