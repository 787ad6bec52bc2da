"""An attempt's diff against its start commit: scrollable, each file's code coloured by its
language, a cursor on one line at a time.

The lines are the core's `DiffLine`s (gate/reviews/diff.py): the cursor's line knows its file
and its line in the new file (`DiffView.cursor_target`), which is what a line comment needs.
`c` holds a comment on it (or edits the one there), `x` removes it, `s` sends the held ones to
the attempt's writer as one prompt (gate/reviews/comments.py); the held ones are listed under
the diff and marked in its gutter.
"""

# Imports inside functions: screens and the core they need load when first opened, not for the
# workbench's first frame (bench/run_all.py --only workbench).

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from rich.style import Style
from rich.syntax import Syntax
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.widgets import Static

from a2a_tui.tui import actions
from a2a_tui.tui.messages import ActionRequested, CommentsChanged
from a2a_tui.tui.screens.lines import LinesScreen, LinesView

if TYPE_CHECKING:
    from a2a_tui.gate.reviews.comments import Comment
    from a2a_tui.gate.reviews.diff import AttemptDiff, DiffLine

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
        self.marked: set[tuple[str, int]] = set()   # lines with a held comment

    def mark(self, targets: set[tuple[str, int]]) -> None:
        if targets != self.marked:
            self.marked = targets
            self._cache.clear()
            self.refresh()

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
        t = Text(f"{old:>{NUMBER}}{new:>{NUMBER}}", style="dim")
        t.append("●" if ln.target in self.marked else " ", style="bold yellow")
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
        self.attempt = attempt
        self.diff: AttemptDiff | None = None
        self.comments: list[Comment] = []    # held, in the order of the diff

    def below(self) -> ComposeResult:
        yield Static("", id="comments")

    def make_view(self) -> DiffView:
        return DiffView(id="diff")

    @property
    def view(self) -> DiffView:
        return self.query_one(DiffView)

    def shown(self, d: AttemptDiff) -> Text:
        self.diff = d
        self.view.show(d.lines)
        self._show_comments(self.comments)   # marks and diff order need the diff
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
        if action == "comment" and self.view.cursor_target is None:
            return "a comment goes on a line of the new file: move to an added or unchanged line"
        if action == "uncomment" and self._here() is None:
            return "no held comment on this line"
        if action == "send_comments" and not self.comments:
            return "no held comments (c comments on the line under the cursor)"
        if action in ("comment", "uncomment", "send_comments"):
            return None
        if len(self.diff.files) < 2:
            return "the diff has one file" if self.diff.files else "the diff is empty"
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return actions.check(self, action, parameters)

    def action_next_file(self) -> None:
        self.view.action_next_file()

    def action_previous_file(self) -> None:
        self.view.action_previous_file()

    # --- comments ---------------------------------------------------------------------------
    def on_mount(self) -> None:
        super().on_mount()
        self.read_comments()

    def follow_store(self, last_seq: int) -> None:
        """The store changed (the app says so): the held comments are read again."""
        self.read_comments()

    @work(thread=True, exclusive=True, exit_on_error=False, group="comments", name="comments")
    def read_comments(self) -> None:
        held = self.app.services.reads.comments(self.attempt)  # type: ignore[attr-defined]
        self.app.call_from_thread(self._show_comments, held)

    def _show_comments(self, held: list[Comment]) -> None:
        if self.diff is not None:
            from a2a_tui.gate.reviews.comments import in_diff_order

            held = in_diff_order(held, self.diff)
        self.comments = held
        head = self.diff.head if self.diff is not None else None
        self.view.mark({(c.path, c.line) for c in held if c.sha == head})
        t = Text()
        for c in held:
            t.append(f"{c.id} ", style="bold yellow")
            t.append(f"{c.path}:{c.line} ")
            if head is not None and c.sha != head:
                t.append(f"(older SHA {c.sha[:12]}) ", style="magenta")
            t.append(c.text.splitlines()[0][:60] if c.text else "", style="dim")
            t.append("\n")
        t.rstrip()
        self.query_one("#comments", Static).update(t)
        self.refresh_bindings()

    def _here(self) -> Comment | None:
        target = self.view.cursor_target
        return next((c for c in reversed(self.comments) if (c.path, c.line) == target), None)

    def _act(self, what: str, call: Callable) -> None:
        self.post_message(ActionRequested(what, call, CommentsChanged))

    def action_comment(self) -> None:
        from a2a_tui.tui.screens.editor import CommentEditorScreen, Draft

        target = self.view.cursor_target
        assert target is not None
        path, line = target
        att, here = self.attempt, self._here()

        def keep(draft: Draft | None) -> None:
            if draft is None:
                return
            if here is not None:
                self._act(f"edit {here.id}", lambda w: w.gate.edit_comment(here.id, draft.text))
            else:
                self._act(f"comment on {path}:{line}",
                          lambda w: w.gate.comment(att, path, line, draft.text))

        title = f"Edit {here.id} on {path}:{line}" if here else f"Comment on {path}:{line}"
        self.app.push_screen(CommentEditorScreen(title, "held until you send the comments (s);"
                                                 " each goes with its file, line and the lines"
                                                 " around it",
                                                 text=here.text if here else ""), keep)

    def action_uncomment(self) -> None:
        here = self._here()
        assert here is not None
        self._act(f"remove {here.id}", lambda w: w.gate.remove_comment(here.id))

    def action_send_comments(self) -> None:
        att = self.attempt
        self._act(f"send {att}'s comments", lambda w: w.gate.send_comments(att))
