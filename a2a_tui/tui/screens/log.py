"""A check's full log, from its first line; the cursor starts at the end, where a failure
usually is."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text

from a2a_tui.tui.screens.lines import LinesScreen, LinesView

if TYPE_CHECKING:
    from a2a_tui.gate.verification.logs import CheckLog

LogRead = tuple["CheckLog", str, bool]   # which log, its text, whether it was cut


class LogView(LinesView):
    """The log's lines: its header (`$ command`, `# exit`) dim, stderr's lines in yellow."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lines: list[str] = []
        self._stderr_from = 0

    def show(self, text: str) -> None:
        self.lines = text.rstrip("\n").split("\n")
        self._stderr_from = next((i for i, ln in enumerate(self.lines) if ln == "--- stderr"),
                                 len(self.lines))
        self.set_count(len(self.lines), max((len(ln) for ln in self.lines), default=0))
        self.cursor = len(self.lines) - 1

    def line_text(self, i: int) -> Text:
        line = self.lines[i]
        if (i < 3 and line.startswith(("$ ", "# "))) or line in ("--- stdout", "--- stderr"):
            return Text(line, style="dim bold")
        return Text(line, style="yellow" if i > self._stderr_from else "")


class LogScreen(LinesScreen):
    """The whole log of one check (read in a worker: a log may be megabytes)."""

    def __init__(self, title: str, load: Callable[[], LogRead]) -> None:
        super().__init__(title, load)
        self.found: CheckLog | None = None

    def make_view(self) -> LogView:
        return LogView(id="log")

    def shown(self, value: LogRead) -> Text:
        found, text, cut = value
        self.found = found
        self.query_one(LogView).show(text)
        title = Text()
        title.append(f"{found.attempt} · run {found.run} · {found.check} ", style="bold")
        title.append("passed" if found.passed else "failed",
                     style="green" if found.passed else "bold red")
        title.append(f" · {found.path}", style="dim")
        if cut:
            title.append(" · long: only its end is shown", style="yellow")
        return title
