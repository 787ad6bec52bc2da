"""How every command answers: human text or `--json`, and errors as one line with a code."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from a2a_tui.cli.rules import rules_for
from a2a_tui.errors import A2AError


@dataclass
class Result:
    data: Any
    text: str = ""
    rules: str | None = None  # a key of COMMAND_RULES
    exit_code: int = 0
    extra_rules: list[str] = field(default_factory=list)


def emit(result: Result, as_json: bool) -> int:
    rules = (rules_for(result.rules) if result.rules else []) + result.extra_rules
    if as_json:
        data = result.data
        if isinstance(data, dict) and rules:
            data = {**data, "rules": rules}
        print(json.dumps(data, ensure_ascii=False, indent=2, default=str))
    else:
        if result.text:
            print(result.text)
        if rules:
            print("rules:")
            for r in rules:
                print(f"  - {r}")
    sys.stdout.flush()
    return result.exit_code


def emit_error(err: A2AError, as_json: bool) -> int:
    stream = sys.stdout if as_json else sys.stderr
    try:
        if as_json:
            print(json.dumps(err.to_json(), ensure_ascii=False))
        else:
            print(f"a2a: error: {err.message} [{err.code}]", file=sys.stderr)
        stream.flush()
    except BrokenPipeError:
        # Nobody reads any more (`a2a verify X 2>&1 | head`); the exit code still says it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    return err.exit_code


def ask(question: str) -> bool:
    """Ask the user a yes/no question on the terminal; without a terminal the answer is no."""
    if not sys.stdin.isatty():
        return False
    try:
        return input(question).strip().lower() in ("y", "yes")
    except EOFError:
        return False
