"""Task cards: TOML contracts validated by pydantic, with errors that name the field and line."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from a2a_tui.errors import A2AError
from a2a_tui.gate.model import _digest, contract_digest_of
from a2a_tui.jsontypes import JsonObject

CARD_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$")
GATE_FILLED = ("version", "digest", "start_commit", "writer", "sole_writer", "state")
# The verify chain's own steps: a check may not take their names (its results are named).
STEP_NAMES = ("precheck", "sanity", "boundary", "drift", "provenance", "red", "per-test",
              "artifacts")
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Variables the gate itself sets for every check: a card cannot take them over.
GATE_ENV = ("HOME", "TMPDIR")
TITLE_MAX = 80
DEFAULT_RED_PATHS = ["tests/**", "test/**", "**/test_*", "**/*_test.*", "**/*.test.*",
                     "**/*_spec.*"]


def _nonblank(v: str) -> str:
    if not v.strip():
        raise ValueError("must not be empty")
    return v


def _inside_path(v: str) -> str:
    if v.startswith("/") or ".." in v.split("/"):
        raise ValueError(f"{v!r}: paths are relative to the repository and stay inside it")
    return _nonblank(v)


class Check(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # The check's name, in results and logs (not one of the chain's own steps).
    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", max_length=64)
    # A shell command run in a clean checkout of the candidate; exit 0 passes.
    command: str
    # A blocking failure rejects the candidate; a non-blocking one is recorded as advice.
    blocking: bool = True
    timeout_s: int | None = Field(default=None, ge=1, le=86_400,
                                  description="default: the gate's (gate.toml [timeouts])")
    # The test report the command writes (JUnit XML or TAP): a file, folder or glob inside the
    # checkout. pytest's and `node --test`'s a2a asks for itself (gate/verification/reports).
    report: str | None = None

    _cmd = field_validator("command")(_nonblank)

    @field_validator("report")
    @classmethod
    def _report(cls, v: str | None) -> str | None:
        return _inside_path(v) if v is not None else v


class Executor(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # The CLI, model and reasoning effort a session on this card should run.
    cli: Literal["claude", "codex", "gemini", "demo"]
    model: str = ""
    effort: str = ""


class Card(BaseModel):
    """A task card as written by a person or the ideation controller."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(default="", description="filled in by the gate when missing")
    # Filled from the goal's first line when missing (the author writes goal, non-goals, paths,
    # acceptance and checks; seed 003 has the script fill the rest).
    title: str = ""
    goal: str
    non_goals: list[str] = Field(min_length=1)
    allowed_paths: list[str] = Field(min_length=1)
    acceptance: list[str] = Field(min_length=1)
    # The checks the gate runs on the candidate: at least one blocking ([[checks]] tables).
    checks: list[Check] = Field(min_length=1)
    red_command: str | None = None
    # Which of the candidate's files are its tests: laid over the base for the red step, and
    # run from the base against the candidate in the per-test step.
    red_paths: list[str] = Field(default_factory=lambda: list(DEFAULT_RED_PATHS))
    # Each red run's timeout; default: the gate rules' (gate.toml [timeouts]).
    red_timeout_s: int | None = Field(default=None, ge=1, le=86_400)
    # The red command's test report, as a check's `report`.
    red_report: str | None = None
    task_type: Literal["feature", "bugfix", "refactor", "test", "docs", "chore"] = "feature"
    complexity: Literal["S", "M", "L"] = "M"
    # Who should do it; None: whoever the executive controller (or the user) starts.
    executor: Executor | None = None
    # Where the card comes from; filled by the gate when empty (cards/commands.py source_of).
    source_ticket: str = ""
    acceptance_files: list[str] = Field(default_factory=list)
    # Claim only after an assign that quotes the user's own authorization.
    needs_user_authorization: bool = False
    # Paths the candidate must contain (checked after its checks ran); a file a check names
    # that the start commit lacks must be declared here.
    artifacts: list[str] = Field(default_factory=list)
    # Hints for the worker, quoted in its task as written, one a line (not part of the
    # contract); the demo agent runs each that starts with `!` (its only way to do a task).
    hints: list[str] = Field(default_factory=list)
    # Variables every check of this card gets, beside the gate's allow-listed ones.
    env: dict[str, str] = Field(default_factory=dict)
    # Whether the checks need the network (a registry, a service); None: the user's default
    # (`check_network` under [confinement], off unless set). Recorded with the verdict.
    network: bool | None = None
    # Tests the candidate may delete, skip or mark xfail: pytest node ids (fnmatch patterns)
    # or repository globs of test files.
    droppable_tests: list[str] = Field(default_factory=list)
    # Integration needs an accepted review of the current SHA (gate/reviews/dispositions.py).
    review: Literal["none", "required"] = "none"
    # Integration needs the user's approval bound to the SHA and its evidence
    # (gate/reviews/approvals.py).
    integrate_approval: Literal["none", "user"] = "none"

    _text = field_validator("goal")(_nonblank)

    @field_validator("title", "source_ticket")
    @classmethod
    def _blank_or_text(cls, v: str) -> str:
        # Empty means "fill it in"; only spaces is a slip worth naming.
        if v and not v.strip():
            raise ValueError("must not be only spaces")
        return v.strip()

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        if v and not CARD_ID.match(v):
            raise ValueError("must start with a letter and hold only letters, digits,"
                             " '_', '.', '-'")
        return v

    @field_validator("non_goals", "allowed_paths", "acceptance", "acceptance_files", "red_paths",
                     "artifacts", "droppable_tests", "hints")
    @classmethod
    def _items(cls, v: list[str]) -> list[str]:
        for item in v:
            if not item.strip():
                raise ValueError("items must not be empty")
        return v

    @field_validator("allowed_paths", "acceptance_files", "red_paths", "artifacts")
    @classmethod
    def _relative(cls, v: list[str]) -> list[str]:
        for item in v:
            if item.startswith("/") or ".." in item.split("/"):
                raise ValueError(f"{item!r}: paths are relative to the repository"
                                 " and stay inside it")
        return v

    @field_validator("red_command")
    @classmethod
    def _red(cls, v: str | None) -> str | None:
        return _nonblank(v) if v is not None else v

    @field_validator("red_report")
    @classmethod
    def _red_report(cls, v: str | None) -> str | None:
        return _inside_path(v) if v is not None else v

    @field_validator("env")
    @classmethod
    def _env(cls, v: dict[str, str]) -> dict[str, str]:
        for name, value in v.items():
            if not ENV_NAME.match(name):
                raise ValueError(f"{name!r} is not a variable name")
            if name in GATE_ENV:
                raise ValueError(f"{name} is set by the gate for each check (its own, empty)")
            if "\0" in value:
                raise ValueError(f"{name}: a value cannot hold a NUL character")
        return v

    @model_validator(mode="after")
    def _artifacts(self) -> Card:
        # A literal artifact outside allowed_paths could never be delivered without a boundary
        # rejection: the card contradicts itself.
        for a in self.artifacts:
            if not any(ch in a for ch in "*?[") and not path_matches(a, self.allowed_paths):
                raise ValueError(f"artifacts: {a!r} is outside allowed_paths")
        return self

    @field_validator("checks")
    @classmethod
    def _checks(cls, checks: list[Check]) -> list[Check]:
        names = [c.name for c in checks]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ValueError(f"duplicate check name {sorted(dup)[0]!r}")
        taken = sorted(set(names) & set(STEP_NAMES))
        if taken:
            raise ValueError(f"{taken[0]!r} names a step of the verify chain;"
                             " call the check something else")
        if not any(c.blocking for c in checks):
            raise ValueError("at least one check must be blocking")
        return checks

    @model_validator(mode="after")
    def _title(self) -> Card:
        if not self.title:
            first = self.goal.strip().splitlines()[0].strip()
            self.title = first if len(first) <= TITLE_MAX else first[:TITLE_MAX - 1] + "…"
        return self

    def body_json(self) -> JsonObject:
        """The card's fields as the log and its digests hold them (JSON)."""
        body = self.model_dump(mode="json")
        # A card that names no report (no hints) keeps the body and digests it had before
        # cards could.
        for part in (body, *body["checks"]):
            for name in ("report", "red_report"):
                if name in part and part[name] is None:
                    del part[name]
        if not body["hints"]:
            del body["hints"]
        return body

    def digest(self) -> str:
        return _digest(self.body_json())

    def contract_digest(self) -> str:
        return contract_digest_of(self.body_json())



def load_card(path: Path) -> Card:
    """Parse and validate a card file; every failure is one A2AError naming field and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise A2AError("card_not_found", f"{path}: no such file") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise A2AError("bad_card", f"{path}: cannot read: {exc}") from exc
    return parse_card(text, str(path))


def parse_card(text: str, name: str = "<card>") -> Card:
    """Validate a card's TOML text. Every problem is found in one pass and reported at once:
    one A2AError (`bad_card`) whose message holds them all, each naming its field and line;
    `details["problems"]` has one line per problem (the CLI prints one under the other)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # tomllib says where only in its message: "… (at line 3, column 8)".
        at = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        where = f"{name}:{at.group(1)}" if at else name
        raise A2AError("bad_card", f"{name}: not valid TOML: {exc}", details={
            "line": int(at.group(1)) if at else None,
            "problems": [f"{where}: not valid TOML: {exc}"]}) from exc
    found = [Problem(key, locate(text, (key,)), "is filled in by the gate; remove it")
             for key in GATE_FILLED if key in data]
    try:
        card = Card.model_validate({k: v for k, v in data.items() if k not in GATE_FILLED})
    except ValidationError as exc:
        found += [_problem(text, err) for err in exc.errors()]
        card = None
    if found:
        raise card_problems(name, found)
    assert card is not None
    return card


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a card: its field (dotted), its line (None: the field is missing),
    and what is wrong."""

    field: str
    line: int | None
    message: str

    def text(self, name: str) -> str:
        where = f"{name}:{self.line}" if self.line else name
        return f"{where}: field '{self.field}' {self.message}"


def _problem(text: str, err: Any) -> Problem:
    loc = tuple(err["loc"])
    field = ".".join(str(p) for p in loc) or "card"
    msg = err["msg"].removeprefix("Value error, ")
    if err["type"] == "missing":
        msg = "is required"
    elif err["type"] == "extra_forbidden":
        msg = "is not a card field"
    elif err["type"] == "too_short":
        msg = "needs at least one entry"
    return Problem(field, locate(text, loc), msg)


def card_problems(name: str, found: list[Problem]) -> A2AError:
    """The one refusal for every problem of a card, in the order of its lines."""
    found = sorted(found, key=lambda p: (p.line is None, p.line or 0))
    lines = [p.text(name) for p in found]
    first = found[0]
    if len(found) == 1:
        message = lines[0]
    else:
        message = f"{name}: {len(found)} problems, nothing stored: " + "; ".join(lines)
    return A2AError("bad_card", message, details={
        "field": first.field, "line": first.line, "problems": lines,
        "headline": f"{name}: {len(found)} problems, nothing stored",
        "fields": [{"field": p.field, "line": p.line, "message": p.message} for p in found]})


def locate(text: str, loc: tuple) -> int | None:
    """Best-effort line number (1-based) of a field path like ('checks', 1, 'timeout_s')."""
    lines = text.splitlines()
    start, end = 0, len(lines)
    keys = [p for p in loc if isinstance(p, str)]
    idxs = [p for p in loc if isinstance(p, int)]
    if not keys:
        return None
    top = keys[0]
    header = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\-]+)\s*\]\]?\s*(#.*)?$")
    assign = lambda k: re.compile(rf"^\s*{re.escape(k)}\s*=")  # noqa: E731
    # Table form: [executor] / [[checks]] (the n-th one).
    seen = -1
    for i, line in enumerate(lines):
        m = header.match(line)
        if m and m.group(1) == top:
            seen += 1
            if not idxs or seen == idxs[0]:
                start = i
                end = next((j for j in range(i + 1, len(lines)) if header.match(lines[j])),
                           len(lines))
                if len(keys) == 1:
                    return i + 1
                for j in range(i + 1, end):
                    if assign(keys[1]).match(lines[j]):
                        return j + 1
                return i + 1
    # Plain key at the top level (before the first table header).
    first_table = next((i for i, line in enumerate(lines) if header.match(line)), len(lines))
    for i in range(0, first_table):
        if assign(top).match(lines[i]):
            return i + 1
    return None if start == 0 and end == len(lines) else start + 1


def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """Repository globs: `*` within a segment, `**` across segments, `?` one character.

    A pattern naming a directory (`src` or `src/`) covers everything below it.
    """
    pat = pattern.strip()
    if pat.startswith("./"):
        pat = pat[2:]
    out, i = [], 0
    while i < len(pat):
        c = pat[i]
        if pat.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pat.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(c))
            i += 1
    body = "".join(out)
    if body.endswith("/"):
        body += ".*"
    elif not any(ch in pattern for ch in "*?"):
        body += "(?:/.*)?"
    return re.compile(rf"^{body}$")


def path_matches(path: str, patterns: list[str]) -> bool:
    return any(glob_to_regex(p).match(path) for p in patterns)
