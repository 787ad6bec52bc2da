"""A long text shown line by line with a cursor (a diff, a log): only the lines on screen are
rendered, so a 20,000-line diff opens as fast as a short one.

`LinesView` owns the cursor and the scrolling; a subclass says how line `i` looks
(`line_text`). The cursor row is what a later action (a comment on a diff line) acts on.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Static

from a2a_tui.errors import A2AError
from a2a_tui.tui.chrome import WorkbenchFooter

CURSOR = Style(bgcolor="grey30", bold=True)


class LinesView(ScrollView, can_focus=True):
    """Lines of rich Text with a row cursor; ↑↓ j k PgUp PgDn Home End move it."""

    BINDINGS = [
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("pagedown,space", "page(1)", "Page down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("home", "to_line(0)", "Top", show=False),
        Binding("end", "to_end", "End", show=False),
    ]
    DEFAULT_CSS = """
    LinesView { height: 1fr; scrollbar-size-vertical: 1; }
    """

    cursor: reactive[int] = reactive(0, always_update=False, init=False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.count = 0
        self._cache: dict[int, Strip] = {}

    # --- content ------------------------------------------------------------------------
    def line_text(self, i: int) -> Text:
        """How line `i` looks (subclasses)."""
        raise NotImplementedError

    def line_fill(self, i: int) -> Style | None:
        """The style the rest of line `i` is filled with, to the view's right edge."""
        return None

    def set_count(self, count: int, width: int) -> None:
        """Show `count` lines, the widest `width` cells; the cursor goes to the first."""
        self.count = count
        self._cache.clear()
        self.virtual_size = Size(width + 1, count)
        self.cursor = 0
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        i = scroll_y + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if i >= self.count:
            return Strip.blank(width, base)
        strip = self._cache.get(i)
        if strip is None:
            text = self.line_text(i)
            strip = Strip(list(text.render(self.app.console)), text.cell_len)
            self._cache[i] = strip
        fill = self.line_fill(i)
        line = strip.crop_extend(scroll_x, scroll_x + width, base + fill if fill else base)
        return line.apply_style(CURSOR) if i == self.cursor else line

    # --- the cursor ---------------------------------------------------------------------
    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, self.count - 1)) if self.count else 0

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh(Region(0, old - self.scroll_offset.y, self.size.width, 1))
        self.refresh(Region(0, new - self.scroll_offset.y, self.size.width, 1))
        self.scroll_to_region(Region(0, new, 1, 1), animate=False, force=True)

    def action_move(self, delta: int) -> None:
        self.cursor += delta

    def action_page(self, direction: int) -> None:
        self.cursor += direction * max(1, self.scrollable_content_region.height - 1)

    def action_to_line(self, i: int) -> None:
        self.cursor = i

    def action_to_end(self) -> None:
        self.cursor = self.count - 1

    def on_click(self, event: Any) -> None:
        self.cursor = self.scroll_offset.y + event.y


# --- loading what a screen shows, off the UI thread ---------------------------------------

class ContentRead(Message):
    """A screen's content was read (from the store, git, a log file)."""

    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value


class ContentUnreadable(Message):
    """Reading a screen's content failed; `code` and `message` say why in one line."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__()
        self.code = code
        self.message = message


def read_in_worker(node: Any, load: Callable[[], Any]) -> None:
    """Run `load` in a worker thread; `node` receives ContentRead or ContentUnreadable."""
    node.run_worker(partial(_read, node, load), thread=True, exit_on_error=False,
                    group="read", name="read")


def _read(node: Any, load: Callable[[], Any]) -> None:
    try:
        value = load()
    except A2AError as err:
        node.post_message(ContentUnreadable(err.code, err.message))
    except Exception as err:  # a bug shows on the screen, not as a dead worker
        node.post_message(ContentUnreadable("failed", repr(err)))
    else:
        node.post_message(ContentRead(value))


class LinesScreen(ModalScreen[None]):
    """The whole terminal for a LinesView: a title line, the view, the keys. What it shows is
    read by `load` in a worker; `shown(value)` fills the view when it arrives."""

    BINDINGS = [Binding("escape,q", "close", "Close", priority=True)]
    DEFAULT_CSS = """
    LinesScreen > Vertical { width: 100%; height: 100%; background: $surface; }
    LinesScreen .title { height: auto; background: $panel; padding: 0 1; }
    """

    def __init__(self, title: str, load: Callable[[], Any]) -> None:
        super().__init__()
        self.title_text = title
        self.load = load

    def make_view(self) -> LinesView:
        raise NotImplementedError

    def shown(self, value: Any) -> Text:
        """Fill the view with what was read; returns the title line to show."""
        raise NotImplementedError

    def below(self) -> ComposeResult:
        """Widgets between the view and the keys (none here)."""
        return iter(())

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"{self.title_text} · reading…", style="bold"), classes="title")
            yield self.make_view()
            yield from self.below()
            yield WorkbenchFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one(LinesView).focus()
        read_in_worker(self, self.load)

    @on(ContentRead)
    def _read(self, message: ContentRead) -> None:
        self.query_one(".title", Static).update(self.shown(message.value))
        self.refresh_bindings()

    @on(ContentUnreadable)
    def _unreadable(self, message: ContentUnreadable) -> None:
        self.query_one(".title", Static).update(
            Text(f"{self.title_text} · {message.message} [{message.code}]", style="bold red"))

    def action_close(self) -> None:
        self.dismiss(None)
