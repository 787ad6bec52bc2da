"""The demo agent (`a2a demo-agent`): our stand-in for the real CLIs in tests and the demo.

It speaks Claude Code's hook protocol by default (same settings file, same stdin JSON), or
Codex's notify with `--protocol codex` among the options after `--`.
"""

from __future__ import annotations

import json
import sys
import uuid
from dataclasses import dataclass

from a2a_tui import __version__
from a2a_tui.profiles import Launch, LaunchContext, Profile, cannot, claude_hooks_settings
from a2a_tui.profiles import claude as claude_profile
from a2a_tui.profiles import codex as codex_profile
from a2a_tui.profiles.claude import EVENTS, SETTINGS_FILE
from a2a_tui.profiles.codex import notify_value
from a2a_tui.profiles.environment import EnvFamily

# The stand-in enforces nothing: it runs the `!` lines it is given, in its working folder.
GIVEN = {"args": [], "description": "the demo agent runs every command it is given"}


@dataclass(frozen=True)
class Demo(Profile):
    def family(self, extra: tuple[str, ...]) -> EnvFamily:
        # The variables of the CLI it stands in for.
        if _option(list(extra), "--protocol") == "codex":
            return codex_profile.ENV
        return claude_profile.ENV

    def prepare(self, ctx: LaunchContext) -> Launch:
        if ctx.continues:
            raise cannot("fork" if ctx.fork else "resume", "the demo agent",
                          "it keeps no conversation")
        # Its own entry, not `a2a demo-agent`: in the pane A2A_BROKER is set, and `a2a` there is
        # the broker's client (which runs no agent).
        argv = [sys.executable, "-m", "a2a_tui.demo_agent"]
        extra = list(ctx.extra)
        if _option(extra, "--protocol") == "codex":
            # Like Codex: a login shell for tools unless told otherwise (codex.py).
            return Launch(argv + ["--notify", notify_value(ctx), *codex_profile.SHELL_ARGS]
                          + extra, prompt_signal=False, permissions=GIVEN)
        thread = str(uuid.uuid4())
        settings = claude_hooks_settings(ctx, EVENTS)
        argv += ["--settings", str(ctx.run_dir / SETTINGS_FILE), "--session-id", thread]
        return Launch(argv + extra, files={SETTINGS_FILE: json.dumps(settings, indent=2)},
                      thread_id=thread, permissions=GIVEN)

    def version(self) -> str:
        return f"a2a-demo {__version__}"


def _option(args: list[str], name: str) -> str | None:
    for i, a in enumerate(args):
        if a == name and i + 1 < len(args):
            return args[i + 1]
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
    return None


PROFILE = Demo("demo", sys.executable, enter_delay_s=0.05,
               silent_start_hint="the demo agent has not started: look at the pane",
               prompt_wait_s=2.0, enter_retries=2)
