"""The user's settings: what a new session of each role runs by default, when a silent pane is
pointed out, whether a2a calls the user, the workbench's layout.

Three layers, later ones winning value by value: the defaults here, the user's file
(`$XDG_CONFIG_HOME/a2a/config.toml`, by default `~/.config/a2a/config.toml`) and the
repository's `.a2a/config.toml` (its `[roles]`, `[notify]`, `[stall]` and `[layout]` tables; the
rest of that file is the repository's own config, `a2a_tui.config`). Every value remembers where
it came from, for `a2a config show`.

pydantic is imported only when a file is validated: the agent-facing commands never load this.

```toml
[clis.claude]             # every Claude Code session starts from these, whatever its role
model = "sonnet"
options = []

[roles.worker]            # `a2a session new worker` and the workbench's form start from these
cli = "codex"             # the role's CLI; its model, effort and options are for this CLI only
model = "gpt-5-codex"
effort = "high"
options = ["-c", "model_verbosity=low"]   # passed to the CLI as they are

[notify]
bell = true               # ring the workbench window when something starts waiting for you
status = true             # the count of what waits for you in a2a's tmux status line

[stall.codex]             # a busy pane silent this long: a hint, then a board item
hint_after_s = 900
board_after_s = 2700
remind_after_s = 0        # a turn busy this long: a reminder on the board, once (0: never)
stop_after_s = 0          # no signal from the CLI this long: the turn is stopped (0: never)
cap_s = 0                 # a turn busy this long is stopped, whatever it signals (0: never)

[layout]
events_rows = 0           # rows of the Events panel; 0: about a quarter of the screen

[backup]                  # the user's file only: a2a's own copies of a store, in .a2a/backups/
every_min = 60            # while an orchestrator runs, one this often (0: none on a schedule)
keep = 5                  # how many are kept (the oldest go); one is also taken before a migration

[confinement]             # the user's file only: a repository's config cannot widen it
allow_unconfined = false  # where the machine cannot confine, start sessions unconfined anyway
read = ["~/src/shared"]   # more paths every session may read (absolute, or from ~)
write = []                # more paths every session may write
[confinement.roles.worker]        # per role
read = []
[confinement.sessions.w1]         # per session id
write = ["~/scratch"]
[env]                     # (and `[env.roles.<role>]`, `[env.clis.<cli>]`) the user's file only
pass = ["GH_HOST"]        # more of the shell's variables sessions get (or a prefix ending in *)
```
`[confinement]` also holds the checks' room and every sandbox's limits:
a2a_tui/confine/settings.py.
"""

# Imports inside functions: tomllib, tomli_w, pydantic and the store load only for a command
# that needs them (a2a's start-up: tests/test_startup.py).

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from copy import deepcopy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from a2a_tui.confine.settings import (
    CONFINEMENT_DEFAULTS,
    ConfinementSettings,
    build_confinement,
    confinement_model,
)
from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject, TomlTable
from a2a_tui.profiles import CLIS
from a2a_tui.profiles.environment import EnvPass, pass_model
from a2a_tui.profiles.permissions import weakening
from a2a_tui.settings_models import ROLE_NAMES, section_models

SECTIONS = ("roles", "clis", "notify", "stall", "layout", "confinement", "env", "backup")
# Sections only the user's own file may set: a file an agent could write (the repository's
# `.a2a/config.toml`) never widens what a session may reach, nor turns the backups off.
USER_ONLY = ("confinement", "env", "backup")
DEFAULT = "default"

# A busy pane is silent while a tool runs: Claude Code and Gemini signal each tool call, Codex
# only the tools its hooks see, so it gets longer before a2a points at it.
_STALL = {"claude": (600.0, 1800.0), "codex": (900.0, 2700.0), "gemini": (600.0, 1800.0),
          "demo": (600.0, 1800.0)}
DEFAULTS: dict[str, Any] = {
    "roles": {role: {"cli": "", "model": "", "effort": "", "options": []} for role in ROLE_NAMES},
    "clis": {cli: {"model": "", "effort": "", "options": []} for cli in CLIS},
    "notify": {"bell": True, "status": True},
    "stall": {cli: {"hint_after_s": h, "board_after_s": b, "remind_after_s": 0.0,
                    "stop_after_s": 0.0, "cap_s": 0.0} for cli, (h, b) in _STALL.items()},
    "layout": {"events_rows": 0},
    "confinement": CONFINEMENT_DEFAULTS,
    "env": {"pass": [], "clis": {}, "roles": {}},
    "backup": {"every_min": 60.0, "keep": 5},
}


def user_config_path() -> Path:
    """`$XDG_CONFIG_HOME/a2a/config.toml`, or `~/.config/a2a/config.toml`."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "a2a" / "config.toml"


@dataclass(frozen=True)
class RoleDefaults:
    cli: str
    model: str
    effort: str
    options: tuple[str, ...]


@dataclass(frozen=True)
class CliDefaults:
    model: str
    effort: str
    options: tuple[str, ...]


@dataclass(frozen=True)
class StallTimes:
    hint_after_s: float
    board_after_s: float
    # A turn's layered limits (rule 5, panes/turns.py), in seconds; 0: never.
    remind_after_s: float = 0.0
    stop_after_s: float = 0.0
    cap_s: float = 0.0


@dataclass(frozen=True)
class BackupSettings:
    """`[backup]`: how often an orchestrator backs its store up, and how many copies stay."""

    every_min: float = 60.0
    keep: int = 5


@dataclass(frozen=True)
class Settings:
    """The merged settings, and for every value (dotted path) the file it came from."""

    roles: dict[str, RoleDefaults]
    clis: dict[str, CliDefaults]
    bell: bool
    status: bool
    stall: dict[str, StallTimes]
    events_rows: int
    values: dict[str, Any] = field(repr=False)
    sources: dict[str, str] = field(repr=False)
    files: dict[str, str] = field(repr=False)
    confinement: ConfinementSettings = ConfinementSettings()
    env: EnvPass = EnvPass()
    backup: BackupSettings = BackupSettings()

    def stall_for(self, cli: str) -> StallTimes:
        return self.stall.get(cli) or self.stall["claude"]

    def role(self, role: str) -> RoleDefaults:
        return self.roles[role]

    def launch(self, role: str, cli: str | None = None) -> RoleDefaults:
        """What a new session of `role` on `cli` starts from (`cli` None: the role's own).

        The CLI's defaults (`[clis.<cli>]`), then the role's model, effort and options where it
        sets them, but only when the role's CLI is this CLI (or the role names none): a model
        and options written for Codex are never passed to Claude Code."""
        r = self.roles[role]
        chosen = cli or r.cli
        c = self.clis.get(chosen) or CliDefaults("", "", ())
        if r.cli and r.cli != chosen:
            return RoleDefaults(chosen, c.model, c.effort, c.options)
        return RoleDefaults(chosen, r.model or c.model, r.effort or c.effort,
                            r.options or c.options)


def load(repo_config: Path | None = None, user_config: Path | None = None, *,
         repo_text: str | None = None) -> Settings:
    """The defaults, the user's file, then the repository's config file (when given), merged and
    validated. A bad file is one `bad_config` error naming the file and the field.
    `repo_text`: the repository config in force (what the user accepted, `Repo.rule_file`),
    read instead of the file at `repo_config`."""
    user = user_config or user_config_path()
    values: dict[str, Any] = deepcopy(DEFAULTS)
    sources: dict[str, str] = {}
    _leaves(values, "", lambda path: sources.__setitem__(path, DEFAULT))
    files = {"user": str(user)}
    for path, own in ((user, True), (repo_config, False)):
        if path is None:
            continue
        data = (read_toml(path, own=own) if own or repo_text is None
                else parse_toml(repo_text, path))
        if not own:
            files["repo"] = str(path)
            check_repository(data, path)
            data = {k: v for k, v in data.items() if k not in USER_ONLY}
        _validate_partial(data, path)
        _merge(values, data, str(path), sources, "")
    return _build(values, sources, files)


def of_repo(repo: Any) -> Settings:
    """The settings in force for `repo` (an `a2a_tui.repo.Repo`): the user's file, then the
    repository's config as the user accepted it."""
    rule = repo.rule_file("config.toml")
    return load(rule.path, repo_text=rule.text)


def parse_toml(text: str, path: Path) -> TomlTable:
    """The settings tables of the repository's config `text` (read from `path`)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise A2AError("bad_config", f"{path}: {exc}") from exc
    return {k: v for k, v in data.items() if k in SECTIONS}


def check_repository(data: dict[str, Any], path: Path) -> None:
    """What the repository's config may never say, accepted or not: options that weaken a
    role's permissions (skip them, a sandbox off, allow-all) and switches that silence a2a's
    calls. Those come only from the user's own file; an agent can write the repository's."""
    # (`[clis]` and `[confinement]` are refused in the repository's file whatever they say:
    # a2a_tui/config.py's model has no such tables.)
    roles = data.get("roles")
    for role, table in (roles.items() if isinstance(roles, dict) else ()):
        options = table.get("options") if isinstance(table, dict) else None
        found = weakening(options) if isinstance(options, list) else []
        if found:
            raise A2AError("bad_config", f"{path}: roles.{role}.options: {found[0]!r} sets"
                           " permissions: permission options come only from your own config"
                           f" ({user_config_path()}), never from the repository's")
    notify = data.get("notify")
    for key in ("bell", "status"):
        if isinstance(notify, dict) and notify.get(key) is False:
            raise A2AError("bad_config", f"{path}: notify.{key}: turning a2a's calls off is"
                           f" yours to choose: set it in your own config ({user_config_path()}),"
                           " never in the repository's")


def read_toml(path: Path, *, own: bool) -> TomlTable:
    """The settings tables of one file ({} when it does not exist). `own`: the user's file,
    which holds nothing else (an unknown table there is a mistake worth naming)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise A2AError("bad_config", f"{path}: {exc}") from exc
    except OSError as exc:
        raise A2AError("bad_config", f"{path}: {exc.strerror}") from exc
    if own:
        unknown = sorted(set(data) - set(SECTIONS))
        if unknown:
            raise A2AError("bad_config", f"{path}: {unknown[0]}: unknown setting (the file holds"
                           f" {', '.join(f'[{s}]' for s in SECTIONS)})")
    return {k: v for k, v in data.items() if k in SECTIONS}


# --- validation ------------------------------------------------------------------------------
def _models():
    """The pydantic models, built on first use (pydantic costs ~0.1 s to import)."""
    global _MODELS
    if _MODELS is not None:
        return _MODELS
    from pydantic import ConfigDict, create_model

    strict = ConfigDict(extra="forbid")
    Role, Cli, Stall, Notify, Layout, Backup = section_models(strict)
    Confinement, Env = confinement_model(strict, ROLE_NAMES), pass_model(strict, CLIS, ROLE_NAMES)
    roles = create_model("Roles", __config__=strict,
                         **{r: (Role, Role()) for r in ROLE_NAMES})  # type: ignore[call-overload]
    stall = create_model("Stalls", __config__=strict,
                         **{c: (Stall, Stall()) for c in CLIS})  # type: ignore[call-overload]
    clis = create_model("Clis", __config__=strict,
                        **{c: (Cli, Cli()) for c in CLIS})  # type: ignore[call-overload]
    whole = create_model("Settings", __config__=strict, roles=(roles, roles()),
                         clis=(clis, clis()), notify=(Notify, Notify()), stall=(stall, stall()),
                         layout=(Layout, Layout()), backup=(Backup, Backup()),
                         confinement=(Confinement, Confinement()),
                         env=(Env, Env()))  # type: ignore[call-overload]
    _MODELS = whole
    return whole


_MODELS = None


def _validate_partial(data: dict[str, Any], path: Path) -> None:
    """Check one file's tables alone (types, names), so an error names the file it is in."""
    from pydantic import ValidationError

    try:
        _models().model_validate(data, context={"partial": True})
    except ValidationError as exc:
        raise _bad(exc, lambda _field: str(path)) from None


def _build(values: dict[str, Any], sources: dict[str, str], files: dict[str, str]) -> Settings:
    from pydantic import ValidationError

    try:
        m = _models().model_validate(values)
    except ValidationError as exc:  # a rule across values that two files set together
        raise _bad(exc, lambda f: sources.get(f, DEFAULT)) from None
    roles = {r: RoleDefaults(v.cli, v.model, v.effort, tuple(v.options))
             for r, v in m.roles}
    stall = {c: StallTimes(v.hint_after_s, v.board_after_s, v.remind_after_s, v.stop_after_s,
                           v.cap_s) for c, v in m.stall}
    confinement = build_confinement(m.confinement)
    clis = {c: CliDefaults(v.model, v.effort, tuple(v.options)) for c, v in m.clis}
    env = EnvPass(tuple(m.env.pass_), {c: tuple(n.pass_) for c, n in m.env.clis.items()},
                  {r: tuple(n.pass_) for r, n in m.env.roles.items()})
    return Settings(roles=roles, clis=clis, bell=m.notify.bell, status=m.notify.status,
                    stall=stall, events_rows=m.layout.events_rows,
                    values=m.model_dump(by_alias=True), sources=sources, files=files,
                    confinement=confinement, env=env,
                    backup=BackupSettings(m.backup.every_min, m.backup.keep))


def _bad(exc, where: Callable[[str], str]) -> A2AError:
    """One line: the file, the field, what is wrong with it. For a rule across fields (the
    error is on their table), the file is the one that set any of them."""
    err = exc.errors()[0]
    field_ = ".".join(str(p) for p in err["loc"])
    sub = (f"{field_}.{k}" for k in ("board_after_s", "hint_after_s"))
    file_ = next((w for w in (where(field_), *map(where, sub)) if w != DEFAULT), DEFAULT)
    msg = err["msg"].removeprefix("Value error, ")
    return A2AError("bad_config", f"{file_}: {field_}: {msg}")


# --- merging -----------------------------------------------------------------------------------
def _merge(into: dict[str, Any], over: dict[str, Any], source: str, sources: dict[str, str],
           prefix: str) -> None:
    for key, value in over.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value, source, sources, path + ".")
        else:
            into[key] = deepcopy(value)
            _leaves({key: value}, prefix, lambda p: sources.__setitem__(p, source))


def _leaves(d: dict[str, Any], prefix: str, visit) -> None:
    for key, value in d.items():
        if isinstance(value, dict) and value:
            _leaves(value, f"{prefix}{key}.", visit)
        else:
            visit(f"{prefix}{key}")


def flatten_json(values: dict[str, Any], prefix: str = "") -> JsonObject:
    """Dotted path -> leaf value (for `a2a config show`, and its `--json`)."""
    out: JsonObject = {}
    for key, value in values.items():
        if isinstance(value, dict) and value:
            out.update(flatten_json(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out
