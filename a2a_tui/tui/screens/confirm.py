"""A yes/no question in a modal, for the actions that cannot be taken back: it says what will
happen, `y` does it, `n` or Esc does not."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from a2a_tui.tui.chrome import BoxScreen, WorkbenchFooter


class ConfirmScreen(BoxScreen[bool]):
    """Returns True only when the user said yes."""

    BINDINGS = [Binding("y", "answer(True)", "Yes", priority=True),
                Binding("n,escape", "answer(False)", "No", priority=True)]
    DEFAULT_CSS = """
    ConfirmScreen > Vertical { max-width: 90; border: round $warning; }
    """

    def __init__(self, title: str, text: str | Text, yes: str = "y") -> None:
        super().__init__()
        self.box_title = title
        self.text = text
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.box_title
            box.border_subtitle = f"{self.yes} · n / Esc: no"
            yield Static(self.text, markup=False)
        yield WorkbenchFooter(compact=True)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
