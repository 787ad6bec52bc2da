"""docs/reference/events.md: every kind of event in a2a's log — appended somewhere in the code
(docs/refgen/scan.py) or named in the registry of kinds (a2a_tui/kinds.py: what the gate's
ledger folds and the metrics read) — with what it records (docs/reference/events.toml), its
payload's fields (from its payload type, a2a_tui/payloads), who writes it and who reads it."""

from __future__ import annotations

import dataclasses

from a2a_tui.gate.ledger import HANDLERS
from a2a_tui.kinds import EventKind, GateEvent
from a2a_tui.metrics.handlers import HANDLERS as METRICS_FOLD
from a2a_tui.metrics.history import READ_IN_SQL
from a2a_tui.payloads import PAYLOADS

from . import scan
from .codes_ref import check_told, sections_of, where
from .markdown import HEADER, anchor, code, table
from .paths import DOCS

MEANINGS = DOCS / "reference" / "events.toml"

INTRO = """\
# Event kinds

Everything a2a does is appended to one log (`a2a events`, the Events panel): append-only,
hash-chained, in one SQLite store. The gate's tables are folded from it by the ledger, one
handler per kind ("the gate folds it" below: `a2a store verify` checks those tables against the
log, `a2a store rebuild` writes them again from it), and every metric is computed from it
("the metrics read it"). Why the log decides: [the record](../explanation/the-record.md).

The kinds are read from the code (what it appends, what the ledger folds, what the metrics
read); what each records is kept in [`events.toml`](events.toml). A kind with a payload type
(`a2a_tui/payloads`) lists its payload's keys and their types, from that type: an append must
give that type, and a key marked optional may be missing from an older event (it reads as its
default). A kind without one (—) still carries a free-form payload.
"""


def fields(kind: str) -> str:
    """The payload's keys and types, from the kind's payload type ("—": no type yet)."""
    t = PAYLOADS.get(kind)
    if t is None:
        return "—"
    out = []
    for f in dataclasses.fields(t):  # type: ignore[arg-type]
        optional = (f.default is not dataclasses.MISSING
                    or f.default_factory is not dataclasses.MISSING)
        out.append(f"{code(f.metadata.get('key', f.name))}: {f.type}"
                   + (" (optional)" if optional else ""))
    return ", ".join(out)



def kinds() -> dict[str, set[str]]:
    """Every kind, with the modules that append it (none: only read)."""
    found = dict(scan.event_kinds().where)
    for kind in [*GateEvent, *EventKind]:
        found.setdefault(str(kind), set())
    return found


def render() -> str:
    found = kinds()
    sections = sections_of(MEANINGS)
    check_told(MEANINGS, set(found), sections, "kinds")
    read = {str(k) for k in [*METRICS_FOLD, *READ_IN_SQL]}
    out = [HEADER, INTRO]
    out += [f"- [{s['title']}](#{anchor(s['title'])})" for s in sections.values()]
    out.append("")
    for s in sections.values():
        rows = []
        for kind, meaning in s.items():
            if kind == "title":
                continue
            readers = [r for r, yes in (("the gate folds it", kind in HANDLERS),
                                        ("the metrics read it", kind in read)) if yes]
            rows.append((code(kind), meaning, fields(kind), where(found[kind]) or "—",
                         "; ".join(readers)))
        out += [f"## {s['title']}\n",
                table(("kind", "what it records", "payload", "appended in", "read by"), rows),
                ""]
    return "\n".join(out).rstrip() + "\n"
