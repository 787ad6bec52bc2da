"""The one base class of the side panels: a titled box with a table of rows and a detail line.

A panel keeps the rows it was given (plain data from `queries`) and shows those that match its
`/` filter; a filter is also looked for in the store, in the panel's whole record (older events,
entries, items and cards than the panel loads: `queries.search`), and what is found there is
shown with the rest. It keeps the cursor on the same row across reloads, and answers
`why_disabled` for its actions; `check_action` turns that answer into a dimmed footer key, and
the app explains a dimmed key when it is pressed anyway.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from rich.text import Text
from textual.actions import parse as parse_action
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Input, Static

from a2a_tui.tui import actions

RowT = TypeVar("RowT")
Cell = str | Text


class PanelTable(DataTable):
    """The panel's table: row cursor; its Enter is the panel's (see the registry)."""

    DEFAULT_CSS = """
    PanelTable { height: 1fr; scrollbar-size-vertical: 1; scrollbar-size-horizontal: 0; }
    PanelTable > .datatable--header { text-style: bold; background: $panel; }
    """

    def on_resize(self) -> None:
        # Shorter now (the focused panel's detail grew under it, at 80x24 a line may be all
        # it had): the cursor's row is scrolled back into view, not left below the panel.
        if self.row_count:
            self.call_after_refresh(self._cursor_into_view)

    def _cursor_into_view(self) -> None:
        # The row the cursor is on when this runs (a key may have moved it since the resize).
        if self.row_count:
            self.move_cursor(row=self.cursor_row, animate=False)


class FilterInput(Input):
    """The panel's `/` box: what is typed filters the rows at once; Enter keeps the filter and
    goes back to the rows, Esc clears it."""

    BINDINGS = [Binding("escape", "clear", "Clear the filter", show=False)]
    DEFAULT_CSS = """
    FilterInput { height: 1; border: none; padding: 0 1; display: none; }
    """

    def action_clear(self) -> None:
        self.value = ""
        self.post_message(self.Submitted(self, ""))


def plain(cell: Cell) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


class Panel(Vertical, Generic[RowT]):
    """A side panel. Subclasses set SCOPE, TITLE, COLUMNS and implement `cells` and `detail`."""

    SCOPE: ClassVar[str] = "panel"
    TITLE: ClassVar[str] = ""
    SEARCHED: ClassVar[bool] = True    # its `/` also searches the store (Sessions loads all)
    SEARCH_DELAY_S: ClassVar[float] = 0.25   # typing pauses this long before the store is asked
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
        self.rows: dict[str, RowT] = {}      # every row given, by key (shown or filtered out)
        self.shown: set[str] = set()         # the keys the table shows
        self.filter_text = ""
        self.wanted: str | None = None       # a row to select once it is read (a new card)
        self.found: dict[str, RowT] = {}     # rows the store-side search found beyond `rows`
        self.found_for: str | None = None    # the filter those were found for
        self._search_timer = None
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
        yield FilterInput(placeholder="filter: type to narrow, Enter keeps, Esc clears",
                          compact=True, id=f"{self.SCOPE}-filter")
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
        self.rows = {self.key_of(r): r for r in rows}
        self._fill()
        if self.wanted in self.shown:
            self.select(self.wanted)
            self.wanted = None
        self.loaded = True
        self.show_detail()
        self.refresh_keys()

    def all_rows(self) -> dict[str, RowT]:
        """The rows loaded, and those the store-side search found beyond them."""
        if not self.found:
            return self.rows
        return {**self.rows, **{k: r for k, r in self.found.items() if k not in self.rows}}

    def _fill(self) -> None:
        """Show the rows that match the filter, the cursor on the same row as before."""
        current = self.selected_key
        table = self.table
        table.clear()
        self.shown = set()
        for key, row in self.all_rows().items():
            self.add_shown(key, row)
        if current in self.shown:
            table.move_cursor(row=table.get_row_index(current), animate=False)
        self.show_subtitle()

    def add_shown(self, key: str, row: RowT) -> None:
        """Add a row at the bottom of the table if it matches the filter."""
        cells = self.cells(row)
        if self.matches(key, cells):
            self.table.add_row(*cells, key=key)
            self.shown.add(key)

    def matches(self, key: str, cells: Sequence[Cell]) -> bool:
        """Whether a row shows under the filter: every word typed is in one of its cells."""
        if not self.filter_text:
            return True
        text = " ".join([key, *map(plain, cells)]).lower()
        return all(word in text for word in self.filter_text.lower().split())

    def show_subtitle(self) -> None:
        if self.filter_text:
            where = ("" if not self.SEARCHED else " · whole record" if self.found_for ==
                     self.filter_text else " · searching the record…")
            text = f"/{self.filter_text}: {len(self.shown)} shown{where}"
        elif not self.rows:
            text = self.EMPTY
        else:
            text = self.subtitle()
        self.border_subtitle = text

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
        return None if key is None else self.rows.get(key) or self.found.get(key)

    def select(self, key: Hashable) -> None:
        """Put the cursor on the row with this key (tests and jumps)."""
        self.table.move_cursor(row=self.table.get_row_index(str(key)), animate=False)

    # --- the filter -----------------------------------------------------------------------
    @property
    def filter_box(self) -> FilterInput:
        return self.query_one(FilterInput)

    def set_filter(self, text: str) -> None:
        """Show only the rows that contain every word of `text` (all of them when empty)."""
        if text == self.filter_text:
            return
        self.filter_text = text
        if not text:
            self.found, self.found_for = {}, None
        self._fill()
        self.show_detail()
        self.refresh_keys()
        if text and self.SEARCHED:
            if self._search_timer is not None:
                self._search_timer.stop()
            self._search_timer = self.set_timer(self.SEARCH_DELAY_S, self._ask_store)

    def _ask_store(self) -> None:
        """Ask the app to search the panel's whole record for the filter (in a worker)."""
        from a2a_tui.tui.messages import SearchWanted  # lazy: messages imports the queries

        if self.filter_text:
            self.post_message(SearchWanted(self.SCOPE, self.filter_text))

    def show_found(self, text: str, rows: Sequence[RowT]) -> None:
        """What the store-side search found for `text` (dropped when the filter has moved on)."""
        if text != self.filter_text:
            return
        self.found = {self.key_of(r): r for r in rows}
        self.found_for = text
        self._fill()
        self.show_detail()
        self.refresh_keys()

    def action_filter(self) -> None:
        box = self.filter_box
        box.display = True
        # At once, not after a refresh as `focus()` does: the next key typed is the filter's.
        self.screen.set_focus(box)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.set_filter(event.value.strip())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.set_filter(event.value.strip())
        self.filter_box.display = bool(self.filter_text)
        self.screen.set_focus(self.table)

    def action_clear_filter(self) -> None:
        """Esc on the rows: the filter kept with Enter goes, every row shows again."""
        self.filter_box.value = ""
        self.filter_box.display = False
        self.set_filter("")

    @property
    def filtering(self) -> bool:
        """Whether the filter box has the keyboard (the panel's keys are then its letters)."""
        return self.filter_box.has_focus

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
        cap = box.styles.max_height
        return min(len(t.wrap(self.app.console, width)),
                   int(cap.value) if cap is not None and cap.is_cells else 5)

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
        if self.selected is not None:
            return None
        if self.rows and self.filter_text:
            return f"no row of the {self.TITLE} panel matches /{self.filter_text}"
        return f"the {self.TITLE} panel is empty"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        own = actions.find(self.SCOPE, action) or actions.find("panel", action)
        if own is None:
            return True
        if self.filtering:
            return False   # hidden, and the key goes to the filter box (Enter, Home, letters)
        if action == "clear_filter":
            return bool(self.filter_text)   # no filter: Esc is not the panel's
        if own.scope == "panel":
            return True
        # None: shown dimmed in the footer; pressing it makes the app say why.
        return None if self.why_disabled(action, parameters) else True

    def action_cursor_down(self) -> None:
        self.table.action_cursor_down()

    def action_cursor_up(self) -> None:
        self.table.action_cursor_up()

    def action_cursor_top(self) -> None:
        if self.table.row_count:
            self.table.move_cursor(row=0, animate=False)

    def action_cursor_bottom(self) -> None:
        if self.table.row_count:
            self.table.move_cursor(row=self.table.row_count - 1, animate=False)
