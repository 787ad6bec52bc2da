"""Where things are: the checkout, the package, the docs."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "a2a_tui"
DOCS = ROOT / "docs"
