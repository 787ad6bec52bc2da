"""docs/reference/error-codes.md: every error code a2a raises (read from the code,
docs/refgen/scan.py), each with its meaning (docs/reference/error-codes.toml) and where it is
raised. A code raised with no meaning, or a meaning of a code nothing raises, stops the
generator: the table cannot drift from the code."""

from __future__ import annotations

import tomllib
from pathlib import Path

from . import scan
from .markdown import HEADER, Unwritable, anchor, code, table
from .paths import DOCS

MEANINGS = DOCS / "reference" / "error-codes.toml"

INTRO = """\
# Error codes

Every refusal and failure is one line on stderr, `a2a: error: <message> [<code>]`, and a non-zero
exit (2 for bad usage); with `--json` it is `{"error": {"code": ..., "message": ...}}` (and
`details` where there are more, e.g. every problem of a card). Nothing is half-written: a
refused command has recorded nothing but, where said, the refusal itself.

The codes are read from the code (every code a2a raises is in this table, and no other); what
each means is kept in [`error-codes.toml`](error-codes.toml). A verify's rejection codes (the
step that failed: `out_of_bounds`, `check_failed`, `test_dropped`, ...) are in
[the gate's chain](gate.md#the-check-chain).
"""


class Undocumented(Unwritable):
    """The code has codes (or kinds) the meanings do not explain, or the other way round."""


def sections_of(path: Path) -> dict[str, dict[str, str]]:
    """{section: {"title": ..., name: meaning}} in the file's order."""
    return tomllib.loads(path.read_text(encoding="utf-8"))


def check_told(path: Path, found: set[str], sections: dict[str, dict[str, str]],
               what: str) -> None:
    """Stop unless `found` and the names `sections` explain are the same set."""
    told = {c for s in sections.values() for c in s if c != "title"}
    missing, gone = sorted(found - told), sorted(told - found)
    said = ([f"{what} in the code with no meaning there: {', '.join(missing)}."] if missing
            else []) + ([f"meanings of {what} the code does not have: {', '.join(gone)}."]
                        if gone else [])
    if said:
        raise Undocumented(f"{path.relative_to(DOCS.parent)}: {' '.join(said)} Add or remove"
                           " them, then run .venv/bin/python docs/generate.py")


def where(paths: set[str]) -> str:
    """Where something occurs, short: `gate/attempts/ownership.py, gate/reviews/verdict.py (+2)`."""
    short = sorted(code(p.removeprefix("a2a_tui/")) for p in paths)
    return ", ".join(short[:3]) + (f" (+{len(short) - 3})" if len(short) > 3 else "")


def render() -> str:
    found = scan.error_codes().where
    sections = sections_of(MEANINGS)
    check_told(MEANINGS, set(found), sections, "codes")
    out = [HEADER, INTRO]
    out += [f"- [{s['title']}](#{anchor(s['title'])})" for s in sections.values()]
    out.append("")
    for s in sections.values():
        rows = [(code(c), m, where(found[c])) for c, m in s.items() if c != "title"]
        out += [f"## {s['title']}\n", table(("code", "meaning", "raised in"), rows), ""]
    return "\n".join(out).rstrip() + "\n"
