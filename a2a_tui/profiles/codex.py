"""Codex CLI: `-c notify=[...]` plus a few of Codex's own hooks, all per invocation (`-c`).

Measured against codex-cli 0.171.0 (tests/real_cli/FINDINGS.md):
- notify gets ONE JSON argument per completed turn; it is spawned with some env stripped, so the
  pane id travels in argv. The first turn of a thread also produces a hidden title-generation
  turn's notify with another thread-id, which the state machine filters by the session's own
  thread-id. Esc gives no notify. Codex sends nothing at start-up (its SessionStart hook fires
  lazily, with the first prompt), so a fresh Codex pane stays `unknown` until its first turn ends
  or the user releases it.
- Codex's own hooks need trusting. Hooks given with `-c hooks.<Event>=...` are keyed
  `/<session-flags>/config.toml:<event>:0:0`; their trust can be given for this invocation only
  with `-c hooks.state={...}` holding the sha256 of each hook's normalized identity. a2a trusts
  exactly the hooks it generates, nothing else, and writes nothing to `$CODEX_HOME`.
- Hooks used: PermissionRequest (-> waiting), PreToolUse/PostToolUse (-> busy), Interrupt
  (Esc: a "probably idle" hint) and UserPromptSubmit (`prompt`, 70-110 ms after Enter: the
  signal that Codex took a delivered prompt, panes/confirm.py; the notify that ends the turn
  then confirms nothing new and records no second user input). Not used: SessionStart (it fires
  with the first prompt, after Enter, and would read as "idle") and Stop (notify ends the turn).
- Delivery timing (bench/bench_delivery.py): Enter was taken at every pause tried, 0 to
  0.3 s, loaded or not (0 of 480 lost); the pause is 0 s plus a 0.15 s margin. Enter to its
  UserPromptSubmit hook: p99 under 0.2 s: a2a waits 3 s, then writes Enter again (Enter on an
  empty composer does nothing, idle or during a turn: measured), twice at most.
- The role card goes in `developer_instructions` (a developer message in every request).
- Codex asks once per repository whether to trust the folder (`[projects."<root>"]` in the
  user's config.toml); a2a never answers that for the user.
- Codex runs its tools' commands through a login shell (`bash -lc`) by default, and a system
  profile that resets PATH (Debian's /etc/profile does) loses the pane's PATH: `a2a` is then
  "command not found" in the agent's shell. `-c allow_login_shell=false` makes Codex use
  `bash -c`, and the PATH a2a hands the pane reaches the commands.
- A custom provider reads its key from the variable its `env_key` names: that variable travels
  to the pane with the OpenAI/Codex family (environment.py), whether the provider comes from
  the options after `--` or from the user's `$CODEX_HOME/config.toml` (read, never written).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from a2a_tui.profiles import (
    Launch,
    LaunchContext,
    Profile,
    home_of,
    permissions,
    role_card_text,
)
from a2a_tui.profiles.environment import EnvFamily

# hook_event_name -> Codex's snake-case name, used in trust keys and hashes.
HOOK_EVENTS = {"PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request",
               "PostToolUse": "post_tool_use", "Interrupt": "interrupt",
               "UserPromptSubmit": "user_prompt_submit"}
# Seconds. Codex caps Interrupt and SessionEnd hooks at 3 s (the cap enters the trust hash); one
# value for every hook keeps the hashes simple. Our hook script returns in milliseconds.
HOOK_TIMEOUT_S = 3
SESSION_FLAGS_KEY = "/<session-flags>/config.toml"
# Tool commands run with `bash -c`, not a login shell that may reset PATH (see above).
SHELL_ARGS = ("-c", "allow_login_shell=false")
# Codex's settings (docs: OPENAI_API_KEY, OPENAI_BASE_URL, CODEX_HOME, CODEX_CA_CERTIFICATE...),
# minus what Codex sets for its own tool commands (measured).
ENV = EnvFamily(
    prefixes=("OPENAI_", "CODEX_", "AZURE_OPENAI_"),
    deny=("CODEX_APPLY_PATCH_PRESERVE_LINE_ENDINGS", "CODEX_CI", "CODEX_MANAGED_BY_NPM",
          "CODEX_MANAGED_PACKAGE_ROOT", "CODEX_SESSION_ID", "CODEX_THREAD_ID",
          "CODEX_TOOL_CALL_ID", "CODEX_VERSION", "CODEX_SANDBOX",
          "CODEX_SANDBOX_NETWORK_DISABLED"))
_ENV_KEY = re.compile(r"""env_key\s*=\s*["']?([A-Za-z_][A-Za-z0-9_]*)""")


def notify_value(ctx: LaunchContext) -> str:
    """The TOML array for `notify`: our hook with the session and pane baked in."""
    return json.dumps(ctx.hook_argv("codex", pane=True), ensure_ascii=False)


def hook_trust_hash(event: str, command: str, timeout_s: int = HOOK_TIMEOUT_S) -> str:
    """What Codex records as `trusted_hash` for one command hook without a matcher: sha256 of
    the compact, key-sorted JSON of its normalized identity (checked against codex 0.171.0)."""
    identity = {"event_name": event, "hooks": [{"async": False, "command": command,
                                                "timeout": timeout_s, "type": "command"}]}
    blob = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()


def hook_args(ctx: LaunchContext) -> list[str]:
    """`-c` options that configure our hooks and trust exactly them, for this invocation."""
    # No --pane: the trust hash must be known before the pane exists. The hook script takes the
    # pane id from $TMUX_PANE when Codex passes it on (the session id is what matters).
    command = ctx.hook_command("codex")
    args: list[str] = []
    state = []
    for event, snake in HOOK_EVENTS.items():
        handler = (f'{{type="command",command={_toml_str(command)},'
                   f'timeout={HOOK_TIMEOUT_S}}}')
        args += ["-c", f"hooks.{event}=[{{hooks=[{handler}]}}]"]
        key = f"{SESSION_FLAGS_KEY}:{snake}:0:0"
        state.append(f"{_toml_str(key)}={{trusted_hash="
                     f"{_toml_str(hook_trust_hash(snake, command))}}}")
    return args + ["-c", "hooks.state={" + ",".join(state) + "}"]


def clone_trust_args(ctx: LaunchContext, environ: Mapping[str, str]) -> list[str]:
    """Codex asks "Trust this folder?" per git repository, and an attempt's clone is a
    repository of its own (gate/attempts/clones.py): a2a extends the user's own trust of the main
    repository, as recorded in their `$CODEX_HOME/config.toml` (read, never written), to its
    clone, for this invocation only. An untrusted repository's clone asks as the repository
    would."""
    repo = ctx.repository
    if repo is None:
        return []
    home = Path(environ.get("CODEX_HOME") or Path(environ.get("HOME", "~")) / ".codex")
    try:
        doc = tomllib.loads((home.expanduser() / "config.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return []
    projects = doc.get("projects")
    entry = projects.get(str(repo)) if isinstance(projects, dict) else None
    if not (isinstance(entry, dict) and entry.get("trust_level") == "trusted"):
        return []
    # A dotted -c key is split at every dot (a path has some): the table is given whole.
    return ["-c", f"projects={{{_toml_str(str(ctx.cwd))}={{trust_level=\"trusted\"}}}}"]


def _toml_str(s: str) -> str:
    # A JSON string is a valid TOML basic string (same escapes, \uXXXX included).
    return json.dumps(s, ensure_ascii=False)


def provider_key_names(extra: tuple[str, ...], environ: Mapping[str, str]) -> tuple[str, ...]:
    """The variables custom providers read their keys from (`env_key`), named in the options
    after `--` or in the user's `$CODEX_HOME/config.toml`."""
    names = set(_ENV_KEY.findall(" ".join(extra)))
    home = Path(environ.get("CODEX_HOME") or Path(environ.get("HOME", "~")) / ".codex")
    try:
        doc = tomllib.loads((home.expanduser() / "config.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        doc = {}
    providers = doc.get("model_providers")
    for p in providers.values() if isinstance(providers, dict) else ():
        if isinstance(p, dict) and isinstance(p.get("env_key"), str):
            names.add(p["env_key"])
    return tuple(sorted(names))


@dataclass(frozen=True)
class Codex(Profile):
    def state_paths(self, environ: Mapping[str, str]) -> tuple[Path, ...]:
        return (Path(environ["CODEX_HOME"]) if environ.get("CODEX_HOME")
                else home_of(environ) / ".codex",)

    def env_names(self, extra: tuple[str, ...], environ: Mapping[str, str]) -> tuple[str, ...]:
        return provider_key_names(extra, environ)

    def prepare(self, ctx: LaunchContext) -> Launch:
        # Confined, a worker writes only an attempt's clone (a2a_tui/confine).
        writes_cwd = not ctx.confined or ctx.repository is not None
        perms = permissions.codex(ctx.role, ctx.cwd, writes_cwd=writes_cwd,
                                  own_folder=ctx.out_dir if ctx.confined else None)
        args, given = perms.applied(ctx.extra, permissions.CODEX_OVERRIDES)
        argv = [self.binary, "-c", f"notify={notify_value(ctx)}",
                "-c", "check_for_update_on_startup=false", *SHELL_ARGS, *args,
                *hook_args(ctx), *clone_trust_args(ctx, os.environ)]
        if ctx.model:
            argv += ["-c", f"model={json.dumps(ctx.model)}"]
        if ctx.effort:
            argv += ["-c", f"model_reasoning_effort={json.dumps(ctx.effort)}"]
        if ctx.role_card is not None:
            text = role_card_text(ctx, given["description"])
            argv += ["-c", f"developer_instructions={_toml_str(text)}"]
        thread = None
        if ctx.continues:
            # `codex resume ID` keeps the thread id (its notify says so); `codex fork ID` makes a
            # new one, known from the fork's first notify. The -c options before stay in force.
            argv += ["fork" if ctx.fork else "resume", ctx.continues]
            thread = None if ctx.fork else ctx.continues
        return Launch(argv + list(ctx.extra), thread_id=thread, permissions=given)


PROFILE = Codex(
    "codex", "codex", enter_delay_s=0.15, prompt_wait_s=3.0, enter_retries=2, env_family=ENV,
    silent_start_hint="Codex signals nothing until its first turn: answer 'Trust this folder?' in"
    " the pane if it asks, then release the pane (`a2a release`) or give it a first prompt")
