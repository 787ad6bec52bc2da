"""The key reference (docs/reference/keys.md) names every key of the registry, under the heading
of the place it acts."""

from __future__ import annotations

import re
from pathlib import Path

from a2a_tui.tui import actions

KEYS = Path(__file__).resolve().parents[2] / "docs" / "reference" / "keys.md"


def key_rows() -> list[tuple[str, set[str]]]:
    """(the section's heading, the keys of a row) for every row of every section's table."""
    rows, where = [], ""
    for line in KEYS.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            where = line[3:].strip()
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3 and cells[0] not in ("key", "---"):
            # the keys are what the cell puts in backticks (`/` is a key, / between them not)
            keys = {k for quoted in re.findall(r"`([^`]+)`", cells[0]) for k in quoted.split()}
            rows.append((where, keys))
    return rows


def test_every_registry_key_is_in_the_key_reference():
    rows = key_rows()
    assert rows, f"no key tables in {KEYS}"
    for a in actions.ACTIONS:
        if a.name == "pick" and a.method != "pick(1)":
            continue  # one row, "1-9", for the nine
        tokens = set(a.keys_shown.split())
        found = any(actions.SCOPES[a.scope] == where and tokens <= keys for where, keys in rows)
        assert found, f"{a.id} ({a.keys_shown}) is missing from {KEYS.name}"
