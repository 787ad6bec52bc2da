"""Our fake model server: Anthropic Messages, OpenAI Responses and Gemini streaming on 127.0.0.1.

Stdlib only (`http.server`, one thread per request). The real CLIs talk to it as to their
provider; a test scripts the replies and reads back every request it received:

    fm = FakeModel().start()                 # or start(netns=ns): the socket lives in ns
    fm.on(lambda r: "MARK-1" in r.text, Reply(tool=("Bash", {"command": "ls"})))
    fm.script("MARK-2", Reply(tool=...), Reply(tool=...), Reply(text="done"))  # one per request
    ...
    assert fm.user_texts("anthropic") == ["⟦主控 #1⟧ MARK-1"]

Tool calls go out in each API's own wire format (Anthropic `tool_use` blocks, OpenAI Responses
`function_call` items, Gemini `functionCall` parts); what the CLI sends back for them is read
into `Request.tool_results`.

A reply is chosen per request: the first rule whose predicate matches and that has uses left,
else the default reply (a short text). Requests the CLIs make on the side (Claude's title and
topic calls, Codex's title-generation turn, token counts, model lists) are recorded too and
told apart with `Request.side`.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CODEX_TITLE_PREFIX = "Generate a concise, single-line task title"


@dataclass(frozen=True)
class Reply:
    """What the fake model answers to one request.

    text       the assistant text (streamed in a few chunks)
    tool       (name, input): end the turn with one tool call after the text, in the API's own
               format: Claude Code `("Bash", {"command": ...})`, Codex `("exec_command",
               {"cmd": ...})`, Gemini `("run_shell_command", {"command": ...})`
    error      (http_status, error_type, message): answer with an API error
    delay_s    wait this long (sending keep-alive pings) before the first token; a client that
               hangs up (Esc) ends the wait early
    """

    text: str = "ok"
    tool: tuple[str, dict[str, Any]] | None = None
    error: tuple[int, str, str] | None = None
    delay_s: float = 0.0


@dataclass
class Request:
    """One request as received."""

    api: str                  # anthropic | openai | gemini | other
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    t: float                  # time.time() on arrival
    text: str = ""            # the last user message's text
    tool_results: list[str] = field(default_factory=list)  # what the CLI sent back for tool calls
    side: str | None = None   # why this is not a user turn: title|count_tokens|models|...
    reply: Reply | None = None
    disconnected: bool = False  # the client hung up before the reply was complete


# A reply, or a function of the request that makes one (e.g. from an earlier tool's output).
Answer = Reply | Callable[[Request], Reply]


@dataclass
class _Rule:
    pred: Callable[[Request], bool]
    reply: Answer
    times: int | None


class FakeModel:
    """The server. `start()` binds 127.0.0.1 on a free port (inside `netns` when given)."""

    def __init__(self, default: Reply | None = None):
        self.default = default or Reply()
        self.requests: list[Request] = []
        self._rules: list[_Rule] = []
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- life cycle -------------------------------------------------------------------------
    def start(self, netns=None) -> FakeModel:
        """Bind and serve in a background thread; `netns` is an `isolation.Netns`."""
        make = lambda: _Server(("127.0.0.1", 0), _handler_for(self))  # noqa: E731
        self._httpd = netns.call(make) if netns is not None else make()
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={
            "poll_interval": 0.1}, name="fakemodel", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    @property
    def port(self) -> int:
        assert self._httpd is not None, "not started"
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # --- scripting ------------------------------------------------------------------------------
    def on(self, pred: Callable[[Request], bool], reply: Answer, times: int | None = 1) -> None:
        """Answer requests matching `pred` (user turns only) with `reply`, `times` times
        (None: always). Rules are tried in the order they were added."""
        with self._lock:
            self._rules.append(_Rule(pred, reply, times))

    def on_text(self, needle: str, reply: Answer, times: int | None = 1) -> None:
        """Answer the user turn whose last user message contains `needle`."""
        self.on(lambda r: needle in r.text, reply, times)

    def script(self, needle: str, *replies: Answer) -> None:
        """Answer the requests of the turn containing `needle` with `replies`, one each, in order
        (a tool call's result comes back in a new request of the same turn)."""
        for reply in replies:
            self.on_text(needle, reply)

    def _choose(self, req: Request) -> Reply:
        with self._lock:
            if req.side is None:
                for rule in self._rules:
                    if rule.times != 0 and rule.pred(req):
                        if rule.times is not None:
                            rule.times -= 1
                        return rule.reply(req) if callable(rule.reply) else rule.reply
            return self.default if req.side is None else Reply(text="Fake title")

    # --- reading back ---------------------------------------------------------------------------
    def turns(self, api: str | None = None) -> list[Request]:
        """User-turn requests (not the CLIs' side calls), in arrival order."""
        with self._lock:
            return [r for r in self.requests
                    if r.side is None and r.api != "other" and (api is None or r.api == api)]

    def user_texts(self, api: str | None = None) -> list[str]:
        """The last user message of each user-turn request, deduplicated across follow-up
        requests of the same turn (a tool result re-sends the same user message)."""
        out: list[str] = []
        for r in self.turns(api):
            if r.text and (not out or out[-1] != r.text):
                out.append(r.text)
        return out

    def wait_for(self, pred: Callable[[Request], bool], timeout: float = 20.0,
                 what: str = "a matching request") -> Request:
        """Block until a request matching `pred` has arrived; fail after `timeout`, naming
        `what` was awaited."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for r in self.requests:
                    if pred(r):
                        return r
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [(r.api, r.path, r.side, r.text[:60]) for r in self.requests]
                    raise AssertionError(f"timed out after {timeout}s waiting for {what}; the"
                                         f" model saw {seen}")
                self._cond.wait(left)

    def _record(self, req: Request) -> None:
        with self._cond:
            self.requests.append(req)
            self._cond.notify_all()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


# --- request classification -------------------------------------------------------------------

def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, dict):
                t = block.get("text")
                if isinstance(t, str) and block.get("type") in (None, "text", "input_text"):
                    parts.append(t)
        return "\n".join(parts)
    return ""


def _last_user_text_anthropic(body: dict) -> str:
    for msg in reversed(body.get("messages") or []):
        if msg.get("role") == "user":
            content = msg.get("content")
            blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
            # Claude Code prepends <system-reminder> blocks to the user's own text.
            texts = [b["text"] for b in blocks if isinstance(b, dict) and b.get("type") == "text"
                     and isinstance(b.get("text"), str)
                     and not b["text"].lstrip().startswith("<system-reminder>")]
            if texts:
                return texts[-1]
            if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in blocks):
                continue  # a tool result: the user's text is further back
            return ""
    return ""


def _last_user_text_openai(body: dict) -> str:
    items = body.get("input")
    if isinstance(items, str):
        return items
    for item in reversed(items or []):
        if isinstance(item, dict) and item.get("role") == "user":
            text = _text_of(item.get("content"))
            # Codex sends environment context and instructions as user messages too.
            if text.lstrip().startswith(("<environment_context>", "<user_instructions>",
                                         "# AGENTS.md", "<permissions")):
                continue
            return text
    return ""


def _last_user_text_gemini(body: dict) -> str:
    for item in reversed(body.get("contents") or []):
        if isinstance(item, dict) and item.get("role") == "user":
            texts = [p["text"] for p in item.get("parts") or []
                     if isinstance(p, dict) and isinstance(p.get("text"), str)]
            if texts:
                return texts[-1]
    return ""


def tool_results(api: str, body: Any) -> list[str]:
    """The outputs of tool calls that a request sends back, oldest first, as text."""
    if not isinstance(body, dict):
        return []
    out: list[str] = []
    if api == "anthropic":
        for msg in body.get("messages") or []:
            for b in msg.get("content") if isinstance(msg.get("content"), list) else []:
                if isinstance(b, dict) and b.get("type") == "tool_result":
                    c = b.get("content")
                    out.append(c if isinstance(c, str) else _text_of(c))
    elif api == "openai":
        for item in body.get("input") if isinstance(body.get("input"), list) else []:
            if isinstance(item, dict) and item.get("type", "").endswith("_call_output"):
                o = item.get("output")
                out.append(o if isinstance(o, str) else json.dumps(o))
    elif api == "gemini":
        for item in body.get("contents") or []:
            for part in item.get("parts") or [] if isinstance(item, dict) else []:
                if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict):
                    out.append(json.dumps(part["functionResponse"].get("response")))
    return out


def _classify(method: str, path: str, body: Any) -> tuple[str, str, str | None]:
    """(api, user text, side) for one request."""
    p = path.split("?", 1)[0]
    if p.startswith("/v1/messages"):
        if p.endswith("/count_tokens"):
            return "anthropic", "", "count_tokens"
        body = body if isinstance(body, dict) else {}
        text = _last_user_text_anthropic(body)
        if not body.get("stream") or not body.get("tools"):
            # Claude Code's own side calls (session title, topic, quota check) carry no tools.
            return "anthropic", text, "aux"
        return "anthropic", text, None
    if p.startswith("/v1/models") or p == "/models":
        return "openai" if p == "/models" else "anthropic", "", "models"
    if p.endswith("/responses"):
        body = body if isinstance(body, dict) else {}
        text = _last_user_text_openai(body)
        if text.lstrip().startswith(CODEX_TITLE_PREFIX):
            return "openai", text, "title"
        return "openai", text, None
    if ":countTokens" in p:
        return "gemini", "", "count_tokens"
    if ":streamGenerateContent" in p or ":generateContent" in p:
        body = body if isinstance(body, dict) else {}
        text = _last_user_text_gemini(body)
        side = None if ":streamGenerateContent" in p else "aux"
        return "gemini", text, side
    return "other", "", "other"


# --- the handler ----------------------------------------------------------------------------------

def _handler_for(fm: FakeModel):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):  # quiet: the record is in fm.requests
            pass

        def do_GET(self):
            self._handle("GET")

        def do_HEAD(self):
            self._handle("HEAD")

        def do_POST(self):
            self._handle("POST")

        def _handle(self, method: str) -> None:
            n = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(n) if n else b""
            try:
                body = json.loads(raw) if raw else None
            except (json.JSONDecodeError, UnicodeDecodeError):
                body = raw.decode(errors="replace")
            api, text, side = _classify(method, self.path, body)
            req = Request(api, method, self.path, {k.lower(): v for k, v in self.headers.items()},
                          body, time.time(), text=text, side=side,
                          tool_results=tool_results(api, body))
            reply = fm._choose(req)
            req.reply = reply
            fm._record(req)
            try:
                self._respond(req, reply)
            except (BrokenPipeError, ConnectionResetError, socket.timeout):
                req.disconnected = True

        # --- responses ---
        def _json(self, status: int, doc: Any) -> None:
            data = json.dumps(doc).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _sse_start(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True

        def _event(self, name: str | None, doc: Any) -> None:
            head = f"event: {name}\n" if name else ""
            self.wfile.write(f"{head}data: {json.dumps(doc)}\n\n".encode())
            self.wfile.flush()

        def _wait(self, req: Request, seconds: float, ping: Callable[[], None]) -> None:
            """Wait, pinging every 0.25 s: a client that hung up makes the write fail."""
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                time.sleep(min(0.25, max(0.0, end - time.monotonic())))
                ping()

        def _respond(self, req: Request, reply: Reply) -> None:
            if req.api == "other":
                return self._json(404, {"error": {"message": f"no route {req.path}"}})
            if req.side == "models":
                return self._json(200, _models(req.api))
            if req.side == "count_tokens":
                return self._json(200, {"input_tokens": 42} if req.api == "anthropic"
                                  else {"totalTokens": 42})
            if reply.error is not None and not reply.delay_s:
                status, etype, msg = reply.error
                return self._json(status, _error_doc(req.api, status, etype, msg))
            body = req.body if isinstance(req.body, dict) else {}
            if req.api == "anthropic":
                if not body.get("stream"):
                    return self._json(200, _anthropic_message(body, reply))
                return self._anthropic_stream(req, body, reply)
            if req.api == "openai":
                return self._openai_stream(req, body, reply)
            if ":streamGenerateContent" not in req.path:
                # Gemini's side calls (the "Auto" model router...) ask for JSON by schema.
                cfg = body.get("generationConfig") or {}
                schema = cfg.get("responseJsonSchema") or cfg.get("responseSchema")
                text = json.dumps(_example(schema)) if schema else reply.text
                return self._json(200, _gemini_chunk(text, final=True))
            return self._gemini_stream(req, reply)

        def _anthropic_stream(self, req: Request, body: dict, reply: Reply) -> None:
            self._sse_start()
            mid = f"msg_{uuid.uuid4().hex[:24]}"
            self._event("message_start", {"type": "message_start", "message": {
                "id": mid, "type": "message", "role": "assistant",
                "model": body.get("model", "claude-fake"), "content": [], "stop_reason": None,
                "stop_sequence": None, "usage": {"input_tokens": 12, "output_tokens": 1,
                                                 "cache_creation_input_tokens": 0,
                                                 "cache_read_input_tokens": 0}}})
            ping = lambda: self._event("ping", {"type": "ping"})  # noqa: E731
            ping()
            self._wait(req, reply.delay_s, ping)
            if reply.error is not None:
                _, etype, msg = reply.error
                return self._event("error", {"type": "error",
                                             "error": {"type": etype, "message": msg}})
            index = 0
            if reply.text:
                self._event("content_block_start", {"type": "content_block_start", "index": 0,
                                                     "content_block": {"type": "text", "text": ""}})
                for chunk in _chunks(reply.text):
                    self._event("content_block_delta", {"type": "content_block_delta", "index": 0,
                                                        "delta": {"type": "text_delta",
                                                                  "text": chunk}})
                self._event("content_block_stop", {"type": "content_block_stop", "index": 0})
                index = 1
            stop = "end_turn"
            if reply.tool is not None:
                name, args = reply.tool
                self._event("content_block_start", {"type": "content_block_start", "index": index,
                                                    "content_block": {
                                                        "type": "tool_use",
                                                        "id": f"toolu_{uuid.uuid4().hex[:24]}",
                                                        "name": name, "input": {}}})
                self._event("content_block_delta", {"type": "content_block_delta", "index": index,
                                                    "delta": {"type": "input_json_delta",
                                                              "partial_json": json.dumps(args)}})
                self._event("content_block_stop", {"type": "content_block_stop", "index": index})
                stop = "tool_use"
            self._event("message_delta", {"type": "message_delta",
                                          "delta": {"stop_reason": stop, "stop_sequence": None},
                                          "usage": {"output_tokens": 7}})
            self._event("message_stop", {"type": "message_stop"})

        def _openai_stream(self, req: Request, body: dict, reply: Reply) -> None:
            self._sse_start()
            rid, item = f"resp_{uuid.uuid4().hex[:20]}", f"msg_{uuid.uuid4().hex[:20]}"
            seq = iter(range(1_000_000))
            model = body.get("model", "gpt-fake")
            base = {"id": rid, "object": "response", "created_at": int(time.time()),
                    "model": model, "output": [], "status": "in_progress"}

            def ev(name: str, **doc: Any) -> None:
                self._event(name, {"type": name, "sequence_number": next(seq), **doc})

            ev("response.created", response=base)
            ev("response.in_progress", response=base)
            # No ping event exists here: an SSE comment keeps the line busy instead.
            ping = lambda: (self.wfile.write(b": keep-alive\n\n"), self.wfile.flush())  # noqa
            self._wait(req, reply.delay_s, ping)
            if reply.error is not None:
                _, etype, msg = reply.error
                return ev("response.failed", response={**base, "status": "failed", "error": {
                    "code": etype, "message": msg}})
            output: list[dict] = []
            if reply.text or reply.tool is None:
                msg_item = {"id": item, "type": "message", "status": "in_progress",
                            "role": "assistant", "content": []}
                ev("response.output_item.added", output_index=0, item=msg_item)
                part = {"type": "output_text", "text": "", "annotations": []}
                ev("response.content_part.added", item_id=item, output_index=0, content_index=0,
                   part=part)
                for chunk in _chunks(reply.text):
                    ev("response.output_text.delta", item_id=item, output_index=0,
                       content_index=0, delta=chunk)
                ev("response.output_text.done", item_id=item, output_index=0, content_index=0,
                   text=reply.text)
                done_part = {**part, "text": reply.text}
                ev("response.content_part.done", item_id=item, output_index=0, content_index=0,
                   part=done_part)
                done_item = {**msg_item, "status": "completed", "content": [done_part]}
                ev("response.output_item.done", output_index=0, item=done_item)
                output.append(done_item)
            if reply.tool is not None:
                name, args = reply.tool
                index, fc = len(output), f"fc_{uuid.uuid4().hex[:20]}"
                call = {"id": fc, "type": "function_call", "status": "in_progress",
                        "call_id": f"call_{uuid.uuid4().hex[:20]}", "name": name,
                        "arguments": ""}
                ev("response.output_item.added", output_index=index, item=call)
                arguments = json.dumps(args)
                ev("response.function_call_arguments.delta", item_id=fc, output_index=index,
                   delta=arguments)
                ev("response.function_call_arguments.done", item_id=fc, output_index=index,
                   arguments=arguments)
                done_call = {**call, "status": "completed", "arguments": arguments}
                ev("response.output_item.done", output_index=index, item=done_call)
                output.append(done_call)
            ev("response.completed", response={
                **base, "status": "completed", "output": output,
                "usage": {"input_tokens": 12, "input_tokens_details": {"cached_tokens": 0},
                          "output_tokens": 7, "output_tokens_details": {"reasoning_tokens": 0},
                          "total_tokens": 19}})

        def _gemini_stream(self, req: Request, reply: Reply) -> None:
            self._sse_start()
            ping = lambda: (self.wfile.write(b"\r\n"), self.wfile.flush())  # noqa: E731
            self._wait(req, reply.delay_s, ping)
            chunks = _chunks(reply.text)
            for i, chunk in enumerate(chunks):
                last = i == len(chunks) - 1 and reply.tool is None
                self._event(None, _gemini_chunk(chunk, final=last))
            if reply.tool is not None:
                name, args = reply.tool
                self._event(None, _gemini_chunk("", final=True,
                                                call={"name": name, "args": args}))

    return Handler


def _chunks(text: str, n: int = 3) -> list[str]:
    if not text:
        return [""]
    size = max(1, -(-len(text) // n))
    return [text[i:i + size] for i in range(0, len(text), size)]


def _example(schema: Any) -> Any:
    """A small value that fits a JSON schema (Gemini's OBJECT/STRING/INTEGER spelling too)."""
    if not isinstance(schema, dict):
        return None
    kind = str(schema.get("type", "object")).lower()
    if "enum" in schema and schema["enum"]:
        return schema["enum"][0]
    if kind == "object":
        return {k: _example(v) for k, v in (schema.get("properties") or {}).items()}
    if kind == "array":
        return [_example(schema.get("items"))]
    if kind in ("integer", "number"):
        return 1
    if kind == "boolean":
        return False
    return "fake"


def _models(api: str) -> dict:
    if api == "anthropic":
        return {"data": [{"type": "model", "id": "claude-fake", "display_name": "Fake",
                          "created_at": "2026-01-01T00:00:00Z"}],
                "has_more": False, "first_id": "claude-fake", "last_id": "claude-fake"}
    return {"object": "list", "data": [{"id": "gpt-fake", "object": "model", "created": 0,
                                        "owned_by": "fake"}]}


def _error_doc(api: str, status: int, etype: str, msg: str) -> dict:
    if api == "anthropic":
        return {"type": "error", "error": {"type": etype, "message": msg}}
    if api == "gemini":
        return {"error": {"code": status, "message": msg, "status": etype}}
    return {"error": {"type": etype, "code": etype, "message": msg}}


def _anthropic_message(body: dict, reply: Reply) -> dict:
    return {"id": f"msg_{uuid.uuid4().hex[:24]}", "type": "message", "role": "assistant",
            "model": body.get("model", "claude-fake"),
            "content": [{"type": "text", "text": reply.text}], "stop_reason": "end_turn",
            "stop_sequence": None, "usage": {"input_tokens": 12, "output_tokens": 7}}


def _gemini_chunk(text: str, final: bool, call: dict | None = None) -> dict:
    parts: list[dict] = [{"functionCall": call}] if call is not None else [{"text": text}]
    cand: dict[str, Any] = {"content": {"parts": parts, "role": "model"}, "index": 0}
    doc: dict[str, Any] = {"candidates": [cand], "modelVersion": "gemini-fake"}
    if final:
        cand["finishReason"] = "STOP"
        doc["usageMetadata"] = {"promptTokenCount": 12, "candidatesTokenCount": 7,
                                "totalTokenCount": 19}
    return doc
