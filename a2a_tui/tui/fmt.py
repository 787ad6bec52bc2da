"""Small formatting helpers shared by the panels and screens (ages, times, state words, marks)."""

from __future__ import annotations

import time
from datetime import datetime

from rich.text import Text

from a2a_tui.tui.queries import CheckRow

STATE_STYLE = {"busy": "bold yellow", "idle": "green", "waiting": "bold magenta",
               "unknown": "dim", "exited": "red"}
VERDICT_STYLE = {"PASS": "bold green", "INCOMPLETE": "yellow", "BLOCKED": "bold red",
                 "NO_GO": "bold red"}


def age(since_ns: int | None, now_ns: int | None = None) -> str:
    """How long ago, coarsely: 12s, 3m, 2h, 4d."""
    if not since_ns:
        return ""
    s = max(0, ((now_ns or time.time_ns()) - since_ns) // 1_000_000_000)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if s >= size:
            return f"{s // size}{unit}"
    return f"{s}s"


def clock(ts_ns: int) -> str:
    """Local wall-clock time of day."""
    return datetime.fromtimestamp(ts_ns / 1e9).strftime("%H:%M:%S")


def state(word: str, since_ns: int | None = None, now_ns: int | None = None) -> Text:
    """A pane or attempt state word, coloured, with how long it has held."""
    text = Text(word, style=STATE_STYLE.get(word, ""))
    if since_ns and word != "exited":
        text.append(f" {age(since_ns, now_ns)}", style="dim")
    return text


def one_line(text: str, width: int = 80) -> str:
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first if len(first) <= width else first[: width - 1] + "…"


def check_mark(c: CheckRow) -> Text:
    """✓ passed, ✗ a blocking check failed, ~ an advisory check failed, - not run (skipped
    after an earlier blocking failure)."""
    if c.passed:
        return Text("✓", style="green")
    if c.skipped:
        return Text("-", style="dim")
    return Text("✗", style="bold red") if c.blocking else Text("~", style="yellow")


def count(n: int, noun: str, plural: str | None = None) -> str:
    """"1 card", "2 cards" (`plural` where adding an s is wrong)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


# What a thing waiting for the user is called, counted (panes.calls.Waiting.kind).
WAITING_NOUNS = {"question": ("question", None), "waiting": ("pane", None),
                 "stalled": ("stalled pane", None), "rejection": ("rejection", None),
                 "stop": ("feedback stop", None)}


def waiting_summary(waiting) -> str:
    """"2 questions, 1 pane": what a count of things waiting for the user is made of."""
    kinds: dict[str, int] = {}
    for w in waiting:
        kinds[w.kind] = kinds.get(w.kind, 0) + 1
    return ", ".join(count(n, *WAITING_NOUNS.get(k, (k, None))) for k, n in kinds.items())
