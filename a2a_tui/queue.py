"""The injection queue: per pane, FIFO, persisted, one in flight.

It sits below the gate, the panes and collaboration, which all write into it with
`enqueue_in_tx` (rejection feedback, the controller's prompts, inbox and board records).
Everything here only writes the store; the orchestrator (panes/) delivers. After committing,
callers drop a wake file (`wake`) so a running orchestrator notices at once.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.payloads.dispatch import DispatchQueued
from a2a_tui.quoting import LOOKALIKE

MAX_TEXT = 100_000
MARKERS = {"gate": "门禁"}  # every other source is the controller's: 主控
USER_SENDER = "用户"         # the user, in a marker: `⟦主控 #n · 用户⟧`


def sender(actor: str) -> str:
    """Who queued a dispatch, as its marker names them: 用户 (the user), the session's id, or
    a2a (its own relays: the orchestrator, the demo's director)."""
    if actor == "user":
        return USER_SENDER
    if actor.startswith("session:"):
        return actor.split(":", 1)[1]
    return "a2a"


def marker(source: str, n: int, actor: str = "user") -> str:
    """The marker a dispatch's text starts with: the gate's `⟦门禁 #n⟧`, else `⟦主控 #n · WHO⟧`
    naming who queued it (seed 003's ⟦主控 #序号⟧, with its sender)."""
    if source in MARKERS:
        return f"⟦{MARKERS[source]} #{n}⟧"
    return f"⟦主控 #{n} · {sender(actor)}⟧"


def escape_markers(text: str) -> str:
    """A marker written inside a dispatch's text never reads as one: each `⟦` gets a backslash
    (`\\⟦`), which the marker's pattern (panes/signals.py) does not take, and so does any
    bracket that looks like it (`〚【［[`, quoting.LOOKALIKE) before the marker's words. Text
    an agent wrote is quoted whole where it is composed (quoting.py); this holds for all."""
    return _IMITATION.sub(lambda m: "\\" + m.group(), text.replace("⟦", "\\⟦"))


_IMITATION = re.compile(r"(?<!\\)[\[{re}](?=[\s\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]*"
                        r"(?:主控|门禁))".replace("{re}", re.escape(LOOKALIKE)))


def check_text(text: str) -> str:
    """A dispatch is one prompt: printable text, newlines and tabs only (no escape sequences that
    could end a bracketed paste early or drive the terminal), not empty, not huge."""
    if not text.strip():
        raise A2AError("empty_text", "nothing to inject: the text is empty", exit_code=2)
    if len(text) > MAX_TEXT:
        raise A2AError("text_too_long", f"the text has {len(text)} characters (limit {MAX_TEXT})",
                       exit_code=2)
    bad = next((c for c in text if (ord(c) < 32 and c not in "\n\t") or ord(c) == 127), None)
    if bad is not None:
        raise A2AError("bad_text", f"the text contains control character {ord(bad):#04x};"
                       " only newlines and tabs are allowed", exit_code=2)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # stdin that was not UTF-8, read with surrogateescape
        raise A2AError("bad_text", "the text is not UTF-8", exit_code=2) from None
    return text


def enqueue_in_tx(tx, session_id: str, text: str, *, source: str, actor: str,
                  attempt: str | None = None) -> int:
    """Queue a dispatch for a session's pane inside the caller's write transaction.

    Returns the dispatch number n; the pasted text is `marker + " " + text`, with any marker
    inside the text escaped (`escape_markers`). A session that does
    not exist yet keeps its queue until it does (the gate may name a writer before its spawn).
    """
    check_text(text)
    n = tx.next_counter("dispatch")
    full = f"{marker(source, n, actor)} {escape_markers(text)}"
    now = time.time_ns()
    seq = tx.append("dispatch_queued", actor=actor, attempt=attempt, session=session_id,
                    payload=DispatchQueued(n=n, source=source, text=full))
    tx.execute("INSERT INTO dispatches(n, session, text, source, actor, attempt, state, queued_ns,"
               " queued_seq) VALUES (?,?,?,?,?,?, 'queued', ?, ?)",
               (n, session_id, full, source, actor, attempt, now, seq))
    return n


def wake(repo) -> None:
    """Tell a running orchestrator that the queue or a pane flag changed (call after commit)."""
    spool: Path = repo.spool_dir
    if not spool.is_dir():
        return
    name = f"wake-{time.time_ns()}-{os.getpid()}"
    tmp = spool / f".{name}.tmp"
    tmp.write_bytes(b"")
    os.replace(tmp, spool / f"{name}.wake")


def queued(tx, session_id: str) -> list:
    """The session's waiting dispatches, oldest first."""
    return tx.all("SELECT * FROM dispatches WHERE session = ? AND state = 'queued' ORDER BY n",
                  (session_id,))
