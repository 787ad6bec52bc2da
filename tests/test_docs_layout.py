"""The house's table of rooms (docs/explanation/the-house.md) names every top-level part of the
project and of the package."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "explanation" / "the-house.md"
NOT_PARTS = {"README.md", ".gitignore", "a2a_tui", "__init__.py"}


def rooms_section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index("## The rooms")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else len(text)]


def parts() -> list[str]:
    """Tracked top-level entries, and the package's subpackages and top-level modules."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.splitlines()
    top = {p.split("/")[0] + ("/" if "/" in p else "") for p in tracked}
    package = {f"a2a_tui/{p.name}/" for p in (ROOT / "a2a_tui").iterdir()
               if (p / "__init__.py").is_file()}
    package |= {f"a2a_tui/{p.name}" for p in (ROOT / "a2a_tui").glob("*.py")
                if p.name not in NOT_PARTS}
    return sorted(p for p in top | package if p.rstrip("/") not in NOT_PARTS)


def test_every_top_level_part_is_in_the_table_of_rooms():
    table = rooms_section()
    named = [p for p in parts() if f"`{p}" in table]
    assert named == parts(), f"not in the-house.md's table of rooms: {set(parts()) - set(named)}"
    assert "a2a_tui/spawn.py" in named and "hooks/" in named and "docs/" in named
