"""How every command answers: human text or `--json`, and errors as one line with a code."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from a2a_tui import quoting
from a2a_tui.cli.rules import rules_for
from a2a_tui.errors import A2AError


@dataclass
class Result:
    data: Any
    text: str = ""
    rules: str | None = None  # a key of COMMAND_RULES
    exit_code: int = 0
    extra_rules: list[str] = field(default_factory=list)


def emit(result: Result, as_json: bool, *, rules_known: bool = False) -> int:
    """Print the answer and the rules of its command; `rules_known`: the user has read them
    before, so a line saying where they are stands for them (JSON always carries them)."""
    rules = (rules_for(result.rules) if result.rules else []) + result.extra_rules
    if as_json:
        data = result.data
        if isinstance(data, dict) and rules:
            data = {**data, "rules": rules}
        print(json.dumps(data, ensure_ascii=False, indent=2, default=str))
    else:
        if result.text:   # an agent's text in it shows, never acts on the terminal
            print(quoting.terminal(result.text))
        if rules and rules_known:
            print(f"(its rules: `a2a rules {result.rules}`)")
        elif rules:
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
        elif len(problems(err)) > 1:
            # Every problem at once, one under the other (a card with five problems: five
            # lines), under one error line with its code.
            print(f"a2a: error: {one_line(err.details['headline'])} [{err.code}]",
                  file=sys.stderr)
            print_problems(err, sys.stderr)
        else:
            print(f"a2a: error: {one_line(err.message)} [{err.code}]", file=sys.stderr)
        stream.flush()
    except BrokenPipeError:
        # Nobody reads any more (`a2a verify X 2>&1 | head`); the exit code still says it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    return err.exit_code


def problems(err: A2AError) -> list[str]:
    """The problems an error lists one by one (a card's fields), when it has a headline."""
    found = err.details.get("problems") if "headline" in err.details else None
    return [str(p) for p in found] if isinstance(found, list) else []


def print_problems(err: A2AError, stream=None) -> None:
    for line in problems(err) or [err.message]:
        print(f"  {one_line(line)}", file=stream or sys.stdout)


def one_line(text: str) -> str:
    """`text` as one line: control characters (a card field named by a newline) escaped as
    Python writes them, so an error stays one line however its input was made."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in str(text))


def ask(question: str, default: bool = False) -> bool:
    """Ask the user a yes/no question on the terminal; without a terminal the answer is no
    (an empty answer is `default`)."""
    if not sys.stdin.isatty():
        return False
    try:
        answer = input(question).strip().lower()
    except EOFError:
        return False
    return default if not answer else answer in ("y", "yes")
