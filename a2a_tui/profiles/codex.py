"""Codex CLI: `-c notify=[...]` (per invocation; `-c` has the highest precedence).

Facts (PROTOCOLS.md B, REAL_CLIS.md): notify gets ONE JSON argument per completed turn and only
that; it is spawned with some env stripped, so the pane id travels in argv; every turn also
produces a hidden title-generation notify with another thread-id, which the state machine
filters by the session's own thread-id; Esc gives no notify.

UNVERIFIED: `developer_instructions` for the role card; Codex's own hooks (UserPromptSubmit,
Stop, Interrupt) need trusting first and are not configured here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from a2a_tui.profiles import Launch, LaunchContext, Profile


def notify_value(ctx: LaunchContext) -> str:
    """The TOML array for `notify`: our hook with the session and pane baked in."""
    return json.dumps(ctx.hook_argv("codex", pane=True), ensure_ascii=False)


@dataclass(frozen=True)
class Codex(Profile):
    def prepare(self, ctx: LaunchContext) -> Launch:
        argv = [self.binary, "-c", f"notify={notify_value(ctx)}",
                "-c", "check_for_update_on_startup=false"]
        if ctx.model:
            argv += ["-c", f"model={json.dumps(ctx.model)}"]
        if ctx.effort:
            argv += ["-c", f"model_reasoning_effort={json.dumps(ctx.effort)}"]
        if ctx.role_card is not None:
            text = ctx.role_card.read_text(encoding="utf-8")
            argv += ["-c", f"developer_instructions={json.dumps(text, ensure_ascii=False)}"]
        return Launch(argv + list(ctx.extra))


PROFILE = Codex("codex", "codex")
