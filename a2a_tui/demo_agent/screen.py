"""Terminal output: a scrolling log above a redrawn bottom area (status line and input box).

Stdlib only (no textual/rich). Log lines are written once and scroll into the terminal's
history like Claude Code's; only the bottom area is redrawn. We wrap lines ourselves and never
write into the last column, so the row count on screen is always the one we computed and the
cursor can be moved back to the top of the bottom area exactly. Any text shown is sanitized:
control characters from prompts or command output cannot move the cursor or change modes.
"""

from __future__ import annotations

import os
import termios
import tty
import unicodedata
from collections import deque
from typing import Self

RESET = "\x1b[0m"
DIM = "\x1b[2m"
BOLD = "\x1b[1m"
RED = "\x1b[31m"
GREEN = "\x1b[32m"
YELLOW = "\x1b[33m"
CYAN = "\x1b[36m"
BRACKETED_PASTE_ON = "\x1b[?2004h"
BRACKETED_PASTE_OFF = "\x1b[?2004l"
HISTORY_LINES = 2000


def char_width(c: str) -> int:
    """Terminal cells taken by one code point (wide CJK = 2, combining = 0)."""
    if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1


def sanitize(line: str) -> str:
    """Make one line safe to print: tabs expanded, control characters shown as ^X."""
    out = []
    for c in line:
        o = ord(c)
        if c == "\t":
            out.append(c)
        elif o < 0x20:
            out.append("^" + chr(o + 64))
        elif o == 0x7F:
            out.append("^?")
        elif 0x80 <= o < 0xA0:
            out.append("?")
        else:
            out.append(c)
    return "".join(out).expandtabs(4)


def wrap(line: str, width: int) -> list[str]:
    """Split one sanitized line into rows of at most `width` cells (at least one row)."""
    width = max(width, 2)
    rows: list[str] = []
    cur: list[str] = []
    used = 0
    for c in line:
        w = char_width(c)
        if used + w > width:
            rows.append("".join(cur))
            cur, used = [], 0
        cur.append(c)
        used += w
    rows.append("".join(cur))
    return rows


class RawTerminal:
    """Raw mode and bracketed paste on a tty for the lifetime of a `with` block."""

    def __init__(self, fd: int):
        self.fd = fd
        self._saved: list | None = None

    def __enter__(self) -> Self:
        if os.isatty(self.fd):
            self._saved = termios.tcgetattr(self.fd)
            # Raw: we see Ctrl-C/Ctrl-D/Esc as bytes, and the kernel does no echo or line editing.
            tty.setraw(self.fd, termios.TCSANOW)
        return self

    def __exit__(self, *exc) -> None:
        if self._saved is not None:
            try:
                termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            except termios.error:
                pass  # the terminal is gone (SIGHUP): nothing to restore


class Screen:
    """The log and the bottom area, written to `out_fd`; writes to a dead terminal are dropped."""

    def __init__(self, out_fd: int):
        self.fd = out_fd
        self.alive = True
        self._pending: list[tuple[str, str]] = []
        self._history: deque[tuple[str, str]] = deque(maxlen=HISTORY_LINES)
        self._cursor_row = -1  # row of the cursor inside the drawn bottom area; -1 = not drawn
        self._repaint = False

    def size(self) -> tuple[int, int]:
        try:
            s = os.get_terminal_size(self.fd)
            return max(s.columns, 10), max(s.lines, 4)
        except OSError:
            return 80, 24

    def log(self, text: str, style: str = "", prefix: str = "", cont: str | None = None) -> None:
        """Queue `text` (may hold newlines) for the log; `prefix` on its first line."""
        cont = " " * len(prefix) if cont is None else cont
        for k, line in enumerate(text.split("\n")):
            entry = ((prefix if k == 0 else cont) + sanitize(line), style)
            self._pending.append(entry)
            self._history.append(entry)

    def start(self) -> None:
        self._write(BRACKETED_PASTE_ON)

    def finish(self) -> None:
        """Leave the screen usable: bottom area erased, bracketed paste off, cursor below."""
        self.render([], [], prompt="")
        self._write("\r\x1b[J" + BRACKETED_PASTE_OFF)

    def resized(self) -> None:
        self._repaint = True

    def render(self, status: list[tuple[str, str]], box: list[str], prompt: str = "> ") -> None:
        """Flush pending log lines, then redraw the status lines and the input box."""
        cols, rows = self.size()
        width = cols - 1
        out: list[str] = []
        if self._repaint:
            # After a resize the terminal may have reflowed what we drew: start from a clean
            # screen with the tail of the log that fits.
            self._repaint = False
            self._pending = []
            out.append("\x1b[2J\x1b[H")
            tail: list[str] = []
            budget = rows - 2
            for line, style in reversed(self._history):
                wrapped = [style + r + RESET for r in wrap(line, width)]
                if len(wrapped) > budget:
                    break
                tail[:0] = wrapped
                budget -= len(wrapped)
            out += [r + "\r\n" for r in tail]
        elif self._cursor_row > 0:
            out.append(f"\r\x1b[{self._cursor_row}A\x1b[J")
        else:
            out.append("\r\x1b[J")
        for line, style in self._pending:
            out += [style + r + RESET + "\r\n" for r in wrap(line, width)]
        self._pending = []
        bottom: list[str] = []
        for text, style in status:
            bottom += [style + r + RESET for r in wrap(sanitize(text), width)]
        boxrows: list[str] = []
        if prompt:
            pad = " " * len(prompt)
            for k, line in enumerate(box or [""]):
                boxrows += wrap((prompt if k == 0 else pad) + sanitize(line), width)
        room = max(rows - 1 - len(bottom), 1)
        if len(boxrows) > room:
            hidden = len(boxrows) - room + 1
            boxrows = [DIM + f"  … {hidden} more rows above" + RESET] + boxrows[-(room - 1):] \
                if room > 1 else boxrows[-1:]
        bottom += boxrows
        out.append("\r\n".join(bottom))
        self._cursor_row = len(bottom) - 1
        self._write("".join(out))

    def _write(self, data: str) -> None:
        if not self.alive:
            return
        raw = data.encode("utf-8", errors="replace")
        try:
            while raw:
                n = os.write(self.fd, raw)
                raw = raw[n:]
        except OSError:
            # EIO after SIGHUP, EPIPE: the terminal is gone; keep running hooks, stop drawing.
            self.alive = False
