"""Read-only detail screens: a board question (answerable from here), an entry or event (the
Gate panel's screens are in gate.py)."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from a2a_tui.tui import actions
from a2a_tui.tui.chrome import BoxScreen, WorkbenchFooter

CLOSE = [Binding("escape,q,enter", "close", "Close", priority=True)]


class DetailScreen(BoxScreen[str | None]):
    """A modal box; Esc closes it."""

    BINDINGS = CLOSE
    DEFAULT_CSS = """
    DetailScreen VerticalScroll { height: auto; max-height: 100%; }
    """

    def __init__(self, title: str) -> None:
        super().__init__()
        self.box_title = title

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.box_title
            box.border_subtitle = self.keys_hint()
            yield from self.body()
        yield WorkbenchFooter(compact=True)

    def body(self) -> ComposeResult:
        yield from ()

    def keys_hint(self) -> str:
        return "Esc close"

    def action_close(self) -> None:
        self.dismiss(None)


class TextScreen(DetailScreen):
    def __init__(self, title: str, text: str | Text) -> None:
        super().__init__(title)
        self.text = text

    def body(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.text, markup=False)


WhyDisabled = Callable[[str, tuple[object, ...]], "str | None"]


class QuestionScreen(DetailScreen):
    """A board item in full. The board's answer keys work here: the screen closes with the
    action's name, and `why_disabled` (the board's own) says when one cannot act."""

    BINDINGS = [Binding("escape,q", "close", "Close", priority=True),
                *[a.binding() for a in actions.for_scope("board")
                  if a.name in ("pick", "adopt", "write_answer")]]

    def __init__(self, title: str, content: Text, why_disabled: WhyDisabled) -> None:
        super().__init__(title)
        self.content = content
        self._why_disabled = why_disabled

    def body(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.content, markup=False)

    def keys_hint(self) -> str:
        return "1-9 pick · a adopt · t write · Esc close"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("pick", "adopt", "write_answer"):
            return None if self._why_disabled(action, parameters) else True
        return True

    def why_disabled(self, action: str, parameters: tuple[object, ...]) -> str | None:
        return self._why_disabled(action, parameters)

    def action_pick(self, d: int) -> None:
        self.dismiss(f"pick({d})")

    def action_adopt(self) -> None:
        self.dismiss("adopt")

    def action_write_answer(self) -> None:
        self.dismiss("write_answer")
