"""An attempt's diff against its start commit: scrollable, each file's code coloured by its
language, a cursor on one line at a time.

The lines are the core's `DiffLine`s (a2a_tui/gate/diff.py): the cursor's line knows its file
and its line in the new file (`DiffView.cursor_target`), which is what a line comment needs.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from rich.style import Style
from rich.syntax import Syntax
from rich.text import Text

from a2a_tui.tui import actions
from a2a_tui.tui.screens.lines import LinesScreen, LinesView

if TYPE_CHECKING:
    from a2a_tui.gate.diff import AttemptDiff, DiffLine

NUMBER = 5                                   # cells per line-number column
ADDED = Style(bgcolor="#12301c")
REMOVED = Style(bgcolor="#3a1414")
THEME = "monokai"


@lru_cache(maxsize=64)
def _syntax(path: str) -> Syntax | None:
    """A highlighter for the file's language, guessed from its name (None: plain text)."""
    lexer = Syntax.guess_lexer(path, code="")
    if lexer in ("default", "text"):
        return None
    return Syntax("", lexer, theme=THEME, background_color="default")


def _code(path: str | None, code: str) -> Text:
    syntax = _syntax(path) if path else None
    if syntax is None:
        return Text(code)
    text = syntax.highlight(code)
    text.rstrip()
    return text


class DiffView(LinesView):
    """The diff's lines: old and new line numbers, then the line, coloured."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lines: list[DiffLine] = []

    def show(self, lines: list[DiffLine]) -> None:
        self.lines = lines
        width = 2 * NUMBER + 2 + max((len(ln.text) for ln in lines), default=0)
        self.set_count(len(lines), width)

    @property
    def cursor_line(self) -> DiffLine | None:
        return self.lines[self.cursor] if self.lines else None

    @property
    def cursor_target(self) -> tuple[str, int] | None:
        """(file, line in the new file) under the cursor; None on a header or a removed line."""
        line = self.cursor_line
        return None if line is None else line.target

    def line_text(self, i: int) -> Text:
        ln = self.lines[i]
        if ln.kind == "file":
            t = Text(f" {ln.path} ", style="bold reverse")
            t.append(f"  {ln.text}", style="dim")
            return t
        if ln.kind == "meta":
            return Text(" " * (2 * NUMBER + 1) + ln.text, style="dim")
        if ln.kind == "hunk":
            return Text(" " * (2 * NUMBER + 1) + ln.text, style="cyan")
        if ln.kind == "note":
            return Text(" " * (2 * NUMBER + 1) + ln.text, style="dim italic")
        old = "" if ln.old is None else str(ln.old)
        new = "" if ln.new is None else str(ln.new)
        t = Text(f"{old:>{NUMBER}}{new:>{NUMBER}} ", style="dim")
        sign = ln.text[:1] or " "
        line = Text(sign, style={"add": "bold green", "del": "bold red"}.get(ln.kind, "dim"))
        line.append_text(_code(ln.path, ln.text[1:]))
        fill = self.line_fill(i)
        if fill is not None:
            line.stylize(fill)
        t.append_text(line)
        return t

    def line_fill(self, i: int) -> Style | None:
        return {"add": ADDED, "del": REMOVED}.get(self.lines[i].kind)

    def action_next_file(self) -> None:
        self._to_file(1)

    def action_previous_file(self) -> None:
        self._to_file(-1)

    def _to_file(self, step: int) -> None:
        """To the header of the next file, or of the file before the one the cursor is in."""
        heads = [i for i, ln in enumerate(self.lines) if ln.kind == "file"]
        current = sum(i <= self.cursor for i in heads) - 1   # the cursor's file, -1: none
        to = current + step
        if 0 <= to < len(heads):
            self.cursor = heads[to]
            # the file's header at the top of the screen, its first lines under it
            self.scroll_to(y=self.cursor, animate=False, force=True)


class DiffScreen(LinesScreen):
    """The whole diff of an attempt (read in a worker: git may take a moment)."""

    SCOPE = "diff"
    BINDINGS = actions.bindings("diff")

    def __init__(self, attempt: str, load: Callable[[], AttemptDiff]) -> None:
        super().__init__(attempt, load)
        self.diff: AttemptDiff | None = None

    def make_view(self) -> DiffView:
        return DiffView(id="diff")

    @property
    def view(self) -> DiffView:
        return self.query_one(DiffView)

    def shown(self, d: AttemptDiff) -> Text:
        self.diff = d
        self.view.show(d.lines)
        title = Text()
        title.append(f"{d.attempt} ", style="bold")
        title.append(f"start {d.base[:12]} → {d.head_is} {d.head[:12]} · ")
        if d.lines:
            title.append(f"{len(d.files)} file(s) ")
            title.append(f"+{d.added}", style="green")
            title.append(" ")
            title.append(f"−{d.deleted}", style="red")
        else:
            title.append("no change", style="yellow")
        if d.truncated:
            title.append(f" · cut at {len(d.lines)} lines", style="yellow")
        return title

    def why_disabled(self, action: str, params: tuple[object, ...]) -> str | None:
        if self.diff is None:
            return "the diff is still being read"
        if len(self.diff.files) < 2:
            return "the diff has one file" if self.diff.files else "the diff is empty"
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return actions.check(self, action, parameters)

    def action_next_file(self) -> None:
        self.view.action_next_file()

    def action_previous_file(self) -> None:
        self.view.action_previous_file()
