"""`?`: every key from the registry, what it does, and why it is unavailable right now."""

from __future__ import annotations

from collections.abc import Callable

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from a2a_tui.tui import actions

# (scope, action name, params) -> reason or None
WhyDisabled = Callable[[str, str, tuple[object, ...]], str | None]


def help_table(why: WhyDisabled) -> Table:
    table = Table(box=None, show_header=False, expand=True, padding=(0, 1))
    table.add_column("keys", style="bold cyan", no_wrap=True)
    table.add_column("what", ratio=1)
    seen_pick = False
    for scope, title in actions.SCOPES.items():
        entries = actions.for_scope(scope)
        if not entries:
            continue
        table.add_row(Text(title, style="bold underline"), "")
        for a in entries:
            if a.name == "pick":
                if seen_pick:
                    continue
                seen_pick = True
            what = Text(a.help)
            params = (1,) if a.name == "pick" else ()
            reason = why(scope, a.name, params)
            if reason:
                what.append(f"\n  unavailable now: {reason}", style="dim italic")
            table.add_row(a.keys_shown, what)
        table.add_row("", "")
    return table


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "close", "Close", priority=True)]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: 90%; max-width: 100; height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    """

    def __init__(self, why: WhyDisabled, footnote: str = "") -> None:
        super().__init__()
        self.table = help_table(why)
        self.footnote = footnote

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "a2a workbench · keys"
            box.border_subtitle = "Esc close"
            with VerticalScroll():
                yield Static(self.table)
                if self.footnote:
                    yield Static(Text(self.footnote, style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)
