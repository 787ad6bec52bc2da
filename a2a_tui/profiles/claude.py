"""Claude Code: `--settings <generated file>` whose hooks call our hook script.

Measured against Claude Code 2.1.332 (tests/real_cli/FINDINGS.md):
- Hooks from `--settings` fire; `--session-id <uuid>` fixes the id the hooks report.
- They are held back until the workspace-trust dialog is accepted (SessionStart fires right
  after the user accepts it). a2a never accepts it for the user (that is `~/.claude.json`), so a
  pane that shows no SessionStart stays `unknown` until the user answers the dialog in the pane.
  Trust is kept per git root, and an attempt's clone is a root of its own: so that the user
  does not answer once per attempt, a2a extends the user's own trust of the repository (read
  from their config, never written) to a confined session in its clone with
  `CLAUDE_CODE_SANDBOXED=1`, Claude Code's own "this folder is a sandbox's" switch, for that
  launch only (`clone_trust_env`).
- Esc gives no hook at all and puts the interrupted prompt back in the input box. Ctrl-U only
  empties one screen row (80+ in one burst are not taken as keys at all); Esc Esc empties a
  non-empty box but opens the Rewind menu on an empty one; Ctrl-C empties the box but arms
  "Press Ctrl-C again to exit" (a second Ctrl-C 0.5 s later exits Claude Code, typing does not
  disarm it). So the box is cleared with `x Escape Escape`: the `x` makes it non-empty, the
  double Esc then always empties it (every put-back shape and the empty box, in the probes).
- A multi-line bracketed paste is one prompt (one UserPromptSubmit, newlines kept).
- Delivery timing (bench/bench_delivery.py, bench/REPORT.md): a paste after a turn took its
  Enter at every pause tried, 0 to 0.5 s, loaded or not (0 of 600 lost); the pause is 0 s plus
  a 0.2 s margin. The Enter is lost after the FIRST paste of a launch that comes right after
  SessionStart on a loaded machine (4 of 8, 5 of 10: the text stays in the box; the CI failures
  of issue 29): Claude Code is still starting. 1 s after SessionStart, 0 of 8 at load 20 but 3
  of 10 at load 16; 3 s after, 0 of 8 at load 20: a launch's first paste waits until the pane
  has been idle 3 s. No wait is safe whatever the load: Enter to UserPromptSubmit took up to
  1.5 s after a turn and 4.5 s for a first paste, loaded; a2a waits 5 s for it, then writes
  Enter again (Enter on an empty box does nothing, idle or during a turn: measured), twice at
  most.
- The role card is appended to the system prompt (`--append-system-prompt`); `--effort` exists.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from a2a_tui.profiles import (
    Launch,
    LaunchContext,
    Profile,
    claude_hooks_settings,
    home_of,
    permissions,
    role_card_text,
)
from a2a_tui.profiles.environment import EnvFamily

# The events that move pane state (UserPromptSubmit/Stop/...) or explain it (Notification).
EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
          "PermissionRequest", "Notification", "Stop", "StopFailure", "SessionEnd")
SETTINGS_FILE = "claude-settings.json"
# Claude Code's settings (docs: env-vars; Bedrock and Vertex through AWS_*, CLOUD_ML_REGION,
# VERTEX_REGION_*), minus what Claude Code sets for its own Bash tool (measured).
ENV = EnvFamily(
    prefixes=("ANTHROPIC_", "CLAUDE_CODE_", "AWS_", "VERTEX_REGION_"),
    names=("CLAUDE_CONFIG_DIR", "CLOUD_ML_REGION", "GOOGLE_APPLICATION_CREDENTIALS",
           "DISABLE_TELEMETRY", "DISABLE_ERROR_REPORTING", "DISABLE_AUTOUPDATER",
           "DISABLE_BUG_COMMAND", "DISABLE_COST_WARNINGS", "DISABLE_NON_ESSENTIAL_MODEL_CALLS",
           "MAX_THINKING_TOKENS", "MAX_MCP_OUTPUT_TOKENS", "MCP_TIMEOUT", "MCP_TOOL_TIMEOUT",
           "BASH_DEFAULT_TIMEOUT_MS", "BASH_MAX_TIMEOUT_MS", "USE_BUILTIN_RIPGREP"),
    deny=("CLAUDE_CODE_CHILD_NOTES_DIR", "CLAUDE_CODE_CHILD_SESSION", "CLAUDE_CODE_ENTRYPOINT",
          "CLAUDE_CODE_EXECPATH", "CLAUDE_CODE_MESSAGING_SOCKET", "CLAUDE_CODE_MESSAGING_TOKEN",
          "CLAUDE_CODE_SESSION_ATTENDED", "CLAUDE_CODE_SESSION_ID", "CLAUDE_CODE_SSE_PORT"))


@dataclass(frozen=True)
class Claude(Profile):
    def state_paths(self, environ: Mapping[str, str]) -> tuple[Path, ...]:
        # CLAUDE_CONFIG_DIR moves the whole of it, .claude.json included.
        if environ.get("CLAUDE_CONFIG_DIR"):
            return (Path(environ["CLAUDE_CONFIG_DIR"]),)
        home = home_of(environ)
        return home / ".claude", home / ".claude.json"

    def prepare(self, ctx: LaunchContext) -> Launch:
        thread = str(uuid.uuid4())
        if ctx.continues and not ctx.fork:
            # Revive: the same id (--session-id together with --resume is refused).
            thread, conversation = ctx.continues, ["--resume", ctx.continues]
        elif ctx.continues:
            conversation = ["--session-id", thread, "--resume", ctx.continues, "--fork-session"]
        else:
            conversation = ["--session-id", thread]
        settings = claude_hooks_settings(ctx, EVENTS)
        perms = permissions.claude(ctx.role, ctx.results_dir, ctx.open_shell)
        args, given = perms.applied(ctx.extra, permissions.CLAUDE_OVERRIDES)
        # The permission options first: --allowedTools takes every word up to the next option.
        argv = [self.binary, *args, "--settings", str(ctx.run_dir / SETTINGS_FILE),
                *conversation]
        if ctx.model:
            argv += ["--model", ctx.model]
        if ctx.effort:
            argv += ["--effort", ctx.effort]
        if ctx.role_card is not None:
            argv += ["--append-system-prompt", role_card_text(ctx, given["description"])]
        argv += list(ctx.extra)
        return Launch(argv, env=clone_trust_env(ctx, os.environ),
                      files={SETTINGS_FILE: json.dumps(settings, indent=2)},
                      thread_id=thread,
                      permissions=given)


SANDBOXED = "CLAUDE_CODE_SANDBOXED"


def clone_trust_env(ctx: LaunchContext, environ: Mapping[str, str]) -> dict[str, str]:
    """Claude Code asks "trust this folder?" per git root, and an attempt's clone is one
    (gate/attempts/clones.py). A confined session in its clone is told the folder is a sandbox's (so
    trusted) when the user's own Claude Code config trusts the main repository; else the
    clone asks as the repository would. Never for an unconfined session."""
    repo = ctx.repository
    if not ctx.confined or repo is None:
        return {}
    return {SANDBOXED: "1"} if user_trusts(repo, environ) else {}


def user_trusts(folder: Path, environ: Mapping[str, str]) -> bool:
    """Whether the user accepted Claude Code's trust dialog for `folder` (their config, read:
    `$CLAUDE_CONFIG_DIR/.claude.json` or `~/.claude.json`, and the older `.config.json`)."""
    home = home_of(environ)
    base = Path(environ["CLAUDE_CONFIG_DIR"]) if environ.get("CLAUDE_CONFIG_DIR") else None
    names = {str(folder), os.path.realpath(folder)}
    for path in ((base or home) / ".claude.json", (base or home / ".claude") / ".config.json"):
        try:
            projects = json.loads(path.read_text(encoding="utf-8")).get("projects")
        except (OSError, UnicodeDecodeError, ValueError, AttributeError):
            continue
        if isinstance(projects, dict) and any(
                isinstance(projects.get(n), dict)
                and projects[n].get("hasTrustDialogAccepted") is True for n in names):
            return True
    return False


PROFILE = Claude(
    "claude", "claude", clear_input_keys=("x", "Escape", "Escape"), enter_delay_s=0.2,
    start_settle_s=3.0, prompt_wait_s=5.0, enter_retries=2, env_family=ENV,
    silent_start_hint="no SessionStart yet: Claude Code holds hooks back until you answer its"
    " dialogs in the pane (trust this folder: an attempt's clone is a folder of its own, trusted"
    " by a2a only where you trust the repository in Claude Code; use this API key)")
