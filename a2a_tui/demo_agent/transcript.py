"""A real JSONL transcript, shaped like Claude Code's, whose path goes into every hook payload.

Claude Code writes `~/.claude/projects/<cwd with non-alphanumerics as '-'>/<session>.jsonl`.
The demo agent must never write under ~/.claude (HELPERS.md), so it keeps the same layout
under its own directory: `--transcript-dir`, else `$XDG_STATE_HOME/a2a/demo-agent/projects`
(`~/.local/state/...` when unset).
"""

from __future__ import annotations

import json
import os
import re
import uuid
from datetime import UTC, datetime
from pathlib import Path

VERSION = "demo"


def default_dir() -> Path:
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "a2a" / "demo-agent" / "projects"


def transcript_path(base: Path | None, cwd: str, session_id: str) -> Path:
    """Where the transcript of `session_id` started in `cwd` lives."""
    return (base or default_dir()) / re.sub(r"[^A-Za-z0-9]", "-", cwd) / f"{session_id}.jsonl"


class Transcript:
    """Append-only writer; a write failure is reported once and never stops the agent."""

    def __init__(self, path: Path, session_id: str, cwd: str, model: str | None):
        self.path = path
        self.session_id = session_id
        self.cwd = cwd
        self.model = model or "demo"
        self.error: str | None = None
        self._parent: str | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()
        except OSError as err:
            self.error = f"transcript not written: {err.strerror or err}"

    def user(self, content, prompt_id: str | None = None, **extra) -> None:
        msg = {"role": "user", "content": content}
        self._append("user", {"message": msg, **({"promptId": prompt_id} if prompt_id else {}),
                              **extra})

    def assistant(self, content: list[dict]) -> None:
        msg = {"id": f"msg_{uuid.uuid4().hex[:24]}", "type": "message", "role": "assistant",
               "model": self.model, "content": content, "stop_reason": "end_turn",
               "stop_sequence": None, "usage": {"input_tokens": 0, "output_tokens": 0}}
        self._append("assistant", {"message": msg})

    def _append(self, kind: str, body: dict) -> None:
        entry_id = str(uuid.uuid4())
        entry = {"parentUuid": self._parent, "isSidechain": False, "userType": "external",
                 "cwd": self.cwd, "sessionId": self.session_id, "version": VERSION,
                 "type": kind, **body, "uuid": entry_id,
                 "timestamp": datetime.now(UTC).isoformat(timespec="milliseconds")
                 .replace("+00:00", "Z")}
        self._parent = entry_id
        if self.error:
            return
        try:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry, ensure_ascii=False) + "\n")
        except OSError as err:
            self.error = f"transcript not written: {err.strerror or err}"
