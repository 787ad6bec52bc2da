"""Gemini CLI: hooks in a per-session settings file.

Measured against Gemini CLI 0.61.0 (tests/real_cli/FINDINGS.md):
- There is no `--settings` flag. The session's settings go in a generated file named by
  `GEMINI_CLI_SYSTEM_SETTINGS_PATH` (the highest-precedence level), which leaves the user's own
  `~/.gemini` (login, model, trusted folders) untouched. Gemini skips that file, with a warning,
  when any folder above it is writable by group or others (e.g. a repository under /tmp).
- Hooks fire only once the folder is trusted ("Do you trust the files in this folder?", asked
  once per folder and kept in the user's `~/.gemini/trustedFolders.json`); a2a never answers it.
- SessionStart fires at start-up, BeforeAgent carries the prompt, AfterAgent ends the turn, and
  Esc ("Request cancelled") also fires AfterAgent; the input box stays empty. Hook timeouts are in
  milliseconds. `--session-id` fixes the session id in advance.
- No flag appends to the system prompt (GEMINI_SYSTEM_MD replaces all of it), so the role card is
  not passed to Gemini.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass

from a2a_tui.profiles import Launch, LaunchContext, Profile, claude_hooks_settings

EVENTS = ("SessionStart", "BeforeAgent", "AfterAgent", "BeforeTool", "AfterTool", "Notification",
          "SessionEnd")
SETTINGS_FILE = "gemini-settings.json"


@dataclass(frozen=True)
class Gemini(Profile):
    def prepare(self, ctx: LaunchContext) -> Launch:
        thread = str(uuid.uuid4())
        settings = claude_hooks_settings(ctx, EVENTS, source="gemini", timeout=10_000)
        settings["hooksConfig"] = {"enabled": True}
        argv = [self.binary, "--session-id", thread]
        if ctx.model:
            argv += ["--model", ctx.model]
        env = {"GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(ctx.run_dir / SETTINGS_FILE)}
        return Launch(argv + list(ctx.extra), env=env,
                      files={SETTINGS_FILE: json.dumps(settings, indent=2)}, thread_id=thread)


PROFILE = Gemini("gemini", "gemini")
