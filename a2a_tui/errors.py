"""The one error type every entry point turns into a single line and a stable code."""

from __future__ import annotations


class A2AError(Exception):
    """A refusal or failure that the user sees as one line, with a stable machine code.

    `code` is part of the contract (`--json` prints it); `message` is for people.
    `exit_code` lets a few commands distinguish "refused" (1) from "bad usage" (2).
    """

    def __init__(self, code: str, message: str, *, exit_code: int = 1, details: dict | None = None):
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
