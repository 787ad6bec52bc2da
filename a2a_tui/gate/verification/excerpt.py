"""The first error in a check's output, with a few lines around it: what feedback starts with.

In order: pytest's first `E ` or `FAILED` line; a compiler's first `error:` (`error[E0308]:` too);
otherwise the first non-empty line on stderr. Escapes and other control characters are dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from a2a_tui.gate.verification.feedback import plain

PYTEST_LINE = re.compile(r"^(E\s|FAILED\s)")
COMPILER_LINE = re.compile(r"\berror(\[[^\]]*\])?:")
BEFORE, AFTER = 3, 6
MAX_LINE = 300


@dataclass(frozen=True)
class Excerpt:
    line: str                      # the first error line ('' when none was found)
    context: tuple[str, ...]       # the lines around it, the error line included

    def __bool__(self) -> bool:
        return bool(self.line)


def first_error(stdout: str, stderr: str) -> Excerpt:
    """The first error line of a run's output and its context."""
    streams = [plain(stdout).splitlines(), plain(stderr).splitlines()]
    for pattern in (PYTEST_LINE, COMPILER_LINE):
        for lines in streams:
            found = next((i for i, ln in enumerate(lines) if pattern.search(ln)), None)
            if found is not None:
                return _around(lines, found)
    err = streams[1]
    found = next((i for i, ln in enumerate(err) if ln.strip()), None)
    return _around(err, found) if found is not None else Excerpt("", ())


def _around(lines: list[str], i: int) -> Excerpt:
    clip = [ln[:MAX_LINE] for ln in lines[max(0, i - BEFORE): i + AFTER + 1]]
    return Excerpt(lines[i][:MAX_LINE].rstrip(), tuple(clip))
