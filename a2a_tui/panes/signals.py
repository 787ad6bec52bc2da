"""What a spool file says: one agent-CLI signal, normalized. Pure: no I/O.

Every CLI speaks its own protocol (PROTOCOLS.md A-C); this module maps each event onto the few
kinds the pane state machine understands. Anything not listed is kept as `other`: recorded, but
it moves no state.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from a2a_tui.jsontypes import JsonObject, JsonValue

SOURCES = ("claude", "codex", "gemini", "tmux", "process")
# A dispatch number is a positive int64 (the store's): ASCII digits, at most 18 of them (\d
# takes any script's digits, and int() refuses more than 4300).
# The sender after `·` names who queued it (queue.marker); a `⟦` after a backslash is text
# (queue.escape_markers), never a marker.
MARKER = re.compile(r"(?<!\\)⟦(主控|门禁) #([0-9]{1,18})(?: · [^⟧\n]{1,80})?⟧")
# Codex runs a hidden turn per user turn to title the thread; its notify is not the user's turn.
CODEX_TITLE_PREFIX = "Generate a concise, single-line task title"

# hook_event_name -> kind. Claude Code, Codex hooks and Gemini CLI share the envelope.
_HOOK_KINDS = {
    "SessionStart": "start",
    "UserPromptSubmit": "prompt", "BeforeAgent": "prompt",
    "PreToolUse": "tool", "PostToolUse": "tool", "PostToolUseFailure": "tool",
    "PostToolBatch": "tool", "BeforeTool": "tool", "AfterTool": "tool",
    "PermissionRequest": "waiting",
    "Stop": "stop", "StopFailure": "stop", "AfterAgent": "stop",
    "Interrupt": "idle_hint",
    "SessionEnd": "end",
    "pane-died": "exited", "pane-exited": "exited", "process-exited": "exited",
}
# Notifications that mean "the CLI is stopped on a question only the user can answer" (Claude
# Code 2.1.332's notification types, read from the CLI and measured where it could be driven;
# Gemini CLI 0.61.0 has only ToolPermission): a permission dialog; auto mode that cannot reach
# its safety check asking for a choice; an MCP server's form or URL question; a teammate's
# permission request waiting on this session. Others (auth_success, agent_completed,
# elicitation_complete, ...) only inform. Codex says it with its PermissionRequest hook.
_WAITING_NOTIFICATIONS = ("permission_prompt", "agent_needs_input", "elicitation_dialog",
                          "elicitation_url_dialog", "worker_permission_prompt", "ToolPermission")
_IDLE_NOTIFICATIONS = ("idle_prompt",)


# The largest integer SQLite stores: a later timestamp is not one the hook took.
TS_MAX = 2**63 - 1
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


class MalformedSignal(ValueError):
    """A spool file that is not a signal; the message is the recorded reason."""


@dataclass(frozen=True)
class Signal:
    """One structured signal from a pane."""

    kind: str                 # start|prompt|tool|waiting|stop|idle_hint|end|exited|other
    event: str                # the CLI's own name for it (hook_event_name or notify type)
    ts_ns: int                # taken by the hook script when the CLI ran it
    session: str
    pane: str
    source: str
    prompt: str | None = None             # a submitted prompt's text
    inputs: tuple[str, ...] | None = None  # Codex notify: the turn's input messages
    thread_id: str | None = None          # Codex notify: the conversation the turn belongs to
    detail: dict[str, Any] = field(default_factory=dict)
    payload: dict[str, Any] = field(default_factory=dict)

    def markers(self) -> list[int]:
        """Dispatch numbers named by markers in the prompt (or a Codex turn's own input)."""
        text = self.submitted_text
        return [int(m.group(2)) for m in MARKER.finditer(text)] if text is not None else []

    @property
    def submitted_text(self) -> str | None:
        """The prompt of this turn. A Codex notify lists every user message of the thread so far
        (codex 0.171.0, tests/real_cli/FINDINGS.md): this turn's is the last one."""
        if self.prompt is not None:
            return self.prompt
        if self.inputs:
            return self.inputs[-1]
        return None

    @property
    def is_codex_title_turn(self) -> bool:
        return bool(self.inputs) and self.inputs[0].lstrip().startswith(CODEX_TITLE_PREFIX)


def parse(raw: bytes) -> Signal:
    """Parse the bytes of a spool file written by `hooks/a2a-hook`."""
    doc = _json(raw)
    if not isinstance(doc, dict):
        raise MalformedSignal("not a JSON object")
    ts, session, source = doc.get("ts_ns"), doc.get("session"), doc.get("source")
    payload = doc.get("payload")
    if type(ts) is not int or not 0 < ts <= TS_MAX:
        raise MalformedSignal("ts_ns missing or not a positive integer")
    if not isinstance(session, str) or not session:
        raise MalformedSignal("session missing")
    if source not in SOURCES:
        raise MalformedSignal(f"unknown source {source!r}")
    if not isinstance(payload, dict):
        raise MalformedSignal("payload is not a JSON object")
    pane = doc.get("pane") if isinstance(doc.get("pane"), str) else ""
    return normalize(source, payload, ts_ns=ts, session=session, pane=pane)


def _json(raw: bytes) -> Any:
    """JSON as RFC 8259 has it, or MalformedSignal: UTF-8, no NaN or Infinity, no key twice
    (the hook writes the CLI's JSON into its envelope unparsed: text after the CLI's value
    could otherwise repeat `session` and speak for another pane), no lone surrogate (it cannot
    be stored), nested no deeper than Python can read."""
    try:
        text = raw.decode("utf-8")
        doc = json.loads(text, parse_constant=_not_json, object_pairs_hook=_object_json)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MalformedSignal(f"not JSON: {exc}") from exc
    except RecursionError:
        raise MalformedSignal("not JSON: nested too deeply") from None
    if _SURROGATE_ESCAPE.search(text):  # rare: look closer only then
        try:
            json.dumps(doc, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise MalformedSignal("not JSON: a lone surrogate (\\ud800-\\udfff)") from None
    return doc


def _not_json(constant: str) -> Any:
    raise MalformedSignal(f"not JSON: {constant}")


def _object_json(pairs: list[tuple[str, JsonValue]]) -> JsonObject:
    """One object of a hook's JSON file, refused when a key appears twice."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise MalformedSignal(f"not JSON: key {twice!r} appears twice")
    return obj


def normalize(source: str, payload: dict[str, Any], *, ts_ns: int, session: str,
              pane: str = "") -> Signal:
    """Map one CLI payload onto a Signal."""
    base = {"ts_ns": ts_ns, "session": session, "pane": pane, "source": source,
            "payload": payload}
    if payload.get("type") == "agent-turn-complete":  # Codex notify
        inputs = payload.get("input-messages")
        msgs = tuple(m for m in inputs if isinstance(m, str)) if isinstance(inputs, list) else ()
        tid = payload.get("thread-id")
        return Signal("stop", "agent-turn-complete", inputs=msgs,
                      thread_id=tid if isinstance(tid, str) else None, **base)
    event = payload.get("hook_event_name")
    if not isinstance(event, str):
        raise MalformedSignal("payload has neither hook_event_name nor a known notify type")
    kind = _HOOK_KINDS.get(event, "other")
    detail: dict[str, Any] = {}
    prompt = None
    if kind == "prompt":
        p = payload.get("prompt")
        prompt = p if isinstance(p, str) else ""
    if event == "Notification":
        ntype = payload.get("notification_type")
        detail["notification_type"] = ntype if isinstance(ntype, str) else None
        if ntype in _WAITING_NOTIFICATIONS:
            kind = "waiting"
        elif ntype in _IDLE_NOTIFICATIONS:
            kind = "idle_hint"
    for key in ("source", "reason", "error", "status", "tool_name"):
        if isinstance(payload.get(key), str):
            detail[key] = payload[key]
    return Signal(kind, event, prompt=prompt, detail=detail, **base)
