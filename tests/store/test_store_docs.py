"""The docs' store codes say what the store layer raises: every code raised in `a2a_tui/store/`
(and every StoreCode) has a meaning in the error-code reference's store section, and that
section names no code nothing raises."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from a2a_tui.store.trouble import StoreCode
from tests.gate.test_gate_docs import CODES, documented_codes

ROOT = Path(__file__).resolve().parents[2]


def store_section() -> set[str]:
    text = CODES.read_text(encoding="utf-8")
    part = text[text.index("## The store"):]
    part = part[:part.find("\n## ", 1)] if "\n## " in part[1:] else part
    return set(re.findall(r"^\| `([a-z_]+)` \|", part, re.M))


def raised(where: Path) -> set[str]:
    codes = set()
    for path in where.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "A2AError"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                codes.add(node.args[0].value)
    return codes


def test_every_store_code_has_a_meaning_in_the_docs():
    found = {str(c) for c in StoreCode} | raised(ROOT / "a2a_tui" / "store")
    assert {"store_full", "store_io", "store_foreign", "backup_exists"} <= found
    assert found - set(documented_codes()) == set(), "codes the docs do not explain"
    told = store_section()
    assert found & told, "no store section in docs/reference/error-codes.md"
    anywhere = raised(ROOT / "a2a_tui") | found
    assert told - anywhere == set(), "the store section names codes nobody raises"
