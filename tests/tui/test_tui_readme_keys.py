"""The README's key table names every key of the registry, in the right place."""

from __future__ import annotations

import re
from pathlib import Path

from a2a_tui.tui import actions

README = Path(__file__).resolve().parents[2] / "README.md"
WHERE = {"app": "everywhere", "panel": "any panel", "sessions": "sessions", "board": "board",
         "inbox": "inbox", "events": "events", "gate": "gate", "checks": "gate checks",
         "diff": "diff", "review": "review"}


def key_rows() -> list[tuple[str, set[str]]]:
    text = README.read_text(encoding="utf-8")
    part = text[text.index("## The workbench"):text.index("\n## ", text.index("## The workbench"))]
    rows = []
    for line in part.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("where", "---"):
            # the keys are what the cell puts in backticks (`/` is a key, / between them not)
            keys = {k for quoted in re.findall(r"`([^`]+)`", cells[1]) for k in quoted.split()}
            rows.append((cells[0].lower(), keys))
    return rows


def test_every_registry_key_is_in_the_readme_table():
    rows = key_rows()
    assert rows, "no key table under '## The workbench'"
    for a in actions.ACTIONS:
        if a.name == "pick" and a.method != "pick(1)":
            continue  # one row, "1-9", for the nine
        tokens = set(a.keys_shown.split())
        found = any(WHERE[a.scope] in where and tokens <= keys for where, keys in rows)
        assert found, f"{a.id} ({a.keys_shown}) is missing from the README's key table"
