"""Regions written from the models and tables the code keeps: a card's fields, gate.toml and its
defaults, the settings' defaults, the repository's config keys, who may run what, which commands
the broker runs for an agent, the variables that travel with a spawn, and the layers picture."""

from __future__ import annotations

import inspect
import re
import tomllib
from typing import Any

import tomli_w
from pydantic import BaseModel

from a2a_tui import settings
from a2a_tui.broker import commands as broker
from a2a_tui.gate import cardfile, cards
from a2a_tui.gate.gate_rules import GateRules
from a2a_tui.gate.model import CONTRACT_FIELDS, LATER_CONTRACT_FIELDS
from a2a_tui.gate.roles import GATE_ROLES, who_may
from a2a_tui.profiles import claude, codex, gemini
from a2a_tui.profiles.environment import COMMON_NAMES

from .markdown import code, table
from .paths import ROOT


def _type(annotation: Any) -> str:
    text = str(annotation).replace("typing.", "").replace("a2a_tui.gate.cards.", "")
    text = re.sub(r"<class '([\w.]+)'>", lambda m: m[1].rsplit(".", 1)[-1], text)
    return text.replace("NoneType", "None")


def _source_comments(model: type[BaseModel]) -> dict[str, str]:
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


def _default(field: Any) -> str:
    if field.is_required():
        return "required"
    value = field.get_default(call_default_factory=True)
    return "—" if value in (None, "", [], {}) else code(repr(value).replace("'", '"'))


def _field_rows(model: type[BaseModel], prefix: str = "") -> list[tuple[str, ...]]:
    said = {name: text for name, text, _d in cardfile._FIELDS}
    said.update(_source_comments(model))
    contract = set(CONTRACT_FIELDS) | set(LATER_CONTRACT_FIELDS)
    rows = []
    for name, field in model.model_fields.items():
        what = said.get(name) or field.description or ""
        in_contract = "yes" if not prefix and name in contract else ""
        rows.append((code(prefix + name), code(_type(field.annotation)), _default(field),
                     in_contract, what))
    return rows


def card_fields() -> str:
    """Every field of a task card, its check and its executor (a2a_tui/gate/cards.py)."""
    head = ("field", "type", "default", "contract", "what")
    rows = (_field_rows(cards.Card) + _field_rows(cards.Check, "checks[].")
            + _field_rows(cards.Executor, "executor."))
    return table(head, rows)


def gate_toml() -> str:
    """`.a2a/gate.toml` with every default, as the gate reads it when the file says nothing."""
    return "```toml\n" + tomli_w.dumps(GateRules().model_dump(mode="json")).strip() + "\n```"


def _schema_rows(schema: dict, defs: dict, prefix: str) -> list[tuple[str, ...]]:
    rows = []
    for name, prop in schema.get("properties", {}).items():
        ref = prop.get("$ref", "").rsplit("/", 1)[-1]
        if ref:
            rows.append((code(f"[{prefix}{name}]"), "table", "", "",
                         " ".join(defs[ref].get("description", "").split())))
            rows += _schema_rows(defs[ref], defs, f"{prefix}{name}.")
            continue
        bounds = ", ".join(f"{sign} {prop[k]}" for k, sign in (("minimum", "≥"),
                                                               ("maximum", "≤")) if k in prop)
        default = prop.get("default")
        shown = (f"{len(default)} entries (`a2a gate-rules`)"
                 if isinstance(default, list) and len(default) > 8
                 else code(tomli_w.dumps({"x": default})[4:].strip()))
        rows.append((code(prefix + name), prop.get("type", ""), shown, bounds,
                     prop.get("description", "")))
    return rows


def gate_toml_fields() -> str:
    """Each gate rule: its type, default, bounds and meaning (the model's own words)."""
    schema = GateRules.model_json_schema()
    rows = _schema_rows(schema, schema.get("$defs", {}), "")
    return table(("rule", "type", "default", "bounds", "what"), rows)


def config_defaults() -> str:
    """Your config file's tables with every default a2a starts from (a2a_tui/settings.py)."""
    return "```toml\n" + tomli_w.dumps(settings.DEFAULTS).strip() + "\n```"


def repo_config() -> str:
    """The repository's own keys in `.a2a/config.toml` (a2a_tui/config.py), with their comments."""
    from a2a_tui.config import Config, model

    said = _source_comments_of(Config)
    fields = model().model_fields
    rows = [(code(name), _default(f), f.description or said.get(name, ""))
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
    """Who may run each gate command (a2a_tui/gate/roles.py, enforced by the commands)."""
    return table(("command", "who may run it"),
                 [(code(c), who_may(c)) for c in GATE_ROLES])


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
