"""Regions written from the models and tables the code keeps: a card's fields, gate.toml and its
defaults, the settings' defaults, the repository's config keys, who may run what, which commands
the broker runs for an agent, the variables that travel with a spawn, and the layers picture."""

from __future__ import annotations

import inspect
import json
import re
import tomllib
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin

import tomli_w
from pydantic import BaseModel

from a2a_tui import settings
from a2a_tui.broker import commands as broker
from a2a_tui.gate.cards import cardfile
from a2a_tui.gate.cards import schema as cards
from a2a_tui.gate.cards.gate_rules import GateRules
from a2a_tui.gate.model import CONTRACT_FIELDS, LATER_CONTRACT_FIELDS
from a2a_tui.gate.roles import QUALIFIERS, ROLE_TABLE, who_may
from a2a_tui.profiles import claude, codex, gemini
from a2a_tui.profiles.environment import COMMON_NAMES

from .markdown import code, table
from .paths import ROOT


def _type(annotation: Any) -> str:
    """A field's type as a reader writes it: `list[str]`, `"S" | "M" | "L"`, `int | None`."""
    if get_origin(annotation) is Literal:
        return " | ".join(f'"{a}"' for a in get_args(annotation))
    args = get_args(annotation)
    if get_origin(annotation) in (UnionType, Union):
        return " | ".join(_type(a) for a in args)
    if args:
        return f"{getattr(get_origin(annotation), '__name__', '')}[{', '.join(map(_type, args))}]"
    return "None" if annotation is type(None) else getattr(annotation, "__name__", str(annotation))


def _source_comments(model: type) -> dict[str, str]:
    """The `# ...` lines right above each field in the model's source: why the field is there."""
    out, pending = {}, []
    for line in inspect.getsource(model).splitlines():
        stripped = line.strip()
        if stripped.startswith("# "):
            pending.append(stripped[2:])
            continue
        m = re.match(r"\s+(\w+): ", line)
        if m and pending:
            out[m[1]] = " ".join(pending)
        pending = []
    return out


def _literal(value: Any) -> str:
    """A value as TOML writes it (`true`, `"feature"`, `["a", "b"]`); "—" for none or empty."""
    if value in (None, "", [], {}):
        return "—"
    if isinstance(value, list):
        shown = ", ".join(json.dumps(v) for v in value)
        return f"{len(value)} entries" if len(value) > 8 else code(f"[{shown}]")
    return code(json.dumps(value))


def _default(field: Any) -> str:
    return "required" if field.is_required() else _literal(
        field.get_default(call_default_factory=True))


def _field_rows(model: type[BaseModel], prefix: str = "") -> list[tuple[str, ...]]:
    said = {name: text for name, text, _d in cardfile._FIELDS}
    said.update(_source_comments(model))
    contract = set(CONTRACT_FIELDS) | set(LATER_CONTRACT_FIELDS)
    rows = []
    for name, field in model.model_fields.items():
        what = field.description or said.get(name) or ""
        in_contract = "yes" if not prefix and name in contract else ""
        rows.append((code(prefix + name), code(_type(field.annotation)), _default(field),
                     in_contract, what))
    return rows


def card_fields() -> str:
    """Every field of a task card, its check and its executor (a2a_tui/gate/cards/schema.py)."""
    head = ("field", "type", "default", "contract", "what")
    rows = (_field_rows(cards.Card) + _field_rows(cards.Check, "checks[].")
            + _field_rows(cards.Executor, "executor."))
    return table(head, rows)


def gate_toml() -> str:
    """`.a2a/gate.toml` with every default, as the gate reads it when the file says nothing."""
    return "```toml\n" + tomli_w.dumps(GateRules().model_dump(mode="json")).strip() + "\n```"


def _rule_rows(model: BaseModel, prefix: str = "") -> list[tuple[str, ...]]:
    """Each rule of a rules model: its type, its default (from a default instance), its bounds
    and what it means (the field's description; a table's, its class docstring)."""
    rows = []
    said = _source_comments(type(model))
    for name, field in type(model).model_fields.items():
        value = getattr(model, name)
        if isinstance(value, BaseModel):
            doc = " ".join((type(value).__doc__ or "").split())
            rows.append((code(f"[{prefix}{name}]"), "table", "", "", field.description or doc))
            rows += _rule_rows(value, f"{prefix}{name}.")
            continue
        bounds = ", ".join(f"{sign} {getattr(m, attr)}" for m in field.metadata
                           for attr, sign in (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<"))
                           if getattr(m, attr, None) is not None)
        rows.append((code(prefix + name), code(_type(field.annotation)), _literal(value), bounds,
                     field.description or said.get(name, "")))
    return rows


def gate_toml_fields() -> str:
    """Each gate rule: its type, default, bounds and meaning (the model's own words)."""
    return table(("rule", "type", "default", "bounds", "what"), _rule_rows(GateRules()))


def config_defaults() -> str:
    """Your config file's tables with every default a2a starts from (a2a_tui/settings.py)."""
    return "```toml\n" + tomli_w.dumps(settings.DEFAULTS).strip() + "\n```"


def repo_config() -> str:
    """The repository's own keys in `.a2a/config.toml` (a2a_tui/config.py), with their comments."""
    from a2a_tui.config import Config, model

    said = _source_comments_of(Config)
    fields = model().model_fields
    rows = [(code(name), _default(f), said.get(name) or f.description or "")
            for name, f in fields.items() if name not in settings.SECTIONS]
    return table(("key", "default", "what"), rows)


def _source_comments_of(cls: type) -> dict[str, str]:
    """Trailing `# ...` comments of a dataclass's fields."""
    out = {}
    for line in inspect.getsource(cls).splitlines():
        m = re.match(r"\s+(\w+): [^#]*#\s*(.*)", line)
        if m:
            out[m[1]] = m[2]
    return out


def roles() -> str:
    """Who may run each command (a2a_tui/gate/roles.py, the one table: enforced by the CLI and
    the commands, and what a session's broker runs for it)."""
    def through_broker(c: str) -> str:
        if c in QUALIFIERS:
            return "as its command"
        if c not in broker.AGENT:
            return "refused"
        return f"runs it ({broker.ONLY[c][1].split(' (')[0].removeprefix('only ')})" \
            if c in broker.ONLY else "runs it"
    return table(("command", "who may run it", "through a session's broker"),
                 [(code(c), who_may(c), through_broker(c)) for c in ROLE_TABLE])


def broker_commands() -> str:
    """What an agent's session may run through its broker, and what is refused, with why."""
    run = sorted(broker.AGENT)
    refused: dict[str, list[str]] = {}
    for words, why in broker.REFUSED.items():
        refused.setdefault(why, []).append(words)
    rows = [("runs it for the session", ", ".join(code(w) for w in run))]
    rows += [(f"refuses it: {why}", ", ".join(code(w) for w in sorted(ws)))
             for why, ws in refused.items()]
    rows.append(("refuses it", "any command not named here (`broker_refused`)"))
    return table(("the broker", "commands"), rows)


def cli_env() -> str:
    """The variables a spawn hands to the pane, per CLI (a2a_tui/profiles/*: ENV)."""
    def family(f) -> str:
        parts = [code(p + "*") for p in f.prefixes] + [code(n) for n in f.names]
        deny = f" (not {', '.join(code(d) for d in f.deny)})" if f.deny else ""
        return ", ".join(parts) + deny
    rows = [("every CLI", ", ".join(code(n) for n in COMMON_NAMES)),
            ("Claude Code", family(claude.ENV)),
            ("Codex", family(codex.ENV) + ", and the variable each custom provider's"
             " `env_key` names (in the options after `--` or in `$CODEX_HOME/config.toml`)"),
            ("Gemini CLI", family(gemini.ENV))]
    return table(("CLI", "variables"), rows)


def layers() -> str:
    """The import layers of pyproject.toml as a Mermaid picture: a module imports only from the
    layers below its own; peers on one row never import each other."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in project["tool"]["importlinter"]["contracts"]
                    if c["type"] == "layers")
    lines = ["```mermaid", "flowchart TB"]
    for i, layer in enumerate(contract["layers"]):
        peers = [p.strip() for p in layer.split("|")]
        label = " · ".join(peers)
        lines.append(f'  L{i}["{label}"]')
        if i:
            lines.append(f"  L{i - 1} --> L{i}")
    lines.append("```")
    return "\n".join(lines)


def real_cli_pins() -> str:
    """The CLI versions the conformance suite installs and drives (tests/real_cli/install.py)."""
    from tests.real_cli.install import BINARIES, PINS  # the suite's own table, where it lives

    names = {"claude": "Claude Code", "codex": "Codex", "gemini": "Gemini CLI"}
    return table(("CLI", "npm package", "version"),
                 [(names[cli], code(pkg), PINS[pkg]) for cli, pkg in BINARIES.items()])
