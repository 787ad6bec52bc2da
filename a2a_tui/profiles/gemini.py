"""Gemini CLI: hooks in a per-session settings file.

Measured against Gemini CLI 0.61.0 (tests/real_cli/FINDINGS.md):
- There is no `--settings` flag. The session's hooks go in a generated file named by
  `GEMINI_CLI_SYSTEM_DEFAULTS_PATH`, the lowest settings level: hook lists are concatenated across
  levels, so a2a's hooks are added while the user's own `~/.gemini` (login, model, trusted
  folders, hooks) and an administrator's system settings stay in force
  (`GEMINI_CLI_SYSTEM_SETTINGS_PATH` would replace the latter).
- Gemini skips that file, with only a warning on screen, when any folder above it is writable by
  group or others (e.g. a repository under /tmp): the launch is refused instead, with the reason.
- Hooks fire only once the folder is trusted ("Do you trust the files in this folder?", asked
  once per folder and kept in the user's `~/.gemini/trustedFolders.json`); a2a never answers it.
- SessionStart fires at start-up, BeforeAgent carries the prompt, AfterAgent ends the turn, and
  Esc ("Request cancelled") also fires AfterAgent; the input box stays empty. Hook timeouts are in
  milliseconds. `--session-id` fixes the session id in advance.
- Resumed (`--resume`), it drops a paste that comes right after its SessionStart (the box stays
  empty, no BeforeAgent): a queue kept for a revived session was lost 3 of 3 times that way;
  pasted 0.5 s or more after the pane turned idle, 4 of 4 arrived. The first paste of a launch
  waits until the pane has been idle 1 s (`start_settle_s`).
- An Enter that comes within 40 ms of a paste, by Gemini's own clock, is taken as part of the
  paste (a new line, not a submit: `recentUnsafePasteTime` in its InputPrompt, for any terminal
  without the kitty keyboard protocol, tmux among them), and on a loaded machine its clock runs
  late: with the paste right after the previous turn's AfterAgent, 60 of 60 Enters were not
  taken at 0 s, 56 of 60 at 0.1 s, 6 of 60 at 0.3 s, 1 at 0.5 s, 0 at 0.75 s, 2 at 1 s
  (bench/bench_delivery.py sweep, load average ~10); a launch's first paste, 6, 3, 1 and 0 of
  10 at 0.5 s, 0 of 40 at 1 s. No pause is safe on a loaded machine: the pause is 1 s, and a2a
  writes Enter again when no BeforeAgent came 4 s after one (Enter on an empty box does
  nothing, idle or during a turn: measured), twice at most.
- With `CI=true` or `GITHUB_ACTIONS=true` in its environment Gemini CLI runs headless even in a
  terminal: it fires SessionStart, reads an empty prompt and exits. A pane is interactive by
  definition, so the launch unsets both (the pane's commands do not see them either).
- No flag appends to the system prompt (GEMINI_SYSTEM_MD replaces all of it), so the role card is
  not passed to Gemini.
- Its shell tool runs git with the user's global and system config switched off
  (`GIT_CONFIG_GLOBAL=/dev/null`, ...) and `core.hooksPath=` appended after the pairs it found:
  a2a's commit hooks (the `A2A-*` trailers) would never run, and without a repository-local
  `user.name` no commit could be made. `GIT_CONFIG_PARAMETERS` (what `git -c` sets) passes its
  filter and wins over both, so the launch gives a2a's hooks folder and the user's git identity
  there.
"""

from __future__ import annotations

import json
import stat
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.git import Git
from a2a_tui.profiles import (
    Launch,
    LaunchContext,
    Profile,
    cannot,
    claude_hooks_settings,
    home_of,
    permissions,
)
from a2a_tui.profiles.environment import EnvFamily

EVENTS = ("SessionStart", "BeforeAgent", "AfterAgent", "BeforeTool", "AfterTool", "Notification",
          "SessionEnd")
SETTINGS_FILE = "gemini-settings.json"
HEADLESS_TRIGGERS = ("CI", "GITHUB_ACTIONS")   # either set to "true" makes Gemini CLI headless
# Gemini CLI's settings (docs: reference/environment-variables: GEMINI_API_KEY, GEMINI_MODEL,
# GOOGLE_API_KEY, GOOGLE_CLOUD_PROJECT, GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_GEMINI_BASE_URL, ...),
# minus what it sets for its own shell tool and hooks (measured, and [GM-HOOKS]).
ENV = EnvFamily(prefixes=("GEMINI_", "GOOGLE_"), names=("CLOUD_ML_REGION",),
                deny=("GEMINI_CLI", "GEMINI_CLI_NO_RELAUNCH", "GEMINI_SESSION_ID",
                      "GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH"))


def insecure_ancestor(path: Path) -> Path | None:
    """The first existing folder above `path` that group or others may write to (Gemini then
    ignores a settings file below it), or None."""
    for folder in path.parents:
        try:
            mode = folder.stat().st_mode
        except FileNotFoundError:
            continue
        if mode & (stat.S_IWGRP | stat.S_IWOTH):
            return folder
    return None


def git_parameters(ctx: LaunchContext) -> str:
    """`git -c` settings for the session's git commands: a2a's hooks, the user's identity."""
    pairs = [("core.hooksPath", str(ctx.githooks_dir))]
    git = Git(ctx.cwd)
    for key in ("user.name", "user.email"):
        value = git.config_value(key)
        if value:
            pairs.append((key, value))
    return " ".join(f"{_quoted(k)}={_quoted(v)}" for k, v in pairs)


def _quoted(s: str) -> str:
    # git's sq_quote: inside single quotes, a quote is written '\''.
    return "'" + s.replace("'", "'\\''") + "'"


@dataclass(frozen=True)
class Gemini(Profile):
    def state_paths(self, environ: Mapping[str, str]) -> tuple[Path, ...]:
        return (home_of(environ) / ".gemini",)

    def prepare(self, ctx: LaunchContext) -> Launch:
        settings_path = ctx.run_dir / SETTINGS_FILE
        bad = insecure_ancestor(settings_path)
        if bad is not None:
            raise A2AError("gemini_settings_insecure",
                           f"Gemini CLI would ignore a2a's hook settings below {bad} (writable by"
                           " group or others): move the repository, or `chmod go-w` that folder")
        if ctx.fork:
            raise cannot("fork", "Gemini CLI", "it has no fork option (0.61.0)")
        thread = ctx.continues or str(uuid.uuid4())
        conversation = ["--resume" if ctx.continues else "--session-id", thread]
        settings = claude_hooks_settings(ctx, EVENTS, source="gemini", timeout=10_000)
        perms = permissions.gemini(ctx.role, ctx.run_dir, ctx.open_shell,
                                    writes_in=ctx.results_dir)
        args, given = perms.applied(ctx.extra, permissions.GEMINI_OVERRIDES)
        argv = [self.binary, *args, *conversation]
        if ctx.model:
            argv += ["--model", ctx.model]
        env = {"GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(settings_path),
               "GIT_CONFIG_PARAMETERS": git_parameters(ctx)}
        files = {SETTINGS_FILE: json.dumps(settings, indent=2), **(perms.files if args else {})}
        return Launch(argv + list(ctx.extra), env=env, unset=HEADLESS_TRIGGERS, files=files,
                      thread_id=thread, permissions=given)


PROFILE = Gemini(
    "gemini", "gemini", enter_delay_s=1.0, start_settle_s=1.0, prompt_wait_s=4.0,
    enter_retries=2, env_family=ENV,
    silent_start_hint="no SessionStart yet: answer Gemini CLI's dialogs in the pane (trust this"
    " folder; choose how to sign in)")
