"""Gate rules: `.a2a/gate.toml`, the project's own choices about its gate, validated.

Which steps block, default and maximum timeouts, how many rounds of automatic feedback, how often
a failing check runs again, how many follow-up rounds a review may have, which programs checks
may start and which variables they see. A missing file means the defaults. A change is recorded
(`gate_rules_changed`, with the new digest) when a gate command first reads it; every verify
records the digest it ran under.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from a2a_tui.errors import A2AError
from a2a_tui.gate.cards import locate
from a2a_tui.gate.context import GateContext

FILE = "gate.toml"
# Programs a check may start unless gate.toml says otherwise: common build and test tools and
# the small utilities check scripts use. Shell builtins and keywords need no entry.
DEFAULT_COMMANDS = [
    "sh", "bash", "python", "python3", "python3.*", "pytest", "py.test", "uv", "tox", "nox",
    "make", "node", "npm", "npx", "pnpm", "yarn", "go", "cargo", "rustc", "cc", "gcc", "g++",
    "clang", "clang++", "javac", "java", "mvn", "gradle", "ruff", "mypy", "git", "grep", "sed",
    "awk", "diff", "cmp", "cat", "head", "tail", "wc", "sort", "find", "ls", "sleep", "env",
    "timeout", "touch", "mkdir", "yes", "seq", "tr", "cut", "xargs",
]
DEFAULT_ENV = ["PATH", "LANG", "LANGUAGE", "LC_*", "TZ", "TERM", "USER", "LOGNAME"]


class Timeouts(BaseModel):
    model_config = ConfigDict(extra="forbid")

    default_s: int = Field(default=300, ge=1, le=86_400,
                           description="for a check (or red step) that names none")
    max_s: int = Field(default=3600, ge=1, le=86_400, description="no card may ask for more")

    @model_validator(mode="after")
    def _order(self) -> Timeouts:
        if self.default_s > self.max_s:
            raise ValueError(f"default_s ({self.default_s}) is above max_s ({self.max_s})")
        return self


class Steps(BaseModel):
    """Whether a step's failure rejects (true) or is only recorded (false). A card's checks say
    it themselves (`blocking`); sanity and the contract precheck always block."""

    model_config = ConfigDict(extra="forbid")

    boundary: bool = True
    drift: bool = True
    provenance: bool = True
    red: bool = True
    tree: bool = True
    per_test: bool = True
    artifacts: bool = True


class Commands(BaseModel):
    model_config = ConfigDict(extra="forbid")

    allow: list[str] = Field(default_factory=lambda: list(DEFAULT_COMMANDS),
                             description="program names or fnmatch patterns ('*': any)")
    repository: bool = Field(default=True,
                             description="programs inside the repository (./scripts/x) may run")


class EnvRules(BaseModel):
    model_config = ConfigDict(extra="forbid")

    allow: list[str] = Field(default_factory=lambda: list(DEFAULT_ENV),
                             description="variables passed from the gate's environment")


class GateRules(BaseModel):
    """`.a2a/gate.toml`."""

    model_config = ConfigDict(extra="forbid")

    # After a blocking failure the rest of the chain is reported `skipped` (a failed precheck
    # or sanity always stops it).
    stop_at_first_blocking_failure: bool = True
    feedback_rounds: int = Field(default=3, ge=0, le=100,
                                 description="automatic feedback stops after N rejections")
    flaky_reruns: int = Field(default=1, ge=0, le=10,
                              description="a failing blocking check runs again up to N times")
    review_follow_up_rounds: int = Field(default=2, ge=0, le=100,
                                         description="reviews of later submissions after the"
                                         " first review of an attempt")
    timeouts: Timeouts = Field(default_factory=Timeouts)
    steps: Steps = Field(default_factory=Steps)
    commands: Commands = Field(default_factory=Commands)
    env: EnvRules = Field(default_factory=EnvRules)

    @field_validator("steps", mode="before")
    @classmethod
    def _sanity(cls, v: Any) -> Any:
        if isinstance(v, dict) and "sanity" in v:
            raise ValueError("sanity always blocks: it is not the project's choice")
        return v

    def blocks(self, step: str) -> bool:
        """Whether a failure of `step` rejects."""
        return bool(getattr(self.steps, step, True))

    def allows_program(self, word: str) -> bool:
        name = word.rsplit("/", 1)[-1]
        return any(fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(word, p)
                   for p in self.commands.allow)

    def allows_variable(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in self.env.allow)

    def timeout(self, asked: int | None) -> int:
        return asked if asked is not None else self.timeouts.default_s

    def digest(self) -> str:
        raw = json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(raw.encode()).hexdigest()


@dataclass(frozen=True)
class LoadedRules:
    rules: GateRules
    digest: str
    path: Path
    warnings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"digest": self.digest, "path": str(self.path), "warnings": list(self.warnings)}


def load(g: GateContext) -> LoadedRules:
    """Read and validate the rules (defaults when there is no file); one clear error otherwise."""
    path = g.repo.a2a_dir / FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise A2AError("bad_gate_rules", f"{path}: cannot read: {exc}") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise A2AError("bad_gate_rules", f"{path}: not valid TOML: {exc}") from exc
    warnings: list[str] = []
    old = g.config.feedback_limit
    if old is not None:
        if "feedback_rounds" in data:
            warnings.append(f"config.toml feedback_limit = {old} is ignored: gate.toml"
                            " feedback_rounds decides; remove it from config.toml")
        else:
            data["feedback_rounds"] = old
            warnings.append(f"config.toml feedback_limit = {old} is deprecated and read as"
                            " gate.toml feedback_rounds; move it there")
    try:
        rules = GateRules.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        line = locate(text, loc)
        where = f"{path}:{line}" if line else str(path)
        field = ".".join(str(p) for p in loc) or "rules"
        msg = "is not a gate rule" if err["type"] == "extra_forbidden" else err["msg"]
        raise A2AError("bad_gate_rules", f"{where}: {field} {msg}",
                       details={"field": field, "line": line}) from exc
    return LoadedRules(rules, rules.digest(), path, tuple(warnings))


def current(g: GateContext) -> LoadedRules:
    """The rules in force, their change (if any) recorded as `gate_rules_changed` first. Until
    a first change is recorded, the rules in force were the defaults."""
    loaded = load(g)
    last = _last_digest(g.store)
    if last != loaded.digest:
        with g.store.write() as tx:
            last = _last_digest(tx)
            if last != loaded.digest:
                tx.append("gate_rules_changed", actor="gate",
                          payload={"digest": loaded.digest, "previous": last,
                                   "path": str(loaded.path),
                                   "rules": loaded.rules.model_dump(mode="json"),
                                   "warnings": list(loaded.warnings)})
    return loaded


def _last_digest(db) -> str:
    row = db.one("SELECT json_extract(payload, '$.digest') FROM events"
                 " WHERE kind = 'gate_rules_changed' ORDER BY seq DESC LIMIT 1")
    return row[0] if row else GateRules().digest()
