"""`?`: every key from the registry, what it does, and why it is unavailable right now; then
what the marks on the screen mean (the legend)."""

from __future__ import annotations

from collections.abc import Callable

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from a2a_tui.queue import marker
from a2a_tui.tui import actions
from a2a_tui.tui.chrome import BoxScreen, WorkbenchFooter

# (scope, action name, params) -> reason or None
WhyDisabled = Callable[[str, str, tuple[object, ...]], str | None]


def help_table(why: WhyDisabled) -> Table:
    table = Table(box=None, show_header=False, expand=True, padding=(0, 1))
    table.add_column("keys", style="bold cyan", no_wrap=True)
    table.add_column("what", ratio=1)
    seen_pick = False
    for scope, title in actions.SCOPES.items():
        entries = actions.for_scope(scope)
        if not entries:
            continue
        table.add_row(Text(title, style="bold underline"), "")
        for a in entries:
            if a.name == "pick":
                if seen_pick:
                    continue
                seen_pick = True
            what = Text(a.help)
            params = (1,) if a.name == "pick" else ()
            reason = why(scope, a.name, params)
            if reason:
                what.append(f"\n  unavailable now: {reason}", style="dim italic")
            table.add_row(a.keys_shown, what)
        table.add_row("", "")
    return table


def _legend_rows() -> list[tuple[str, str]]:
    control, gate = (marker(src, 0).replace("#0", "#n") for src in ("user", "gate"))
    return [
        (control, "主控, \"control\": the start of prompt #n that a2a typed into a pane; after"
                  " `·`, who queued it: 用户 (you: your prompt, a board answer), a session's id"
                  " (a controller's prompt, an inbox entry it wrote) or a2a. A marker inside the"
                  " text shows escaped (\\⟦): it is text, not a marker. a2a reads the marker back"
                  " from the CLI's prompt signal to tell its own prompts from you typing in the"
                  " pane."),
        (gate, "门禁, \"gate\": the gate's rejection feedback, typed into the writer's pane as"
               " prompt #n (first error first; after three rejections in a row it stops and a"
               " person decides)."),
        ("busy 3m", "Sessions: the pane's state, from the CLI's own signals only, and how long"
                    " it has held. unknown: no signal yet (or never: look at the pane)."),
        ("?", "after a state: a hint, e.g. probably idle (r releases the pane)."),
        ("⏸ 2 !", "Sessions Q: injections paused; prompts queued; a prompt whose delivery is"
                  " unknown (never re-sent: look at the pane)."),
        ("✓ 5/6  ✗  …", "Gate Verify: passed (checks passed of all), rejected, running. In a"
                       " check list ✗ is a blocking failure, ~ an advisory one."),
        ("open !  held", "Board: ! blocks the asker; held: answered, waiting to go with the"
                         " asker's other answers as one prompt (s sends now)."),
        ("PASS  NO_GO", "Inbox: a report's verdict word, as written (PASS, INCOMPLETE, BLOCKED,"
                        " NO_GO); otherwise the entry's open / acked / disposed."),
        ("T-1  T-1-a1", "a task card; its first attempt (worktree .a2a/worktrees/T-1-a1)."),
        ("Q-1 F-1 I-1 U-1", "a board question, a finding, an inbox entry, a user input"
                            " (`a2a input list`)."),
        ("a→b", "Events Who: who acted (actor) on which session."),
        ("demo 3", "the demo director's narration (only in `a2a demo`)."),
        ("dim key", "in the footer: unavailable now; pressing it says why."),
    ]


def legend_table() -> Table:
    """What the marks, symbols and ids on the workbench mean."""
    table = Table(box=None, show_header=False, expand=True, padding=(0, 1))
    table.add_column("mark", style="bold magenta", no_wrap=True)
    table.add_column("meaning", ratio=1)
    table.add_row(Text("On screen", style="bold underline"), "")
    for mark, meaning in _legend_rows():
        table.add_row(mark, meaning)
    return table


class HelpScreen(BoxScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "close", "Close", priority=True)]
    DEFAULT_CSS = """
    HelpScreen > Vertical { max-width: 100; height: 90%; }
    """

    def __init__(self, why: WhyDisabled, footnote: str = "", legend: bool = False) -> None:
        super().__init__()
        self.table = help_table(why)
        self.legend = legend_table() if legend else None
        self.footnote = footnote

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "a2a workbench · keys"
            box.border_subtitle = "Esc close"
            with VerticalScroll():
                if self.legend is not None:
                    yield Static(Text("In the panes: ⟦主控 #n · WHO⟧ starts prompt #n that"
                                      " a2a typed for WHO (用户: you); ⟦门禁 #n⟧ starts the"
                                      " gate's rejection feedback. The keys, then every mark on"
                                      " the screen (⏸, ✓, ! …): End jumps there.",
                                      style="italic"), id="marks")
                yield Static(self.table)
                if self.legend is not None:
                    yield Static(self.legend, id="legend")
                if self.footnote:
                    yield Static(Text(self.footnote, style="dim"))
        yield WorkbenchFooter(compact=True)

    def action_close(self) -> None:
        self.dismiss(None)
