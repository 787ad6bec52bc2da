"""What frames the panels: the footer that fits its width, the demo's narration line, and how
the grid shares the height between the panels and the Events tail (80x24 up to 250x60)."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid
from textual.screen import ModalScreen, ScreenResultType
from textual.widget import Widget
from textual.widgets import Footer, Static
from textual.widgets._footer import FooterKey, FooterLabel

PALETTE_CELLS = 12          # "▏^p palette" docked at the right, with its border

# Tab and Shift-Tab in a form, taken before the key reaches the field: the focus moves before
# the next key is handed out. Left to the field, a Tab goes to it and comes back unhandled
# while the keys typed right behind it are already on their way to the field it leaves (a
# fast typist's "3<Tab>ok" put "ok" in the digit field).
FORM_KEYS = [Binding("tab", "app.focus_next", "Next field", show=False, priority=True),
             Binding("shift+tab", "app.focus_previous", "Previous field", show=False,
                     priority=True)]


def grid_rows(height: int, events_rows: int = 0) -> tuple[str, str, str]:
    """The heights of the grid's three rows (Sessions|Board, Inbox|Gate, Events) for a grid of
    `height` lines: Events takes `events_rows` lines when the user's settings say so (layout),
    else about a quarter, at least 6 lines (3 events) and at most 16; the two rows of panels
    share the rest."""
    events = events_rows or max(6, min(16, height // 4))
    return ("1fr", "1fr", str(events))


def short(height: int) -> bool:
    """A terminal too short for a five-line detail under the focused panel's rows."""
    return height < 32


class PanelGrid(Grid):
    """The panels' grid: on each resize it shares its height out again (`grid_rows`), and a
    short terminal keeps the focused panel's detail to two lines (class -short)."""

    rows: tuple[str, str, str] | None = None
    events_rows = 0   # from the user's settings (layout.events_rows); 0: automatic

    def on_resize(self, event: events.Resize) -> None:
        self.share(event.size.height)
        self.set_class(short(self.app.size.height), "-short")

    def share(self, height: int) -> None:
        rows = grid_rows(height, self.events_rows)
        if rows != self.rows:   # setting them lays the grid out again
            self.rows = rows
            self.styles.grid_rows = " ".join(rows)


class WorkbenchFooter(Footer):
    """Textual's footer, except that keys that do not fit are left out from the end (the app's
    own keys come last; `?` and the palette list them all), with `…` saying so."""

    def compose(self) -> ComposeResult:
        widgets = list(super().compose())
        keys = [w for w in widgets if isinstance(w, FooterKey)
                and not w.has_class("-command-palette")]
        room = (self.size.width or self.app.size.width) - PALETTE_CELLS
        used, kept = 0, []
        for w in keys:
            need = _cells(w)
            if used + need > room - 2:   # keep two cells for the "…"
                break
            used += need
            kept.append(w)
        for w in widgets:
            if w in kept or w not in keys:
                yield w
        if len(kept) < len(keys):
            yield FooterLabel("…")

    def on_resize(self) -> None:
        if self._bindings_ready:
            self.call_after_refresh(self.recompose)


def _cells(key: FooterKey) -> int:
    """The cells a compact footer key takes: key, space, description, margin."""
    return Text(key.key_display).cell_len + 1 + Text(key.description).cell_len + 1


class NarrationLine(Static):
    """The demo director's latest step, under the status line (hidden outside the demo)."""

    DEFAULT_CSS = """
    NarrationLine { height: auto; max-height: 3; padding: 0 1;
                    background: $boost; color: $text; display: none; }
    NarrationLine.-shown { display: block; }
    """

    def show_step(self, step: int, text: str) -> None:
        t = Text()
        t.append(f"demo {step} ", style="bold reverse")
        t.append(" " + text)
        self.update(t)
        self.add_class("-shown")


class BoxScreen(ModalScreen[ScreenResultType]):
    """A modal screen drawn as one box in the middle of the workbench: its `Vertical`, at most
    90% of the screen, round-bordered on the surface colour. A screen sets only what differs
    (its width, its border's colour) in its own DEFAULT_CSS, which Textual ranks above this."""

    DEFAULT_CSS = """
    BoxScreen { align: center middle; }
    BoxScreen > Vertical {
        width: 90%; max-width: 110; height: auto; max-height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    """

    def after_fields(self, then: Callable[[], object]) -> None:
        """Run `then` once every field of the box has handled the keys sent to it so far.

        A priority key (a form's Ctrl-S) is taken by the app as it arrives, while the keys
        typed just before it may still wait in their field's own queue (a burst in one read, a
        busy machine): a form judged at once reads fields without their last keys."""
        self._after(list(self.query("Input, Select, TextArea, RadioSet")), then)

    def _after(self, fields: list[Widget], then: Callable[[], object]) -> None:
        if fields:    # each field's queue in turn: its keys, then this (a closed one skipped)
            if not fields[0].call_later(self._after, fields[1:], then):
                self._after(fields[1:], then)
        else:
            self.call_later(then)
