"""docs/reference/keys.md: every key of the workbench, from its one action registry
(`a2a_tui/tui/actions.py`), which also feeds the footer, `?` help and the `Ctrl-P` palette."""

from __future__ import annotations

from a2a_tui.tui import actions
from a2a_tui.tui.screens.help import _legend_rows

from .markdown import HEADER, code, table

INTRO = """\
# Workbench keys

Every key of the workbench, by where it acts, as its one action registry
(`a2a_tui/tui/actions.py`) has them; the same registry feeds the footer, the `?` help screen and
the `Ctrl-P` palette. A key that cannot act now is dimmed, and pressing it says why (`?` and the
palette say why too). How the panels and screens work: [the workbench](workbench.md).
"""


def _keys(a: actions.Action) -> str:
    # Each key its own code span: `j` `↓`, `Enter` `l`
    return " ".join(code(k) for k in a.keys_shown.split())


def render() -> str:
    out = [HEADER, INTRO]
    for scope, title in actions.SCOPES.items():
        rows = []
        for a in actions.for_scope(scope):
            if a.name == "pick" and a.method != "pick(1)":
                continue   # one row, 1-9, for the nine options
            label = "Option 1-9" if a.name == "pick" else a.label
            rows.append((_keys(a), label, a.help))
        if rows:
            out += [f"## {title}\n", table(("key", "action", "what it does"), rows), ""]
    out += ["## What the screen shows\n",
            "The legend of the `?` screen: the marks the panels use.\n",
            table(("mark", "what it means"), [(code(m), w) for m, w in _legend_rows()]), ""]
    return "\n".join(out).rstrip() + "\n"
