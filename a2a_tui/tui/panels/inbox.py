"""Inbox: entries between the ideation and executive controllers, newest first."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from a2a_tui.tui import fmt
from a2a_tui.tui.panels.base import Cell, Panel
from a2a_tui.tui.queries import InboxEntry
from a2a_tui.tui.screens.detail import TextScreen


def status_word(e: InboxEntry) -> Text:
    """A report's verdict word as written (never raised), else the entry's state."""
    if e.status:
        return Text(e.status, style=fmt.VERDICT_STYLE.get(e.status, "bold"))
    if e.authorized is False:
        return Text("UNAUTHORIZED", style="bold red")
    return Text(e.state, style="dim" if e.state != "open" else "")


class InboxPanel(Panel[InboxEntry]):
    SCOPE = "inbox"
    TITLE = "Inbox"
    EMPTY = "no entries"
    COLUMNS = (("id", "Entry"), ("kind", "Kind"), ("status", "Status"), ("from", "From"),
               ("text", "Text"))

    def cells(self, e: InboxEntry) -> Sequence[Cell]:
        return (Text(e.id, style="bold"), e.kind, status_word(e), e.author,
                fmt.one_line(e.text, 60))

    def detail(self, e: InboxEntry) -> Text:
        t = Text()
        t.append(f"{e.id} {e.kind}", style="bold")
        t.append(f" · {e.author}" + (f" → {e.recipient}" if e.recipient else "")
                 + (f" · card {e.card}" if e.card else "") + (f" · re {e.ref}" if e.ref else "")
                 + f" · {fmt.clock(e.ts_ns)} · ", style="dim")
        t.append_text(status_word(e))
        t.append("\n" + e.text.strip())
        return t

    def subtitle(self) -> str:
        open_ = sum(e.state == "open" for e in self.rows.values())
        return f"{len(self.rows)} · {open_} open"

    def why_disabled(self, action: str, params: tuple[object, ...]) -> str | None:
        return self.nothing_selected()

    def action_open(self) -> None:
        e = self.selected
        assert e is not None
        self.app.push_screen(TextScreen(f"{e.id} · {e.kind}", self.detail(e)))
