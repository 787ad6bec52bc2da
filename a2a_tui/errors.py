"""The one error type every entry point turns into a single line and a stable code."""

from __future__ import annotations

import re

# What would break the one line or hide part of it: line breaks and other control characters
# (a terminal acts on them), and lone surrogates (from argv or file names that are not UTF-8:
# they cannot be printed as UTF-8 nor stored).
_UNPRINTABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


class A2AError(Exception):
    """A refusal or failure that the user sees as one line, with a stable machine code.

    `code` is part of the contract (`--json` prints it); `message` is for people.
    `exit_code` lets a few commands distinguish "refused" (1) from "bad usage" (2).
    """

    def __init__(self, code: str, message: str, *, exit_code: int = 1, details: dict | None = None):
        message = one_line(message)
        super().__init__(message)
        self.code = code
        self.message = message
        self.exit_code = exit_code
        self.details = details or {}

    def to_json(self) -> dict:
        out: dict = {"code": self.code, "message": self.message}
        if self.details:
            out["details"] = self.details
        return {"error": out}


def one_line(text: str) -> str:
    """`text` with every character that would break or hide its line written as an escape
    (`\\n`, `\\x1b`, `\\udcff`): a message that quotes outside input stays one line."""
    return _UNPRINTABLE.sub(lambda m: ascii(m.group())[1:-1], text)
