"""The payloads of the rule files in force (gate/cards/gate_rules.py, config.py,
collab/rulefiles.py): the gate rules a command first read, a rule file the user accepted, and
one not accepted yet."""

from __future__ import annotations

from typing import Any

from a2a_tui.payloads.base import Payload, payload


@payload("gate_rules_changed")
class GateRulesChanged(Payload):
    """The gate rules in force changed: the new digest, the one before, the rules read."""

    digest: str
    previous: str | None = None
    path: str | None = None
    rules: dict[str, Any] | None = None
    warnings: list[str] = ()   # type: ignore[assignment]


@payload("rules_accepted")
class RulesAccepted(Payload):
    """A rule file accepted as it is (`text`), its digest, the one before, the diff, how and
    by which input; `weakens`: what a gate.toml change relaxes (None: not a gate.toml)."""

    file: str
    digest: str
    previous: str | None = None
    text: str = ""
    diff: str = ""
    how: str | None = None
    user_input: str | None = None
    weakens: list[str] | None = None


@payload("rules_pending")
class RulesPending(Payload):
    """A rule file on disk (`file`, its `digest`) says something other than what is in force
    (`in_force`: the accepted digest, None before any), with the `diff`, and the board's
    protected item about it."""

    file: str
    digest: str
    in_force: str | None = None
    diff: str = ""
    item: str | None = None


TYPES: tuple[type[Payload], ...] = (GateRulesChanged, RulesAccepted, RulesPending)
