"""Gate rules: `.a2a/gate.toml`, the project's own choices about its gate, validated.

Which steps block, default and maximum timeouts, how many rounds of automatic feedback, how often
a failing check runs again, how many follow-up rounds a review may have, which programs checks
may start and which variables they see (by exact name: a pattern could pass every secret of the
environment). A missing file means the defaults.

The file is one any process of the user can write, an agent's shell too, so what it says is in
force only once the user accepted it (`accept`: `a2a gate-rules accept`, recorded with the user
input and the diff; `Repo.rule_file`). Until then the last accepted rules stand, and the change
is a protected board item once (collab/rulefiles.py). A change of the rules in force is recorded
(`gate_rules_changed`, with the new digest); every verify records the digest it ran under.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from a2a_tui.collab.rulefiles import close_flags_in_tx, flag_pending
from a2a_tui.collab.user_input import record_user_input_in_tx
from a2a_tui.errors import A2AError
from a2a_tui.gate.cards.schema import locate
from a2a_tui.gate.cards.thresholds import Threshold, unique, weakenings
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.roles import require_role
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads.rules import GateRulesChanged
from a2a_tui.repo import (
    CONFIG_TOML,
    GATE_TOML,
    RULE_FILES,
    Repo,
    record_acceptance,
    validate_config_text,
)

FILE = GATE_TOML
# Programs a check may start unless gate.toml says otherwise: common build and test tools and
# the small utilities check scripts use. Shell builtins and keywords need no entry.
DEFAULT_COMMANDS = [
    "sh", "bash", "python", "python3", "python3.*", "pytest", "py.test", "uv", "tox", "nox",
    "make", "node", "npm", "npx", "pnpm", "yarn", "go", "cargo", "rustc", "cc", "gcc", "g++",
    "clang", "clang++", "javac", "java", "mvn", "gradle", "ruff", "mypy", "git", "grep", "sed",
    "awk", "diff", "cmp", "cat", "head", "tail", "wc", "sort", "find", "ls", "sleep", "env",
    "timeout", "touch", "mkdir", "yes", "seq", "tr", "cut", "xargs",
]
DEFAULT_ENV = ["PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_COLLATE", "LC_MESSAGES",
               "LC_MONETARY", "LC_NUMERIC", "LC_TIME", "TZ", "TERM", "USER", "LOGNAME"]
VARIABLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


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


class Limits(BaseModel):
    """What a candidate may weigh, and how long a2a waits on what an agent wrote. A larger
    value is a change of gate.toml like any other: in force once the user accepted it."""

    model_config = ConfigDict(extra="forbid")

    tree_bytes: int = Field(default=1 << 30, ge=1, description="the total size of a candidate's"
                            " files, in bytes (`tree_too_large`)")
    blob_bytes: int = Field(default=100 << 20, ge=1, description="the largest file of a"
                            " candidate, in bytes (`tree_too_large`)")
    entries: int = Field(default=200_000, ge=1, description="the number of files and folders"
                         " of a candidate (`tree_too_large`)")
    depth: int = Field(default=128, ge=1, le=4096, description="how deep a candidate's folders"
                       " nest (`tree_too_large`)")
    clone_s: int = Field(default=60, ge=1, le=3600, description="how long a2a waits on each git"
                         " process reading an attempt's clone (import, status: `diff`, `show`,"
                         " `reclaim`, the diff view) before it stops it (`git_timeout`)")


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
                             description="variables passed from the gate's environment, each"
                             " by its exact name")

    @field_validator("allow")
    @classmethod
    def _names(cls, v: list[str]) -> list[str]:
        bad = next((n for n in v if not VARIABLE.match(n)), None)
        if bad is not None:
            raise ValueError(f"{bad!r} is not a variable's exact name: no wildcard (a pattern"
                             " could pass every secret of your environment to a worker's code)")
        return v


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
    retry_budget: int = Field(default=5, ge=1, le=100,
                              description="attempts a card may have, all told (a claim past"
                              " them is refused; the count is never reset)")
    lease_s: int = Field(default=3600, ge=0, le=7 * 86_400,
                         description="an attempt owing work is isolated after this long"
                         " without a report from its writer (0: no leases)")
    spot_check_every: int = Field(default=10, ge=0, le=10_000,
                                  description="every Nth integration, the board asks you to"
                                  " re-check one of the last N (0: never)")
    approval_valid_s: int = Field(default=86_400, ge=1, le=30 * 86_400,
                                  description="an approval to integrate expires after this"
                                  " (a2a approve --valid-for says otherwise for one)")
    timeouts: Timeouts = Field(default_factory=Timeouts)
    steps: Steps = Field(default_factory=Steps)
    commands: Commands = Field(default_factory=Commands)
    env: EnvRules = Field(default_factory=EnvRules)
    limits: Limits = Field(default_factory=Limits)
    thresholds: list[Threshold] = Field(default_factory=list, description="numbers read from a"
                                        " check's output and held to a limit (rule 6)")

    @field_validator("thresholds")
    @classmethod
    def _unique(cls, v: list[Threshold]) -> list[Threshold]:
        return unique(v)

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
        return name in self.env.allow

    def timeout(self, asked: int | None) -> int:
        return asked if asked is not None else self.timeouts.default_s

    def digest(self) -> str:
        # No thresholds: the digest rules had before there were any (nothing changed).
        dump = self.model_dump(mode="json", exclude=None if self.thresholds else {"thresholds"})
        raw = json.dumps(dump, sort_keys=True, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(raw.encode()).hexdigest()


@dataclass(frozen=True)
class LoadedRules:
    rules: GateRules
    digest: str
    path: Path
    warnings: tuple[str, ...] = ()
    pending: tuple[str, ...] = ()   # rule files whose change is not in force (not accepted)

    def to_json(self) -> JsonObject:
        return {"digest": self.digest, "path": str(self.path), "warnings": list(self.warnings),
                "pending": list(self.pending)}


def parse(text: str, path: Path, feedback_limit: int | None = None
          ) -> tuple[GateRules, tuple[str, ...]]:
    """Validate gate.toml's `text`; one clear error (`bad_gate_rules`) naming file and field."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise A2AError("bad_gate_rules", f"{path}: not valid TOML: {exc}") from exc
    warnings: list[str] = []
    old = feedback_limit
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
        field = ".".join(str(p) for p in loc if not isinstance(p, int)) or "rules"
        msg = ("is not a gate rule" if err["type"] == "extra_forbidden"
               else err["msg"].removeprefix("Value error, "))
        raise A2AError("bad_gate_rules", f"{where}: {field} {msg}",
                       details={"field": field, "line": line}) from exc
    return rules, tuple(warnings)


def load(g: GateContext) -> LoadedRules:
    """The rules in force (the accepted gate.toml; the defaults when none), validated."""
    rule = g.repo.rule_file(GATE_TOML)
    rules, warnings = parse(rule.text, rule.path, g.config.feedback_limit)
    pending = tuple(r.label for r in (rule, g.repo.rule_file(CONFIG_TOML)) if r.pending)
    return LoadedRules(rules, rules.digest(), rule.path, warnings, pending)


def in_force(repo: Repo) -> GateRules:
    """The rules in force, for a reader that has only the repository (a diff, an import)."""
    rule = repo.rule_file(GATE_TOML)
    return parse(rule.text, rule.path)[0]


def current(g: GateContext) -> LoadedRules:
    """The rules in force, their change (if any) recorded as `gate_rules_changed` first, and a
    change of the files not yet accepted flagged for the user. Until a first change is
    recorded, the rules in force were the defaults."""
    loaded = load(g)
    if loaded.pending:
        flag_pending(g.repo, g.store)
    last = _last_digest(g.store)
    if last != loaded.digest:
        with g.store.write() as tx:
            last = _last_digest(tx)
            if last != loaded.digest:
                tx.append("gate_rules_changed", actor="gate",
                          payload=GateRulesChanged(
                              digest=loaded.digest, previous=last, path=str(loaded.path),
                              rules=loaded.rules.model_dump(mode="json"),
                              warnings=list(loaded.warnings)))
    return loaded


def accept(g: GateContext) -> list[JsonObject]:
    """The user accepts the rule files as they are now: each changed one is validated (a bad
    file is refused, nothing recorded), then recorded as a user input and `rules_accepted`
    with the diff, and its board item is closed. Only the user (the role table)."""
    from a2a_tui import settings  # lazy: pydantic models of the user's settings

    require_role(g, "gate-rules accept")
    changed = [r for r in (g.repo.rule_file(n) for n in RULE_FILES) if r.pending]
    weakens: dict[str, list[str]] = {}   # what a change relaxes, named in its record
    for rule in changed:   # everything checked before anything is recorded
        if rule.unreadable is not None:
            raise A2AError("bad_gate_rules" if rule.name == GATE_TOML else "bad_config",
                           f"{rule.path}: cannot read: {rule.unreadable}")
        try:
            (rule.disk or "").encode("utf-8")
        except UnicodeEncodeError:
            raise A2AError("bad_gate_rules" if rule.name == GATE_TOML else "bad_config",
                           f"{rule.path}: cannot read: not UTF-8") from None
        if rule.name == GATE_TOML:
            weakens[rule.label] = weakenings(parse(rule.text, rule.path)[0].thresholds,
                                             parse(rule.disk or "", rule.path)[0].thresholds)
        else:
            validate_config_text(rule.disk or "", rule.path)
            settings.load(rule.path, repo_text=rule.disk or "")   # the settings it holds too
    out = []
    with g.store.write() as tx:
        for rule in changed:
            uid = record_user_input_in_tx(
                tx, "action", f"accept {rule.label} ({rule.disk_digest[:19]})", source="cli",
                details={"file": rule.label, "digest": rule.disk_digest})
            seq = record_acceptance(tx, rule, rule.text, actor=g.caller.actor,
                                    how="a2a gate-rules accept", user_input=uid,
                                    weakens=weakens.get(rule.label))
            closed = close_flags_in_tx(tx, rule.label, f"accepted by the user ({uid})")
            out.append({"file": rule.label, "digest": rule.disk_digest,
                        "previous": rule.digest, "user_input": uid, "event": seq,
                        "closed": closed, "weakens": weakens.get(rule.label, [])})
    if changed:
        current(g)   # the rules in force changed: recorded now
    return out


def weakened(rule) -> list[str]:
    """What a change of gate.toml not accepted yet relaxes of the thresholds in force (empty:
    nothing, another file, or a file that does not parse: `accept` says why)."""
    if rule.name != GATE_TOML or not rule.pending or rule.unreadable is not None:
        return []
    try:
        return weakenings(parse(rule.text, rule.path)[0].thresholds,
                          parse(rule.disk or "", rule.path)[0].thresholds)
    except A2AError:
        return []


def _last_digest(db) -> str:
    row = db.one("SELECT json_extract(payload, '$.digest') FROM events"
                 " WHERE kind = 'gate_rules_changed' ORDER BY seq DESC LIMIT 1")
    return row[0] if row else GateRules().digest()


def environment(allowed: Callable[[str], bool], card_env: dict[str, str]) -> dict[str, str]:
    """What every command of a verify starts from: allow-listed variables, then the card's."""
    env = {k: v for k, v in os.environ.items() if allowed(k)}
    env.update(card_env)
    return env
