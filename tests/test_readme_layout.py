"""The README's Layout table names every top-level part of the project and of the package."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOT_PARTS = {"README.md", ".gitignore", "a2a_tui", "__init__.py"}


def layout_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Layout")
    return text[start:text.index("\n## ", start + 1)]


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


def test_every_top_level_part_is_in_the_layout_table():
    table = layout_section()
    named = [p for p in parts() if f"`{p}" in table]
    assert named == parts(), f"not in the README's Layout table: {set(parts()) - set(named)}"
    assert "a2a_tui/spawn.py" in named and "hooks/" in named and "pyproject.toml" in named
