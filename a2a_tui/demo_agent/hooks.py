"""Claude Code command hooks: the settings format, matchers, and running them as Claude does.

Faithful to PROTOCOLS.md A [CC-HOOKS]:
- settings nest event -> matcher group `{matcher, hooks: [handler]}` -> handler
  `{type: "command", command, args?, timeout?, async?, once?}`; `disableAllHooks` turns all off.
  Other handler types (http, mcp_tool, prompt, agent) are reported once and skipped.
- matchers: missing, "" or "*" match all; only letters/digits/`_`/`-`/space/`,`/`|` = an exact
  list; anything else an unanchored regex. Events without matcher support (UserPromptSubmit,
  Stop, ...) run every group.
- matching handlers run in parallel, identical ones once; each gets the event JSON on stdin,
  runs via `sh -c` (or exec form with `args`) in the agent's cwd with the agent's environment
  (so $TMUX_PANE reaches it) plus CLAUDE_PROJECT_DIR, in a new session: no controlling terminal.
- exit 0: stdout starting with `{` is JSON output; plain stdout of UserPromptSubmit/SessionStart
  is added to the context. Exit 2 blocks the blockable events (stderr is the reason). Other
  codes are a non-blocking "hook error". `timeout` (s) kills the hook; defaults 600 s, 30 s for
  UserPromptSubmit; all SessionEnd hooks share 1.5 s (CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS).
- `async` hooks run in the background and control nothing.
A broken hook (missing program, crash, hang, garbage output) never stops the agent.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from a2a_tui.errors import A2AError

# Which input field each event's matcher is tested against [CC-HOOKS §Hook events].
MATCH_FIELD = {
    "PreToolUse": "tool_name", "PostToolUse": "tool_name", "PostToolUseFailure": "tool_name",
    "PermissionRequest": "tool_name", "PermissionDenied": "tool_name",
    "SessionStart": "source", "SessionEnd": "reason", "Notification": "notification_type",
    "StopFailure": "error", "SubagentStart": "agent_type", "SubagentStop": "agent_type",
    "PreCompact": "trigger", "PostCompact": "trigger",
}
BLOCKABLE = {"PreToolUse", "PermissionRequest", "UserPromptSubmit", "Stop", "SubagentStop",
             "PreCompact", "PostToolUse", "PostToolUseFailure"}
CONTEXT_EVENTS = {"UserPromptSubmit", "SessionStart"}
DEFAULT_TIMEOUT = 600.0
EVENT_TIMEOUT = {"UserPromptSubmit": 30.0}
SESSION_END_BUDGET = 1.5
EXACT_LIST = re.compile(r"^[A-Za-z0-9_\- ,|]*$")
MAX_SETTINGS_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True)
class Handler:
    command: str
    args: tuple[str, ...] | None = None
    timeout: float | None = None
    is_async: bool = False
    once: bool = False


@dataclass
class HookResult:
    """What one handler did."""

    handler: Handler
    code: int | None  # None: did not run to an exit (spawn failure or timeout)
    stdout: str = ""
    stderr: str = ""
    error: str | None = None


@dataclass
class Outcome:
    """What the agent must do after an event's hooks ran."""

    blocked: bool = False
    reason: str = ""
    context: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    decision: str | None = None  # PreToolUse permissionDecision / PermissionRequest behavior


def matches(matcher: Any, value: str | None) -> bool:
    """Claude Code's matcher rule (PROTOCOLS A): all / exact list / unanchored regex."""
    if matcher is None or not isinstance(matcher, str) or matcher.strip() in ("", "*"):
        return True
    if value is None:
        return False
    if EXACT_LIST.match(matcher):
        return value in {p.strip() for p in re.split(r"[|,]", matcher) if p.strip()}
    try:
        return re.search(matcher, value) is not None
    except re.error:
        return False


class HookConfig:
    """The `hooks` section of a settings file."""

    def __init__(self, groups: dict[str, list[tuple[Any, list[Handler]]]], notes: list[str]):
        self.groups = groups
        self.notes = notes

    @classmethod
    def empty(cls) -> HookConfig:
        return cls({}, [])

    @classmethod
    def load(cls, source: str) -> HookConfig:
        """Read `--settings` (a file, or inline JSON as Claude Code accepts); bad -> A2AError."""
        if source.lstrip().startswith("{"):
            text = source
        else:
            path = Path(source)
            try:
                if path.stat().st_size > MAX_SETTINGS_BYTES:
                    raise A2AError("bad_settings", f"settings file {path} is over 2 MiB")
                text = path.read_text(encoding="utf-8")
            except OSError as err:
                raise A2AError("bad_settings",
                               f"cannot read settings {path}: {err.strerror}") from None
            except UnicodeDecodeError:
                raise A2AError("bad_settings", f"settings {path} is not UTF-8") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise A2AError("bad_settings", f"settings are not valid JSON: {err}") from None
        return cls.parse(data)

    @classmethod
    def parse(cls, data: Any) -> HookConfig:
        if not isinstance(data, dict):
            raise A2AError("bad_settings", "settings must be a JSON object")
        hooks = data.get("hooks", {})
        if data.get("disableAllHooks") is True:
            return cls({}, ["disableAllHooks: no hooks run"])
        if not isinstance(hooks, dict):
            raise A2AError("bad_settings", "settings.hooks must be an object")
        groups: dict[str, list[tuple[Any, list[Handler]]]] = {}
        notes: list[str] = []
        for event, entries in hooks.items():
            if not isinstance(entries, list):
                raise A2AError("bad_settings", f"settings.hooks.{event} must be a list")
            for entry in entries:
                if not isinstance(entry, dict) or not isinstance(entry.get("hooks"), list):
                    raise A2AError("bad_settings",
                                   f"settings.hooks.{event}: each entry needs a hooks list")
                handlers = []
                for h in entry["hooks"]:
                    handler = _handler(event, h, notes)
                    if handler:
                        handlers.append(handler)
                groups.setdefault(event, []).append((entry.get("matcher"), handlers))
        return cls(groups, notes)

    def handlers_for(self, event: str, payload: dict) -> list[Handler]:
        """The deduplicated handlers whose group matches this event's input."""
        field_name = MATCH_FIELD.get(event)
        value = payload.get(field_name) if field_name else None
        out: list[Handler] = []
        for matcher, handlers in self.groups.get(event, []):
            if field_name is not None and not matches(matcher, value):
                continue
            for h in handlers:
                if h not in out:
                    out.append(h)
        return out


def _handler(event: str, h: Any, notes: list[str]) -> Handler | None:
    if not isinstance(h, dict):
        raise A2AError("bad_settings", f"settings.hooks.{event}: a handler must be an object")
    kind = h.get("type", "command")
    if kind != "command":
        note = f"{event}: '{kind}' hooks are not run by the demo agent"
        if note not in notes:
            notes.append(note)
        return None
    command = h.get("command")
    if not isinstance(command, str) or not command.strip():
        raise A2AError("bad_settings", f"settings.hooks.{event}: a command hook needs 'command'")
    args = h.get("args")
    if args is not None and not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
        raise A2AError("bad_settings", f"settings.hooks.{event}: 'args' must be a list of strings")
    timeout = h.get("timeout")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                or timeout <= 0):
        raise A2AError("bad_settings", f"settings.hooks.{event}: 'timeout' must be seconds > 0")
    return Handler(command=command, args=tuple(args) if args is not None else None,
                   timeout=float(timeout) if timeout is not None else None,
                   is_async=bool(h.get("async")), once=bool(h.get("once")))


class HookRunner:
    """Runs the configured hooks for an event and interprets their results."""

    def __init__(self, config: HookConfig, cwd: str, env: dict[str, str] | None = None):
        self.config = config
        self.cwd = cwd
        self.env = dict(os.environ if env is None else env)
        self.env["CLAUDE_PROJECT_DIR"] = cwd
        self._ran_once: set[Handler] = set()
        # Re-entrant: the SIGTERM handler (kill_running) runs on the main thread, which may
        # hold it.
        self._lock = threading.RLock()
        self._background: list[threading.Thread] = []
        self._running: set[subprocess.Popen] = set()

    def run(self, event: str, payload: dict) -> Outcome:
        """Run every matching handler (async ones in the background); wait for the others."""
        handlers = [h for h in self.config.handlers_for(event, payload)
                    if not (h.once and h in self._ran_once)]
        if not handlers:
            return Outcome()
        self._ran_once.update(h for h in handlers if h.once)
        # As Claude Code writes it (JSON.stringify): compact, non-ASCII kept, one newline.
        stdin = (json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
                 + "\n").encode("utf-8")
        budget = _session_end_budget() if event == "SessionEnd" else None
        results: list[HookResult] = []
        threads = []
        for h in handlers:
            timeout = h.timeout or EVENT_TIMEOUT.get(event, DEFAULT_TIMEOUT)
            if budget is not None:
                timeout = min(timeout, budget)
            t = threading.Thread(target=self._run_one, args=(h, stdin, timeout, results),
                                 daemon=True, name=f"hook-{event}")
            t.start()
            if h.is_async:
                self._background.append(t)
            else:
                threads.append(t)
        for t in threads:
            t.join()
        with self._lock:
            done = [r for r in results if not r.handler.is_async]
        return interpret(event, done)

    def _run_one(self, h: Handler, stdin: bytes, timeout: float, results: list) -> None:
        argv = [h.command, *h.args] if h.args is not None else ["sh", "-c", h.command]
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, cwd=self.cwd, env=self.env,
                                    start_new_session=True, close_fds=True)
        except OSError as err:
            res = HookResult(h, None, error=f"could not start: {err.strerror or err}")
        else:
            with self._lock:
                self._running.add(proc)
            try:
                out, err_b = proc.communicate(stdin, timeout=timeout)
                res = HookResult(h, proc.returncode, _text(out), _text(err_b))
            except subprocess.TimeoutExpired:
                _kill_group(proc)
                out, err_b = proc.communicate()
                res = HookResult(h, None, _text(out), _text(err_b),
                                 error=f"timed out after {timeout:g}s")
            with self._lock:
                self._running.discard(proc)
        with self._lock:
            results.append(res)

    def kill_running(self) -> None:
        """Kill every hook still running (the agent is being terminated)."""
        with self._lock:
            procs = list(self._running)
        for proc in procs:
            _kill_group(proc)

    def wait_background(self, timeout: float) -> None:
        """Give async hooks up to `timeout` seconds to finish (at exit)."""
        for t in self._background:
            t.join(timeout)


def interpret(event: str, results: list[HookResult]) -> Outcome:
    """Exit codes and output of an event's hooks -> what the agent does (PROTOCOLS A)."""
    o = Outcome()
    for r in results:
        name = r.handler.command.split()[0] if r.handler.command.split() else "?"
        if r.code is None:
            o.notices.append(f"{event} hook error: {name}: {r.error}")
            continue
        if r.code == 2:
            reason = r.stderr.strip()
            if event in BLOCKABLE:
                o.blocked = True
                o.reason = "\n".join(x for x in (o.reason, reason) if x)
            elif reason:
                o.notices.append(f"{event} hook: {reason}")
            continue
        if r.code != 0:
            first = r.stderr.strip().splitlines()[0] if r.stderr.strip() else f"exit {r.code}"
            o.notices.append(f"{event} hook error: {name}: {first}")
            continue
        out = r.stdout.strip()
        if out.startswith("{"):
            _json_output(event, out, o)
        elif out and event in CONTEXT_EVENTS:
            o.context.append(out)
    return o


def _json_output(event: str, out: str, o: Outcome) -> None:
    try:
        data = json.loads(out)
    except json.JSONDecodeError:
        o.notices.append(f"{event} hook printed invalid JSON")
        return
    if not isinstance(data, dict):
        return
    if isinstance(data.get("systemMessage"), str):
        o.notices.append(data["systemMessage"])
    if data.get("continue") is False or (data.get("decision") == "block"
                                         and event in BLOCKABLE):
        o.blocked = True
        reason = data.get("stopReason") or data.get("reason") or ""
        o.reason = "\n".join(x for x in (o.reason, str(reason)) if x)
    specific = data.get("hookSpecificOutput")
    if isinstance(specific, dict):
        ctx = specific.get("additionalContext")
        if isinstance(ctx, str) and ctx:
            o.context.append(ctx)
        decision = specific.get("permissionDecision")
        behavior = (specific.get("decision") or {}).get("behavior") \
            if isinstance(specific.get("decision"), dict) else None
        for d in (decision, behavior):
            if d in ("allow", "deny", "ask"):
                o.decision = d
                if d == "deny":
                    o.blocked = True
                    o.reason = str(specific.get("permissionDecisionReason")
                                   or (specific.get("decision") or {}).get("message") or o.reason)


def _session_end_budget() -> float:
    raw = os.environ.get("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS")
    try:
        return max(float(raw) / 1000.0, 0.01) if raw else SESSION_END_BUDGET
    except ValueError:
        return SESSION_END_BUDGET


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # already gone


def _text(b: bytes | None) -> str:
    return (b or b"").decode("utf-8", errors="replace")
