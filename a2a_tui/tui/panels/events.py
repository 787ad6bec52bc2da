"""Events: a live tail of the event log, newest at the bottom; the cursor follows new events
while it sits on the last row. Moved up, it stays where the user put it (the subtitle says
so) until the user comes back to the last row (End) or leaves the panel: then it follows
again."""

from __future__ import annotations

import json
from collections.abc import Sequence

from rich.text import Text
from textual import events

from a2a_tui.payloads import payload_of
from a2a_tui.sentences import folded, sentence
from a2a_tui.store.db import Event
from a2a_tui.tui import fmt
from a2a_tui.tui.messages import ActionRequested, PaneInputConfirmed
from a2a_tui.tui.panels.base import Cell, Panel
from a2a_tui.tui.queries import EVENTS_TAIL
from a2a_tui.tui.screens.detail import TextScreen


class EventsPanel(Panel[Event]):
    SCOPE = "events"
    TITLE = "Events"
    EMPTY = "no events"
    COLUMNS = (("seq", "#"), ("time", "Time"), ("what", "Event"))

    following = True   # the cursor goes to each new event (off while the user reads above)
    unfolded = False   # how each prompt travelled (a2a_tui/sentences.py `folded`): `a` shows it

    def key_of(self, e: Event) -> str:
        return str(e.seq)

    def cells(self, e: Event) -> Sequence[Cell]:
        return (Text(str(e.seq), style="dim"), fmt.clock(e.ts_ns),
                Text(sentence(e), style="dim" if folded(e) else ""))

    def matches(self, key: str, cells: Sequence[Cell]) -> bool:
        e = self.rows.get(key) or self.found.get(key)
        if e is None:
            return super().matches(key, cells)
        if not self.filter_text:
            return self.unfolded or not folded(e)
        # A filter reads the event itself too (its kind and payload), folded or not.
        return super().matches(key, (*cells, e.kind, json.dumps(e.payload, ensure_ascii=False)))

    def action_unfold(self) -> None:
        self.unfolded = not self.unfolded
        self._fill()
        if self.following and self.table.row_count:
            self.table.move_cursor(row=self.table.row_count - 1, animate=False)

    def detail(self, e: Event) -> str:
        return ""

    def all_rows(self) -> dict[str, Event]:
        """The tail and the older events a `/` search found, in the order of the log."""
        if not self.found:
            return self.rows
        return dict(sorted({**self.found, **self.rows}.items(), key=lambda kv: int(kv[0])))

    def subtitle(self) -> str:
        last = next(reversed(self.rows.values()), None)
        held = "" if self.following or self.selected_key is None else \
            f" · held at #{self.selected_key} (End follows)"
        steps = " · a hides each prompt's steps" if self.unfolded else \
            " · a shows each prompt's steps"
        return f"last #{last.seq}{held}{steps}" if last else ""

    def on_data_table_row_highlighted(self, event) -> None:
        super().on_data_table_row_highlighted(event)
        table = self.table
        following = table.cursor_row >= table.row_count - 1
        if following != self.following:
            self.following = following
            self.show_subtitle()

    def on_descendant_blur(self, _event: events.DescendantBlur) -> None:
        # Leaving the panel is being done reading: the tail is followed again.
        self.call_after_refresh(self._follow_if_left)

    def _follow_if_left(self) -> None:
        if self.has_focus_within or self.following:
            return
        self.following = True
        if self.table.row_count:
            self.table.move_cursor(row=self.table.row_count - 1, animate=False)
        self.show_subtitle()

    def append(self, events: Sequence[Event], reset: bool = False) -> None:
        """Add new events at the bottom (or start over from a fresh tail), keep the last
        EVENTS_TAIL, and follow the tail if the cursor was on the last row."""
        table = self.table
        follow = reset or not self.rows or self.following
        held = self.selected_key
        if reset:
            self.show_rows(events)
        else:
            for e in events:
                key = self.key_of(e)
                if key in self.rows:
                    continue
                self.rows[key] = e
                if key not in self.shown:   # a `/` search may have shown it already
                    self.add_shown(key, e)
            while len(self.rows) > EVENTS_TAIL:
                oldest = next(iter(self.rows))
                del self.rows[oldest]
                if oldest in self.shown:
                    self.shown.discard(oldest)
                    table.remove_row(oldest)
            self.loaded = True
            self.show_subtitle()
        if held not in self.shown:   # the event the user held went out of the tail
            follow = True
        if follow and table.row_count:
            self.following = True
            table.move_cursor(row=table.row_count - 1, animate=False)
        elif held in self.shown:  # rows trimmed above it: stay on the same event
            table.move_cursor(row=table.get_row_index(held), animate=False)
        self.show_subtitle()

    def why_disabled(self, action: str, params: tuple[object, ...]) -> str | None:
        missing = self.nothing_selected()
        if missing or action != "confirm_input":
            return missing
        e = self.selected
        assert e is not None
        if e.kind != "user_input" or payload_of(e.kind, e.payload).source != "pane":
            return "only text typed into a pane (a user_input from the pane) needs confirming"
        return None

    def action_confirm_input(self) -> None:
        e = self.selected
        assert e is not None
        uid = str(payload_of(e.kind, e.payload).id)
        self.post_message(ActionRequested(f"confirm {uid}", lambda w: w.board.confirm_input(uid),
                                          PaneInputConfirmed))

    def action_open(self) -> None:
        e = self.selected
        assert e is not None
        body = json.dumps(e.to_json(), ensure_ascii=False, indent=2)
        self.app.push_screen(TextScreen(f"event #{e.seq} · {e.kind} · {sentence(e)}", body))
