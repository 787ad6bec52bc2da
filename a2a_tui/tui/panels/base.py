"""The one base class of the side panels: a titled box with a table of rows and a detail line.

A panel keeps the rows it shows (plain data from `queries`), keeps the cursor on the same row
across reloads, and answers `why_disabled` for its actions; `check_action` turns that answer into
a dimmed footer key, and the app explains a dimmed key when it is pressed anyway.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from rich.text import Text
from textual.actions import parse as parse_action
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from a2a_tui.tui import actions

RowT = TypeVar("RowT")
Cell = str | Text


class PanelTable(DataTable):
    """The panel's table: row cursor; its Enter is the panel's (see the registry)."""

    DEFAULT_CSS = """
    PanelTable { height: 1fr; scrollbar-size-vertical: 1; scrollbar-size-horizontal: 0; }
    PanelTable > .datatable--header { text-style: bold; background: $panel; }
    """


class Panel(Vertical, Generic[RowT]):
    """A side panel. Subclasses set SCOPE, TITLE, COLUMNS and implement `cells` and `detail`."""

    SCOPE: ClassVar[str] = "panel"
    TITLE: ClassVar[str] = ""
    COLUMNS: ClassVar[Sequence[tuple[str, str]]] = ()   # (key, label)
    EMPTY: ClassVar[str] = "nothing yet"
    BINDINGS = actions.bindings("panel")

    DEFAULT_CSS = """
    Panel {
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        border-title-style: bold;
        height: 1fr;
        min-height: 4;
        padding: 0;
    }
    Panel:focus-within { border: round $accent; border-title-color: $accent; }
    /* The detail of the highlighted row shows in the focused panel only: at 80x24 the others
       keep their few lines for rows. */
    Panel > .detail { height: auto; max-height: 5; color: $text-muted; padding: 0 1;
                      display: none; }
    Panel:focus-within > .detail { display: block; }
    Panel:focus-within > .detail.-empty { display: none; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rows: dict[str, RowT] = {}
        self.loaded = False
        self._detail: tuple[str | Text, int] | None = None   # what the detail box shows, lines
        self._enabled: tuple[bool, ...] | None = None        # the footer's last word on our keys

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Bindings come from the registry: the panel's own scope (the shared ones are inherited).
        # Set before Textual merges the class's bindings in its own __init_subclass__.
        cls.BINDINGS = actions.bindings(cls.SCOPE)
        super().__init_subclass__(**kwargs)

    def compose(self) -> ComposeResult:
        yield PanelTable(cursor_type="row", zebra_stripes=False, id=f"{self.SCOPE}-table")
        yield Static("", classes="detail -empty")

    def on_mount(self) -> None:
        self.border_title = self.TITLE
        for key, label in self.COLUMNS:
            self.table.add_column(label, key=key)
        self.border_subtitle = "loading…"

    @property
    def table(self) -> PanelTable:
        return self.query_one(PanelTable)

    # --- rows -----------------------------------------------------------------------------
    def key_of(self, row: RowT) -> str:
        return str(getattr(row, "id"))  # noqa: B009 -- RowT is unbounded; every row type has an id

    def cells(self, row: RowT) -> Sequence[Cell]:
        raise NotImplementedError

    def detail(self, row: RowT) -> str | Text:
        return ""

    def subtitle(self) -> str:
        return f"{len(self.rows)}" if self.rows else ""

    def show_rows(self, rows: Sequence[RowT]) -> None:
        """Replace the rows, keeping the cursor on the row it was on (by key)."""
        current = self.selected_key
        self.rows = {self.key_of(r): r for r in rows}
        table = self.table
        table.clear()
        for key, row in self.rows.items():
            table.add_row(*self.cells(row), key=key)
        if current in self.rows:
            table.move_cursor(row=table.get_row_index(current), animate=False)
        self.loaded = True
        self.border_subtitle = self.subtitle() if self.rows else self.EMPTY
        self.show_detail()
        self.refresh_keys()

    @property
    def selected_key(self) -> str | None:
        table = self.table
        if not self.rows or table.row_count == 0:
            return None
        row_key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return None if row_key.value is None else str(row_key.value)

    @property
    def selected(self) -> RowT | None:
        key = self.selected_key
        return None if key is None else self.rows.get(key)

    def select(self, key: Hashable) -> None:
        """Put the cursor on the row with this key (tests and jumps)."""
        self.table.move_cursor(row=self.table.get_row_index(str(key)), animate=False)

    def show_detail(self) -> None:
        """Show the highlighted row's detail. The screen is laid out again only when the box's
        height changes: a relayout of every panel is most of what a cursor move costs."""
        row = self.selected
        text = self.detail(row) if row is not None else ""
        if self._detail is not None and self._detail[0] == text:
            return
        box = self.query_one(".detail", Static)
        lines = self._lines(text, box)
        box.update(text, layout=self._detail is None or lines != self._detail[1] or not lines)
        box.set_class(not text, "-empty")
        self._detail = (text, lines)

    def _lines(self, text: str | Text, box: Static) -> int:
        """How many lines `text` takes in the detail box (0 while the box is not laid out)."""
        width = box.content_region.width
        if not text or width <= 0:
            return 0
        t = text if isinstance(text, Text) else Text(str(text))
        return min(len(t.wrap(self.app.console, width)), 5)   # max-height: 5

    def refresh_keys(self) -> None:
        """Have the footer redrawn when one of this panel's keys became (un)available; it is
        rebuilt widget by widget, so not on a cursor move that changes nothing."""
        enabled = tuple(self.check_action(a.name, parse_action(a.method)[2]) is True
                        for a in actions.for_scope(self.SCOPE))
        if enabled != self._enabled:
            self._enabled = enabled
            self.refresh_bindings()

    def on_data_table_row_highlighted(self, _event: DataTable.RowHighlighted) -> None:
        self.show_detail()
        self.refresh_keys()

    # --- actions --------------------------------------------------------------------------
    def why_disabled(self, action: str, params: tuple[object, ...]) -> str | None:
        """Why `action` cannot run now, or None when it can. Subclasses add their actions."""
        return None

    def nothing_selected(self) -> str | None:
        if not self.loaded:
            return f"the {self.TITLE} panel is still loading"
        return None if self.selected is not None else f"the {self.TITLE} panel is empty"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if actions.find(self.SCOPE, action) is None:
            return True
        # None: shown dimmed in the footer; pressing it makes the app say why.
        return None if self.why_disabled(action, parameters) else True

    def action_cursor_down(self) -> None:
        self.table.action_cursor_down()

    def action_cursor_up(self) -> None:
        self.table.action_cursor_up()
