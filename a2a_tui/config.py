"""`.a2a/config.toml`: its fields, read on nearly every command, validated by pydantic.

Reading it must not cost each `a2a` call the import of pydantic, nor of tomllib (whose regular
expressions compile at import). `read_plain` reads the file as `Repo.write_config` leaves it (a
few `key = "text"` and `key = number` lines) with the standard library alone, and checks the
fields as the model does. Any other file, valid or not, goes to tomllib and the pydantic model,
which give the exact error. tests/test_config.py checks that both agree wherever `read_plain`
answers.

Adding a field: to `Config` with its default and to `model()` with its checks (a test fails
while the two differ). Add it to PLAIN_FIELDS only if it is a plain string or number whose
checks `read_plain` then makes too; a file that sets any other field is read by the model.

The rule files (`.a2a/gate.toml`, this one) are in force only as the user accepted them: a
`RuleFile` holds the text in force beside the file's, `record_acceptance` records an acceptance
(a2a_tui/repo.py `Repo.rule_file` reads them back).
"""

# Imports inside functions: tomllib, tomli_w, pydantic and the store load only for a command
# that needs them (a2a's start-up: tests/test_startup.py).

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import TomlTable

A2A_DIR = ".a2a"


@dataclass
class Config:
    """`.a2a/config.toml`."""

    target_branch: str          # the branch tasks integrate into (`a2a init`: the one checked out)
    tmux_session: str = ""      # tmux session for this repository's panes
    feedback_limit: int | None = None  # deprecated: gate.toml's feedback_rounds decide
    retro_every: str = ""       # propose a retrospective on the board this often (7d, 2w)
    # The repository's overrides of the user's settings (tables), validated by a2a_tui.settings.
    roles: dict[str, Any] | None = None
    notify: dict[str, Any] | None = None
    stall: dict[str, Any] | None = None
    layout: dict[str, Any] | None = None

    def to_toml(self) -> TomlTable:
        """The config as `.a2a/config.toml` holds it (tomli-w writes it: repo.py)."""
        return asdict(self)


@functools.cache
def model() -> Any:
    """The pydantic model of the file (built on first use: pydantic costs ~0.1 s to import)."""
    from pydantic import BaseModel, ConfigDict, Field, field_validator

    class ConfigModel(BaseModel):
        model_config = ConfigDict(extra="forbid")

        target_branch: str = Field(min_length=1)
        tmux_session: str = Field(default="",
                                  description="tmux session for this repository's panes")
        # Deprecated: the gate rules (.a2a/gate.toml feedback_rounds) decide; still read as
        # their fallback when gate.toml does not say (gate/cards/gate_rules.py).
        feedback_limit: int | None = Field(default=None, ge=0,
                                           description="deprecated: gate.toml feedback_rounds")
        retro_every: str = Field(default="", description="propose a retrospective on the board"
                                 " this often (e.g. 7d, 2w); empty: never")

        # The repository's overrides of the user's settings, validated by a2a_tui.settings.
        roles: dict[str, Any] | None = None
        notify: dict[str, Any] | None = None
        stall: dict[str, Any] | None = None
        layout: dict[str, Any] | None = None

        @field_validator("retro_every")
        @classmethod
        def _a_duration(cls, v: str) -> str:
            if not is_duration(v.strip()):
                raise ValueError("a duration such as 7d, 2w or 12h (or empty)")
            return v.strip()

    return ConfigModel


def validate(data: dict[str, Any]) -> Config:
    """A parsed TOML table checked by the model; raises pydantic's ValidationError."""
    return Config(**model().model_validate(data).model_dump())


def validate_config_text(text: str, path: Path) -> Config:
    """`.a2a/config.toml`'s text read by tomllib and the model; one `bad_config` error."""
    import tomllib

    from pydantic import ValidationError

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise A2AError("bad_config", f"{path}: {exc}") from exc
    try:
        return validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"])
        raise A2AError("bad_config", f"{path}: {field}: {err['msg']}") from exc


def read_plain(text: str) -> Config | None:
    """The config in `text` if it is plain `key = value` lines with valid fields; None for
    anything else (a table, an escape, a comment after a value, a bad field), which
    `tomllib` and `validate` then read."""
    text = text.replace("\r\n", "\n")
    if any((c < " " and c not in "\n\t") or c == "\x7f" for c in text):
        return None  # TOML allows no other control character, not even in a comment
    data: dict[str, Any] = {}
    for line in text.split("\n"):
        line = line.strip(" \t")
        if not line or line.startswith("#"):
            continue
        key, eq, value = line.partition("=")
        key, value = key.strip(" \t"), value.strip(" \t")
        if not eq or key not in PLAIN_FIELDS or key in data:
            return None
        parsed = _string(value) if PLAIN_FIELDS[key] is str else _integer(value)
        if parsed is None or (key == "retro_every" and not is_duration(parsed)):
            return None
        data[key] = parsed
    if not data.get("target_branch"):
        return None
    return Config(**data)


# The fields `read_plain` reads, and their type; its checks: target_branch not empty,
# feedback_limit never negative (`_integer` reads no sign).
PLAIN_FIELDS = {"target_branch": str, "tmux_session": str, "feedback_limit": int,
                "retro_every": str}


def is_duration(value: str) -> bool:
    """Empty, or digits and one unit of s, m, h, d, w (7d, 12h, 2w)."""
    return not value or (value[:-1].isascii() and value[:-1].isdigit()
                         and value[-1] in "smhdw")


def duration_s(value: str) -> int | None:
    """`value` (`90s`, `30m`, `12h`, `7d`, `2w`) in seconds; None when it is no duration."""
    value = value.strip()
    if not value or not is_duration(value):
        return None
    return int(value[:-1]) * {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}[value[-1]]


def _string(value: str) -> str | None:
    # A basic or literal string without escapes: printable characters between the quotes.
    if len(value) < 2 or value[0] not in "\"'" or value[-1] != value[0]:
        return None
    inner = value[1:-1]
    if any(c in "\"'\\\t" for c in inner):
        return None
    return inner


def _integer(value: str) -> int | None:
    # A decimal integer without sign (so never negative), underscores or leading zeros.
    if not value.isascii() or not value.isdigit() or (value[0] == "0" and value != "0"):
        return None
    return int(value)


# --- rule files (`.a2a/gate.toml`, `.a2a/config.toml`): in force once the user accepted them
@dataclass(frozen=True)
class RuleFile:
    """A rule file: what is in force (`text`) and what the file says now (`disk`)."""

    name: str                   # gate.toml | config.toml
    path: Path
    text: str                   # in force
    disk: str | None            # the file as it is now; None when there is none
    accepted_seq: int | None    # the acceptance in force (None: none yet, or no store)
    unreadable: str | None = None   # why the file cannot be read (a folder, say): not accepted

    @property
    def label(self) -> str:
        return f"{A2A_DIR}/{self.name}"

    @property
    def digest(self) -> str:
        return text_digest(self.text)

    @property
    def disk_digest(self) -> str:
        return text_digest(self.disk or "")

    @property
    def pending(self) -> bool:
        """Whether the file says something that is not in force."""
        return self.unreadable is not None or (self.disk or "") != self.text


def text_digest(text: str) -> str:
    import hashlib

    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def record_acceptance(tx, rule: RuleFile, before: str, *, actor: str, how: str,
                      user_input: str | None = None, weakens: list[str] | None = None) -> int:
    """Record that the file as it is now (`rule.disk`) is in force, accepted by `actor`;
    `weakens`: what the change relaxes (gate.toml's thresholds), said in the record."""
    import difflib

    text = rule.disk or ""
    diff = "".join(difflib.unified_diff(before.splitlines(keepends=True),
                                        text.splitlines(keepends=True),
                                        fromfile="in force", tofile=rule.label))
    from a2a_tui.payloads.rules import RulesAccepted

    return tx.append("rules_accepted", actor=actor,
                     payload=RulesAccepted(file=rule.label, digest=text_digest(text),
                                           previous=text_digest(before), text=text, diff=diff,
                                           how=how, user_input=user_input, weakens=weakens))
