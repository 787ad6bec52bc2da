"""The shape of what a2a hands the outside as JSON: the CLI's `--json`, the broker's frames, the
files other programs read. A function that builds such an object returns `JsonObject` and is
named for it (`to_json`, `…_json`); between a2a's own parts data travels as records (frozen
dataclasses or pydantic models), never as a `dict[str, Any]`."""

from __future__ import annotations

from typing import TypeAlias

JsonValue: TypeAlias = "str | int | float | bool | None | list[JsonValue] | dict[str, JsonValue]"
JsonObject: TypeAlias = "dict[str, JsonValue]"
# The tables of a TOML file a2a reads or writes (the user's settings, the repository's config):
# a function that reads or builds one returns `TomlTable` and is named for it (`…_toml`).
TomlTable: TypeAlias = "dict[str, JsonValue]"
