"""The demo agent's command line: Claude Code's flags where they exist, plus test knobs.

The flags a real CLI has keep its spelling and meaning (`--settings`, `--session-id`, `--model`,
`--append-system-prompt`, `--permission-mode`), so `a2a spawn --cli demo` can build the same argv
it builds for Claude Code. Codex mode takes `--notify '[...]'`, the JSON array Codex takes as
`-c notify=[...]` (PROTOCOLS.md B), and `-c allow_login_shell=false` as Codex does: its tool
commands run in a login shell (`bash -lc`, whose system profile may reset PATH) unless told not
to (tests/real_cli/FINDINGS.md).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tomllib
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from a2a_tui.errors import A2AError

PERMISSION_MODES = ("default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto")


@dataclass
class Options:
    """Everything the agent needs to know, validated."""

    protocol: str = "claude"
    session_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    settings: str | None = None
    model: str | None = None
    effort: str | None = None
    role_card: Path | None = None
    role_title: str | None = None
    append_system_prompt: str | None = None
    permission_mode: str = "default"
    delay: float = 0.3
    fail: bool = False
    ask_permission: bool = False
    permission_notify_after: float = 6.0
    idle_notify: float = 60.0
    notify: list[str] | None = None
    transcript_dir: Path | None = None
    tool_timeout: float = 120.0
    login_shell: bool = True     # codex mode: tool commands via `bash -lc` (Codex's default)
    auto_check_unavailable: bool = False
    drop_enters: int = 0         # Enters lost after each paste (a loaded Claude Code's)
    # Scripted replies (--replies): a prompt holding `when` runs `run` as its `!` lines, the way
    # the fake model scripts a real CLI's tool calls in tests/real_cli.
    replies: list[tuple[str, list[str]]] = field(default_factory=list)
    cwd: str = field(default_factory=os.getcwd)

    @property
    def shell(self) -> list[str]:
        """How a tool command is run: Codex's `bash -lc` / `bash -c`, Claude Code's `sh -c`."""
        if self.protocol == "codex":
            return ["bash", "-lc" if self.login_shell else "-c"]
        return ["sh", "-c"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the demo agent's flags to `p` (shared by `a2a demo-agent` and `python -m`)."""
    p.add_argument("--protocol", choices=("claude", "codex"), default="claude",
                   help="which CLI to stand in for (default: claude)")
    p.add_argument("--settings", metavar="FILE|JSON",
                   help="Claude Code settings (file or inline JSON); its command hooks run")
    p.add_argument("--session-id", metavar="UUID", help="session id (default: a new UUID)")
    p.add_argument("--model", help="model name, reported in SessionStart")
    p.add_argument("--effort", help="reasoning effort (shown only)")
    p.add_argument("--role-card", metavar="FILE", help="role card; its first heading is shown")
    p.add_argument("--append-system-prompt", metavar="TEXT", help="accepted like Claude Code")
    p.add_argument("--permission-mode", choices=PERMISSION_MODES, default="default",
                   help="reported as permission_mode in hook input")
    p.add_argument("--delay", type=_seconds, default=0.3, metavar="S",
                   help="seconds of 'thinking' per turn (default 0.3; prompt: #delay=S)")
    p.add_argument("--fail", action="store_true",
                   help="every turn ends in StopFailure (prompt: #fail)")
    p.add_argument("--ask-permission", action="store_true",
                   help="ask before every tool call (prompt: #ask)")
    p.add_argument("--permission-notify-after", type=_seconds, default=6.0, metavar="S",
                   help="Notification permission_prompt after S s without keys (default 6)")
    p.add_argument("--idle-notify", type=_seconds, default=60.0, metavar="S",
                   help="Notification idle_prompt S s after a turn with no keystroke (default 60)")
    p.add_argument("--notify", metavar="JSON",
                   help='codex mode: notify program as a JSON array, e.g. \'["prog","arg"]\'')
    p.add_argument("--transcript-dir", metavar="DIR",
                   help="where the JSONL transcript goes (default: a2a's state dir, not ~/.claude)")
    p.add_argument("--tool-timeout", type=_seconds, default=120.0, metavar="S",
                   help="a Bash tool call is killed after S s (default 120, like Claude Code)")
    p.add_argument("-c", "--config", action="append", default=[], metavar="KEY=VALUE",
                   help="codex mode: a Codex config override; `allow_login_shell=false` runs tool"
                   " commands with `bash -c` instead of `bash -lc` (others are accepted, unused)")
    p.add_argument("--replies", metavar="FILE",
                   help="scripted turns, TOML: [[reply]] when = \"TEXT\", run = [\"CMD\", ...]: a"
                   " prompt containing TEXT runs each CMD as if it were a `!` line (after the"
                   " prompt's own); the commands find the prompt in the file $DEMO_PROMPT")
    p.add_argument("--auto-check-unavailable", action="store_true",
                   help="claude mode: a tool call that asks shows Claude Code's 'Auto mode can't"
                   " check actions' choice (no PermissionRequest; Notification agent_needs_input"
                   " after --permission-notify-after), as with a custom ANTHROPIC_BASE_URL")
    p.add_argument("--drop-enters", type=_count, default=0, metavar="N",
                   help="lose the first N Enters after each paste, the text staying in the box,"
                   " as Claude Code under load does (default 0)")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (value >= 0) or value == float("inf"):
        raise argparse.ArgumentTypeError(f"seconds must be finite and >= 0: {text!r}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0: {text!r}")
    return value


def options_from_args(args: argparse.Namespace) -> Options:
    """Validate parsed flags into Options; a bad value raises A2AError (one clear line)."""
    opts = Options(
        protocol=args.protocol, settings=args.settings, model=args.model, effort=args.effort,
        append_system_prompt=args.append_system_prompt, permission_mode=args.permission_mode,
        delay=args.delay, fail=args.fail, ask_permission=args.ask_permission,
        permission_notify_after=args.permission_notify_after, idle_notify=args.idle_notify,
        tool_timeout=args.tool_timeout, auto_check_unavailable=args.auto_check_unavailable,
        drop_enters=args.drop_enters,
    )
    if args.session_id:
        try:
            opts.session_id = str(uuid.UUID(args.session_id))
        except ValueError:
            # Claude Code refuses a non-UUID --session-id too.
            raise A2AError("bad_session_id",
                           f"--session-id must be a UUID, got {args.session_id!r}") from None
    if args.role_card:
        opts.role_card = Path(args.role_card)
        opts.role_title = role_card_title(opts.role_card)
    if args.transcript_dir:
        opts.transcript_dir = Path(args.transcript_dir)
    if args.replies:
        opts.replies = read_replies(Path(args.replies))
    if args.auto_check_unavailable and args.permission_mode != "auto":
        raise A2AError("bad_option", "--auto-check-unavailable needs --permission-mode auto")
    if args.protocol == "codex":
        if args.settings:
            raise A2AError("bad_option", "--settings is Claude Code's; codex mode takes --notify")
        if args.notify:
            opts.notify = parse_notify(args.notify)
        if args.auto_check_unavailable:
            raise A2AError("bad_option", "--auto-check-unavailable is Claude Code's")
        for item in args.config:
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                raise A2AError("bad_option", f"-c takes KEY=VALUE, got {item!r}")
            if key.strip() == "allow_login_shell":
                if value.strip() not in ("true", "false"):
                    raise A2AError("bad_option", f"allow_login_shell takes true or false,"
                                   f" got {value!r}")
                opts.login_shell = value.strip() == "true"
    elif args.notify or args.config:
        raise A2AError("bad_option", f"{'--notify' if args.notify else '-c'} needs --protocol"
                       " codex")
    return opts


def parse_notify(text: str) -> list[str]:
    """The notify program as Codex takes it: a non-empty JSON array of strings."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise A2AError("bad_notify", f"--notify is not a JSON array: {err}") from None
    if not (isinstance(value, list) and value and all(isinstance(v, str) for v in value)):
        raise A2AError("bad_notify", "--notify must be a non-empty JSON array of strings")
    return value


def role_card_title(path: Path) -> str:
    """The first Markdown heading of a role card (or its file name if it has none)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as err:
        raise A2AError("bad_role_card", f"cannot read role card {path}: {err.strerror}") from None
    for line in text.splitlines():
        m = re.match(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m and m.group(1):
            return m.group(1)
    return path.name


def read_replies(path: Path) -> list[tuple[str, list[str]]]:
    """The scripted turns of `--replies FILE` (one clear error for a file that is wrong)."""

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise A2AError("bad_option", f"--replies {path}: {err}") from None
    out = []
    for i, r in enumerate(data.get("reply", [])):
        when, run = r.get("when"), r.get("run")
        if not (isinstance(when, str) and when and isinstance(run, list)
                and all(isinstance(c, str) for c in run)):
            raise A2AError("bad_option", f"--replies {path}: reply {i + 1} needs when = \"TEXT\""
                           " and run = [\"CMD\", ...]")
        out.append((when, run))
    return out
