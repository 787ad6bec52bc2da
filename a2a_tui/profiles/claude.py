"""Claude Code: `--settings <generated file>` whose hooks call our hook script.

Facts (PROTOCOLS.md A, REAL_CLIS.md): hooks from `--settings` fire; `--session-id <uuid>` fixes
the id the hooks report; Esc gives no hook at all and puts the interrupted prompt back in the
input box. Hooks are held back until the workspace-trust dialog is accepted: a2a never accepts
it for the user (that is `~/.claude.json`), so a pane that shows no SessionStart stays `unknown`.

UNVERIFIED, for the helper who checks this against the real CLI: that Ctrl-U empties a
multi-line input box (`clear_input_keys`), and that `--effort` exists (effort is only recorded
when it does not).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass

from a2a_tui.profiles import Launch, LaunchContext, Profile, claude_hooks_settings

# The events that move pane state (UserPromptSubmit/Stop/...) or explain it (Notification).
EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
          "PermissionRequest", "Notification", "Stop", "StopFailure", "SessionEnd")
SETTINGS_FILE = "claude-settings.json"


@dataclass(frozen=True)
class Claude(Profile):
    def prepare(self, ctx: LaunchContext) -> Launch:
        thread = str(uuid.uuid4())
        settings = claude_hooks_settings(ctx, EVENTS)
        argv = [self.binary, "--settings", str(ctx.run_dir / SETTINGS_FILE), "--session-id", thread]
        if ctx.model:
            argv += ["--model", ctx.model]
        if ctx.role_card is not None:
            argv += ["--append-system-prompt", ctx.role_card.read_text(encoding="utf-8")]
        argv += list(ctx.extra)
        return Launch(argv, files={SETTINGS_FILE: json.dumps(settings, indent=2)},
                      thread_id=thread)


PROFILE = Claude("claude", "claude")
