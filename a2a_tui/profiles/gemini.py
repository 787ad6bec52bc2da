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
- Right after AfterAgent, Gemini sometimes ignores an Enter for a moment: with 0.15 s between
  paste and Enter, 2 of ~120 queued turns stayed in the input box; with 0.5 s, 0 of 150.
- With `CI=true` or `GITHUB_ACTIONS=true` in its environment Gemini CLI runs headless even in a
  terminal: it fires SessionStart, reads an empty prompt and exits. A pane is interactive by
  definition, so the launch unsets both (the pane's commands do not see them either).
- No flag appends to the system prompt (GEMINI_SYSTEM_MD replaces all of it), so the role card is
  not passed to Gemini.
"""

from __future__ import annotations

import json
import stat
import uuid
from dataclasses import dataclass
from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.profiles import Launch, LaunchContext, Profile, claude_hooks_settings
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


@dataclass(frozen=True)
class Gemini(Profile):
    def prepare(self, ctx: LaunchContext) -> Launch:
        settings_path = ctx.run_dir / SETTINGS_FILE
        bad = insecure_ancestor(settings_path)
        if bad is not None:
            raise A2AError("gemini_settings_insecure",
                           f"Gemini CLI would ignore a2a's hook settings below {bad} (writable by"
                           " group or others): move the repository, or `chmod go-w` that folder")
        thread = str(uuid.uuid4())
        settings = claude_hooks_settings(ctx, EVENTS, source="gemini", timeout=10_000)
        argv = [self.binary, "--session-id", thread]
        if ctx.model:
            argv += ["--model", ctx.model]
        env = {"GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(settings_path)}
        return Launch(argv + list(ctx.extra), env=env, unset=HEADLESS_TRIGGERS,
                      files={SETTINGS_FILE: json.dumps(settings, indent=2)}, thread_id=thread)


PROFILE = Gemini(
    "gemini", "gemini", enter_delay_s=0.5, env_family=ENV,
    silent_start_hint="no SessionStart yet: answer Gemini CLI's dialogs in the pane (trust this"
    " folder; choose how to sign in)")
