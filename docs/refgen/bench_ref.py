"""Figures quoted from bench/REPORT.md, never retyped: the report's tables read by heading and
measure, for regions in README.md and docs/ (`gen:bench`, `gen:bench-table`,
`gen:bench-machine`). A quote of a measure the report no longer has stops the generator."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .markdown import Unwritable, table
from .paths import ROOT

REPORT = ROOT / "bench" / "REPORT.md"
# The report's column names, and the names its separate runs use for the same columns.
SAME = {"beside": "physical limit (same run)", "its median": "limit median",
        "its p99": "limit p99"}
SHORT = {"limit": "limit median"}


@dataclass(frozen=True)
class Row:
    section: str
    cells: dict[str, str]


class Unquotable(Unwritable):
    """A quote names a measure, column or section the report does not have."""


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def sections() -> dict[str, list[str]]:
    """The report's `## ` sections: heading -> lines."""
    out: dict[str, list[str]] = {}
    current = ""
    for line in REPORT.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            out[current] = []
        elif current:
            out[current].append(line)
    return out


def rows() -> list[Row]:
    """Every measure of every table in the report (a continuation row, which names a second
    limit of the row above, is left out)."""
    out = []
    for heading, lines in sections().items():
        head: list[str] | None = None
        for line in lines:
            if not line.startswith("|"):
                head = None
                continue
            cells = _cells(line)
            if head is None:
                head = [SAME.get(c, c) for c in cells]
            elif not set(line) <= set("|- ") and cells[1]:
                out.append(Row(heading, dict(zip(head, cells, strict=False))))
    return out


def _find(measure: str) -> Row:
    found = [r for r in rows() if r.cells.get("measure") == measure]
    if len(found) != 1:
        raise Unquotable(f"bench/REPORT.md has {len(found)} rows of measure {measure!r}"
                         " (a quote needs exactly one)")
    return found[0]


def quote(measure: str, column: str = "median") -> str:
    """One figure of the report: `quote("claim, 10,000 files", "ratio")` -> "0.81×"."""
    row = _find(measure)
    name = SHORT.get(column, column)
    if name not in row.cells:
        raise Unquotable(f"bench/REPORT.md, {measure!r}: no column {column!r}"
                         f" (one of {', '.join(row.cells)})")
    return row.cells[name]


def _section(prefix: str) -> str:
    found = [h for h in sections() if h.startswith(prefix)]
    if len(found) != 1:
        raise Unquotable(f"bench/REPORT.md: {len(found)} sections start with {prefix!r}")
    return found[0]


def quote_table(prefix: str = "Results") -> str:
    """A section of the report as it is, but its wide table: each measure there beside its limit
    and the ratio (the report has n and p99 too)."""
    heading = _section(prefix)
    picked = [r.cells for r in rows() if r.section == heading]
    cols = ("measure", "median", "physical limit (same run)", "limit median", "ratio")
    condensed = table(("measure", "median", "physical limit (same run)", "its median", "ratio"),
                      [[c.get(k, "") for k in cols] for c in picked])
    out, placed = [], False
    for line in sections()[heading]:
        if line.startswith("|"):
            if not placed:
                out.append(condensed)
                placed = True
        else:
            out.append(line)
    return "\n".join(out).strip()


def quote_machine() -> str:
    """The report's machine table, and how long the run took."""
    lines = sections()["Machine"]
    first = REPORT.read_text(encoding="utf-8").split("\n\n")[1]
    took = re.match(r"`([^`]+)`, ([\d.]+ min)", first)
    said = f"`{took[1]}`, {took[2]}.\n\n" if took else ""
    return said + "\n".join(line for line in lines if line.startswith("|"))
