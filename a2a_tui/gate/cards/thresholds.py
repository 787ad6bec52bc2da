"""Thresholds (rule 6, seed 004 2.2 and 6.2): numbers read from a check's output and held to a
limit the rules give — a coverage that may not drop below the last integrated value, at most N
warnings. Each blocks, or is recorded and does not block ("warning 改成不阻断，只记录": a
non-blocking warning count keeps an agent from looping on warnings).

They live in gate.toml (`[[thresholds]]`), in force only as the user accepted it; `weakenings`
says what a new version relaxes, named when the user accepts it. Evaluated in the verify chain
(gate/verification/thresholds.py).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

NAME = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"


class Threshold(BaseModel):
    """One `[[thresholds]]` table of gate.toml."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=NAME, max_length=64, description="its name, unique")
    check: str = Field(min_length=1, description="the card check whose output it reads (a card"
                       " without that check is not measured)")
    value: str | None = Field(default=None, description="a regular expression whose first group"
                              " is the number, from its last match in the output")
    count: str | None = Field(default=None, description="a regular expression: the number is"
                              " how many output lines it matches (warnings)")
    at_least: float | None = Field(default=None, description="the number may not be below")
    at_most: float | None = Field(default=None, description="the number may not be above")
    no_drop: bool = Field(default=False, description="the number may not be below its value at"
                          " the last integration into the same target branch")
    blocking: bool = Field(default=True, description="false: recorded, never rejects")

    @field_validator("value", "count")
    @classmethod
    def _regex(cls, v: str | None, info) -> str | None:
        if v is None:
            return v
        try:
            groups = re.compile(v, re.MULTILINE).groups
        except re.error as exc:
            raise ValueError(f"is not a regular expression: {exc}") from None
        if info.field_name == "value" and groups < 1:
            raise ValueError("needs a group, the number: 'TOTAL.* (\\d+)%'")
        return v

    @model_validator(mode="after")
    def _complete(self) -> Threshold:
        if (self.value is None) == (self.count is None):
            raise ValueError(f"{self.name}: give one of value (a number read) or count (lines"
                             " counted)")
        if self.at_least is None and self.at_most is None and not self.no_drop:
            raise ValueError(f"{self.name}: give a limit: at_least, at_most or no_drop")
        return self

    def pattern(self) -> re.Pattern[str]:
        return re.compile(self.value or self.count or "", re.MULTILINE)


def unique(found: list[Threshold]) -> list[Threshold]:
    """The list, refused when two thresholds share a name (their results would too)."""
    names = [t.name for t in found]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"names {', '.join(twice)} more than once")
    return found


def weakenings(old: list[Threshold], new: list[Threshold]) -> list[str]:
    """What `new` relaxes of `old`, in words (empty: nothing): a threshold removed, reading
    something else, a limit lowered, raised or dropped, no_drop turned off, no longer
    blocking."""
    found: list[str] = []
    now = {t.name: t for t in new}
    for o in old:
        n = now.get(o.name)
        where = f"threshold {o.name!r}"
        if n is None:
            found.append(f"{where} removed")
            continue
        if (n.check, n.value, n.count) != (o.check, o.value, o.count):
            found.append(f"{where} reads another check or pattern")
        if o.at_least is not None and (n.at_least is None or n.at_least < o.at_least):
            found.append(f"{where} at_least lowered from {o.at_least} to {n.at_least}")
        if o.at_most is not None and (n.at_most is None or n.at_most > o.at_most):
            found.append(f"{where} at_most raised from {o.at_most} to {n.at_most}")
        if o.no_drop and not n.no_drop:
            found.append(f"{where} no_drop turned off")
        if o.blocking and not n.blocking:
            found.append(f"{where} no longer blocks")
    return found
