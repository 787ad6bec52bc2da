"""A card the gate would not take: every problem at once, each with its line; `e` opens the
editor on it again, Esc keeps the file for later (`a2a card add FILE`)."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from a2a_tui.tui.chrome import BoxScreen, WorkbenchFooter


class CardProblemsScreen(BoxScreen[bool]):
    """Returns True to edit the card again, False to keep it as it is."""

    BINDINGS = [Binding("e,enter", "answer(True)", "Edit again", priority=True),
                Binding("escape,q", "answer(False)", "Keep it", priority=True)]
    DEFAULT_CSS = """
    CardProblemsScreen > Vertical { border: round $error; }
    CardProblemsScreen VerticalScroll { height: auto; max-height: 100%; }
    """

    def __init__(self, path: Path, problems: list[str]) -> None:
        super().__init__()
        self.path = path
        self.problems = problems

    def compose(self) -> ComposeResult:
        t = Text()
        t.append(f"{len(self.problems)} problem{'s' * (len(self.problems) != 1)} in"
                 f" {self.path} (nothing was added):\n", style="bold")
        for p in self.problems:
            rest = p.removeprefix(str(self.path))
            t.append(f"\n  {'line ' + rest[1:] if rest.startswith(':') else rest}")
        with Vertical() as box:
            box.border_title = "The card needs work"
            box.border_subtitle = "e edit again · Esc keep it"
            with VerticalScroll():
                yield Static(t, markup=False)
        yield WorkbenchFooter(compact=True)

    def action_answer(self, again: bool) -> None:
        self.dismiss(again)
