"""Gemini CLI: hooks in a per-session settings file.

Gemini has no `--settings` flag (PROTOCOLS.md C). The session's settings go in a generated file
named by `GEMINI_CLI_SYSTEM_SETTINGS_PATH` (the highest-precedence level), which leaves the user's
own `~/.gemini` (and its login) untouched; `GEMINI_CLI_HOME` would isolate more but also hide the
user's credentials. Hook timeouts are in milliseconds. No interrupt or idle event is documented.

UNVERIFIED: all of it against a real Gemini CLI (not installed on these machines).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from a2a_tui.profiles import Launch, LaunchContext, Profile, claude_hooks_settings

EVENTS = ("SessionStart", "BeforeAgent", "AfterAgent", "BeforeTool", "AfterTool", "Notification",
          "SessionEnd")
SETTINGS_FILE = "gemini-settings.json"


@dataclass(frozen=True)
class Gemini(Profile):
    def prepare(self, ctx: LaunchContext) -> Launch:
        settings = claude_hooks_settings(ctx, EVENTS, source="gemini", timeout=10_000)
        settings["hooksConfig"] = {"enabled": True}
        argv = [self.binary]
        if ctx.model:
            argv += ["--model", ctx.model]
        env = {"GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(ctx.run_dir / SETTINGS_FILE)}
        return Launch(argv + list(ctx.extra), env=env,
                      files={SETTINGS_FILE: json.dumps(settings, indent=2)})


PROFILE = Gemini("gemini", "gemini")
