"""A review report: Markdown for people, ending in a fenced verdict block for the gate.

The reviewer argues in prose (what was read, tables, what to change) and ends the report with
one block of TOML in a ```verdict fence:

    ```verdict
    verdict = "fail"                  # pass | pass_with_risks | fail
    recommends_follow_up = true       # advice: a follow-up review would be worth it
    risks = ["the cache is not invalidated on rename"]

    [[blocking_issues]]
    id = "B1"
    title = "Empty names are still accepted"
    evidence = ["src/app.py:12", "tests/test_app.py:30-41"]
    ```

The verdict and its issues must agree: a `fail` names at least one blocking issue, a `pass` or
`pass_with_risks` none; a `pass_with_risks` names its risks and a `pass` has none. The
verdict is advice: a blocking issue is what the reviewer *claims* blocks, and the executive
controller or the user disposes of each one (accept, reject, defer).
"""

from __future__ import annotations

import re
import tomllib
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from a2a_tui import quoting
from a2a_tui.errors import A2AError
from a2a_tui.gate.cards.schema import _nonblank, locate

VERDICTS = ("pass", "pass_with_risks", "fail")
ISSUE_ID = r"^[A-Za-z][A-Za-z0-9_.-]{0,31}$"
EVIDENCE = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>[1-9][0-9]*)(?:-(?P<end>[1-9][0-9]*))?$")
_OPEN = re.compile(r"^ {0,3}```\s*verdict\s*$")
_CLOSE = re.compile(r"^ {0,3}```\s*$")


def _one_line(v: str) -> str:
    """A title or a risk is one line of visible text: another agent reads it inside a2a's own
    prompt, where a line of its own could pass for a2a's marker."""
    if quoting.name(v) != quoting.neutralise(v):
        raise ValueError("must be one line of visible text (no line break, control or format"
                         " character)")
    return v


class BlockingIssue(BaseModel):
    """One issue the reviewer claims blocks the candidate, with where it shows."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=ISSUE_ID)
    title: str
    evidence: list[str] = Field(min_length=1)

    @field_validator("title")
    @classmethod
    def _title(cls, v: str) -> str:
        return _one_line(_nonblank(v))

    @field_validator("evidence")
    @classmethod
    def _evidence(cls, v: list[str]) -> list[str]:
        for i, item in enumerate(v):
            m = EVIDENCE.match(item.strip())
            if m is None:
                raise ValueError(f"[{i}] must be file:line (or file:line-line), not {item!r}")
            if m["path"].startswith("/") or ".." in m["path"].split("/"):
                raise ValueError(f"[{i}] {item!r}: the path is relative to the repository and"
                                 " stays inside it")
        return [item.strip() for item in v]

    def places(self) -> list[tuple[str, int, int]]:
        """(path, first line, last line) of each piece of evidence."""
        out = []
        for item in self.evidence:
            m = EVIDENCE.match(item)
            assert m is not None
            out.append((m["path"], int(m["line"]), int(m["end"] or m["line"])))
        return out


class VerdictBlock(BaseModel):
    """The machine-readable end of a review report."""

    model_config = ConfigDict(extra="forbid")

    verdict: Literal["pass", "pass_with_risks", "fail"]
    recommends_follow_up: bool
    blocking_issues: list[BlockingIssue] = Field(default_factory=list)
    risks: list[str] = Field(default_factory=list)

    @field_validator("risks")
    @classmethod
    def _risks(cls, v: list[str]) -> list[str]:
        for item in v:
            _one_line(_nonblank(item))
        return v

    @model_validator(mode="after")
    def _consistent(self) -> VerdictBlock:
        ids = [i.id for i in self.blocking_issues]
        dup = next((x for x in ids if ids.count(x) > 1), None)
        if dup is not None:
            raise ValueError(f"blocking_issues: issue id {dup!r} is used twice")
        if self.verdict == "fail" and not ids:
            raise ValueError("blocking_issues: a fail names at least one blocking issue")
        if self.verdict != "fail" and ids:
            raise ValueError(f"blocking_issues: a {self.verdict} has no blocking issues (with"
                             " them the verdict is fail)")
        if self.verdict == "pass_with_risks" and not self.risks:
            raise ValueError("risks: a pass_with_risks names at least one risk")
        if self.verdict == "pass" and self.risks:
            raise ValueError("risks: a pass names no risks (with them the verdict is"
                             " pass_with_risks)")
        return self


class Report(VerdictBlock):
    """A parsed report: its verdict block, and the prose before it."""

    text: str = ""


def parse_report(text: str, name: str = "<report>") -> Report:
    """Parse a report; every problem is one `bad_verdict` error naming the field and line."""
    lines = text.splitlines()
    opens = [i for i, line in enumerate(lines) if _OPEN.match(line)]

    def bad(message: str, line: int | None = None) -> A2AError:
        where = f"{name}:{line}" if line else name
        return A2AError("bad_verdict", f"{where}: {message}", exit_code=2)

    if not opens:
        raise bad("no ```verdict block: the report ends with one (see `a2a rules review verdict`)")
    if len(opens) > 1:
        raise bad(f"one ```verdict block per report, found {len(opens)}", opens[1] + 1)
    start = opens[0]
    end = next((j for j in range(start + 1, len(lines)) if _CLOSE.match(lines[j])), None)
    if end is None:
        raise bad("the ```verdict block is not closed with ```", start + 1)
    if any(line.strip() for line in lines[end + 1:]):
        raise bad("the report must end with its ```verdict block: text follows it", end + 2)
    prose = "\n".join(lines[:start]).strip("\n")
    if not prose.strip():
        raise bad("the report has no text before its verdict block: say what you read and why",
                  start + 1)
    block = "\n".join(lines[start + 1:end])
    try:
        data = tomllib.loads(block)
    except tomllib.TOMLDecodeError as exc:
        raise bad(f"the verdict block is not valid TOML: {exc}", start + 1) from exc
    try:
        parsed = VerdictBlock.model_validate(data)
    except ValidationError as exc:
        field, message, loc = _first_error(exc)
        inner = locate(block, loc) if loc else None
        raise bad(f"verdict block: field '{field}'{message}",
                  start + 1 + inner if inner else start + 1) from exc
    return Report(**parsed.model_dump(), text=prose)


def _first_error(exc: ValidationError) -> tuple[str, str, tuple]:
    """(field as `a[0].b`, the message that follows it, pydantic's location) of the first
    problem."""
    err = exc.errors()[0]
    loc = tuple(err["loc"])
    msg = err["msg"].removeprefix("Value error, ")
    if not loc and err["type"] == "value_error":
        field, _, msg = msg.partition(": ")       # the model's own checks name their field
        return field, f": {msg}", (field,)
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")
    if err["type"] == "missing":
        msg = "is required"
    elif err["type"] == "extra_forbidden":
        msg = "is not a verdict field"
    elif err["type"] == "literal_error":
        msg = f"must be one of {', '.join(VERDICTS)}"
    elif msg.startswith("["):                     # an item of a list: name it in the field
        index, _, msg = msg.partition("] ")
        field += index + "]"
    return field, f" {msg}", loc
