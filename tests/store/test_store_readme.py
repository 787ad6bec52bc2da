"""The README's table of store codes says what the store layer raises: every code raised in
`a2a_tui/store/` (and every StoreCode) has a meaning there, and the table names no code the
store no longer raises."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from a2a_tui.store.trouble import StoreCode

ROOT = Path(__file__).resolve().parents[2]


def documented() -> set[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    codes = set()
    for line in text.split("<!-- store-codes -->", 1)[1].lstrip().splitlines()[2:]:
        if not line.startswith("|"):
            break
        codes |= set(re.findall(r"`([a-z_]+)`", line.split("|")[1]))
    return codes


def raised() -> set[str]:
    codes = {str(c) for c in StoreCode}
    for path in (ROOT / "a2a_tui" / "store").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "A2AError"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                codes.add(node.args[0].value)
    return codes


def test_every_store_code_has_a_meaning_in_the_readme():
    found, told = raised(), documented()
    assert {"store_full", "store_io", "store_foreign", "backup_exists"} <= found
    assert found - told == set(), "codes the README does not explain"
    assert told - found == set(), "codes the store no longer raises"
