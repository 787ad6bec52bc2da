"""`!`: what waits for the user, one row each; Enter goes to the thing (the question on the
Board, the pane in tmux, the rejected attempt on the Gate), Esc closes."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from a2a_tui.tui.chrome import BoxScreen, WorkbenchFooter

GOES_TO = {"question": "Board", "waiting": "its pane", "stalled": "its pane",
           "rejection": "Gate", "stop": "Gate"}


class WaitingScreen(BoxScreen[object | None]):
    """Returns the `Waiting` picked with Enter, or None (Esc)."""

    BINDINGS = [Binding("enter", "go", "Go to it", priority=True),
                Binding("j", "move(1)", "Down", show=False),
                Binding("k", "move(-1)", "Up", show=False),
                Binding("escape,q", "close", "Close", priority=True)]
    DEFAULT_CSS = """
    WaitingScreen DataTable { height: auto; max-height: 20; }
    """

    def __init__(self, waiting: Sequence) -> None:
        super().__init__()
        self.waiting = list(waiting)

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"{len(self.waiting)} waiting for you"
            box.border_subtitle = "Enter go to it · Esc close"
            if self.waiting:
                yield DataTable(cursor_type="row", id="waiting")
            else:
                yield Static("nothing waits for you")
        yield WorkbenchFooter(compact=True)

    def on_mount(self) -> None:
        if not self.waiting:
            return
        table = self.query_one(DataTable)
        table.add_columns("What", "", "Goes to")
        for i, w in enumerate(self.waiting):
            table.add_row(Text(w.kind, style="bold"), w.text, GOES_TO.get(w.kind, ""),
                          key=str(i))
        table.focus()

    def action_move(self, by: int) -> None:
        if self.waiting:
            table = self.query_one(DataTable)
            table.move_cursor(row=max(0, min(table.row_count - 1, table.cursor_row + by)))

    def action_go(self) -> None:
        if not self.waiting:
            self.dismiss(None)
            return
        self.dismiss(self.waiting[self.query_one(DataTable).cursor_row])

    def action_close(self) -> None:
        self.dismiss(None)
