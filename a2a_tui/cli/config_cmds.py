"""config show: the merged settings and where each value came from."""

# Imports inside functions: each command imports what it runs when it runs (a2a's start-up:
# tests/test_startup.py, bench/bench_cli.py).

from __future__ import annotations

import json

from a2a_tui.cli.output import Result
from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import TomlTable


def cmd_config_show(ctx, args) -> Result:
    # lazy: each command imports only what it runs (a2a's start-up cost is paid per call)
    from a2a_tui import settings

    repo = _repo_or_none(ctx)
    own: dict[str, object] = {}
    own_sources: dict[str, str] = {}
    rule = None
    if repo is not None and repo.initialized:
        cfg = repo.config()
        rule = repo.rule_file("config.toml")   # what is in force: what the user accepted
        explicit = settings.parse_toml(rule.text, rule.path) | _top_level_toml(rule.text)
        for key in ("target_branch", "tmux_session", "feedback_limit"):
            own[key] = getattr(cfg, key)
            own_sources[key] = str(repo.config_path) if key in explicit else settings.DEFAULT
    s = settings.load(rule.path if rule else None, repo_text=rule.text if rule else None)
    values = {**own, **s.values}
    flat = {**own, **settings.flatten_json(s.values)}
    sources = {**own_sources, **s.sources}
    shown = {k: json.dumps(v, ensure_ascii=False) for k, v in flat.items()}
    kw, vw = max(map(len, shown)), max(map(len, shown.values()))
    lines = [f"{k:<{kw}} = {v:<{vw}}  # {sources.get(k, settings.DEFAULT)}"
             for k, v in shown.items()]
    lines.append(f"# your file: {s.files['user']}"
                 + ("" if _exists(s.files["user"]) else " (not present)"))
    if "repo" in s.files:
        lines.append(f"# the repository's: {s.files['repo']}")
    pending = rule is not None and rule.pending
    if pending:
        lines.append(f"# {rule.label} changed since you accepted it: not in force until"
                     " `a2a gate-rules accept`")
    return Result({"values": values, "sources": {k: sources.get(k, settings.DEFAULT)
                                                 for k in flat}, "files": s.files,
                   "pending": [rule.label] if pending else []},
                  "\n".join(lines))


def _repo_or_none(ctx):
    try:
        return ctx.repo
    except A2AError as err:
        if err.code == "not_a_repo":
            return None
        raise


def _top_level_toml(text: str) -> TomlTable:
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


def _exists(path: str) -> bool:
    from pathlib import Path

    return Path(path).is_file()
