"""Bad input to the orchestrator: spool files, and what the CLIs hand the hook script.

A spool file comes from `hooks/a2a-hook` (the CLI's JSON on stdin, or Codex's notify JSON as
its last argument, wrapped in an envelope), or from anything else that can write into
`.a2a/spool/`. The orchestrator must take every file: ingest it (a `signal` event) or quarantine
it (a `signal_quarantined` event, the file moved to `quarantine/`), and go on.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
from pathlib import Path

import hypothesis.strategies as st

from a2a_tui.panes import spool
from a2a_tui.resources import hooks_dir
from a2a_tui.store import Store
from tests.fuzz.inputs import (
    damaged,
    deep_values,
    json_bytes,
    json_values,
    lone_surrogates,
    mutated_doc,
    text,
)
from tests.support import wait_until

HOOK = str(hooks_dir() / "a2a-hook")
ENVELOPE = {"v": 1, "ts_ns": 1_700_000_000_000_000_000, "session": "w1", "pane": "%1",
            "source": "claude", "payload": {"hook_event_name": "Stop", "session_id": "x"}}
# The CLIs' payloads that carry text: a prompt, Codex's input messages, a notification.
PAYLOADS = [{"hook_event_name": "UserPromptSubmit", "prompt": "⟦主控 #1⟧ hi"},
            {"type": "agent-turn-complete", "thread-id": "t", "input-messages": ["⟦主控 #1⟧"]},
            {"hook_event_name": "Notification", "notification_type": "permission_prompt"}]
markers = st.integers(1, 6000).map(lambda n: f"⟦主控 #{'9' * n}⟧")
# The keys and values the envelope and the CLIs' payloads are made of.
SIGNAL_VALUES = st.one_of(json_values, deep_values, lone_surrogates, markers,
                          st.sampled_from(["Stop", "UserPromptSubmit", "agent-turn-complete",
                                           "Notification", "w2", "claude", "codex"]))
ENVELOPE_KEYS = ["session", "ts_ns", "source", "payload", "pane", "v", "x"]
_unique = itertools.count()


def _tail(raw: bytes, extra: dict) -> bytes:
    """`raw` (a JSON object) with `extra`'s members written after its own: what the hook makes
    of a CLI's stdin that held one JSON value and then more."""
    return raw[:-1] + b", " + json_bytes(extra)[1:-1] + b"}"


@st.composite
def envelopes(draw: st.DrawFn) -> bytes:
    """Spool file contents: the envelope with fields of the wrong type or value, payloads of any
    JSON (NaN, huge integers, lone surrogates, deep nesting), members written after the payload,
    damaged files and junk."""
    kind = draw(st.sampled_from(["mutated", "mutated", "tail", "damaged", "junk"]))
    if kind == "junk":
        return draw(st.one_of(st.binary(max_size=300), text.map(str.encode)))
    if kind == "damaged":
        return draw(damaged(json_bytes(ENVELOPE)))
    seed = {**ENVELOPE, "payload": draw(st.sampled_from([ENVELOPE["payload"], *PAYLOADS]))}
    doc = draw(mutated_doc(seed, SIGNAL_VALUES))
    raw = json_bytes(doc, ensure_ascii=draw(st.booleans()))
    if kind == "tail" and raw.endswith(b"}"):
        raw = _tail(raw, draw(st.dictionaries(st.sampled_from(ENVELOPE_KEYS), SIGNAL_VALUES,
                                              min_size=1, max_size=3)))
    return raw


# A file name's head is the hook's timestamp (the spool's order); anything else can land too.
_heads = st.one_of(st.integers(0, 2**70).map(str), st.sampled_from(["", "²", "١٢", "x", "-"]),
                   text.filter(lambda s: "/" not in s and "\x00" not in s))
_tails = st.sampled_from([".json", ".json", "", ".tmp", ".wake.json", "\n.json", "\udcff.json"])


@st.composite
def spool_names(draw: st.DrawFn) -> str:
    """A visible file name, unique in the run (a name is recorded once: the spool's rule)."""
    raw = f"{draw(_heads)}-{next(_unique)}{draw(_tails)}".lstrip(".")
    name = os.fsdecode(os.fsencode(raw.replace("/", "_")))
    if draw(st.booleans()):  # not UTF-8 at all
        name = os.fsdecode(os.fsencode(name) + b"\xff")
    return name[-200:].lstrip(".") or f"{next(_unique)}.json"


spool_files = st.tuples(spool_names(), envelopes())


def clear(spool_dir: Path) -> None:
    """Remove what an earlier failed example left in the spool (each example starts empty)."""
    for name in visible(spool_dir):
        (spool_dir / name).unlink()


def land(spool_dir: Path, name: str, data: bytes) -> Path:
    """Write a file into the spool as the hook does: a hidden temp file, renamed into place."""
    tmp = spool_dir / f".{next(_unique)}.tmp"
    tmp.write_bytes(data)
    path = spool_dir / name
    os.replace(tmp, path)
    return path


def good_signal(spool_dir: Path, session: str = "w1", event: str = "PreToolUse") -> str:
    """A well-formed signal for `session`, written by the real hook script (into a folder of
    its own outside the spool, then renamed into `spool_dir`, the session's spool folder, so
    that its name is known before a running orchestrator takes it); its name as recorded
    (`<session folder>/<file>`)."""
    staging = spool_dir.parent.parent / "fuzz-staging"
    staging.mkdir(exist_ok=True)
    payload = json.dumps({"hook_event_name": event, "session_id": "x", "tool_name": "Bash"})
    subprocess.run([HOOK, "--spool", str(staging), "--session", session, "claude"],
                   input=payload.encode(), check=True, timeout=20)
    (name,) = os.listdir(staging)
    os.replace(staging / name, spool_dir / name)
    return f"{spool_dir.name}/{name}"


def hook(spool_dir: Path, source: str, stdin: bytes, argv: list[str], session: str = "w1"
         ) -> subprocess.CompletedProcess:
    """The real hook script, called as a CLI calls it."""
    return subprocess.run([HOOK, "--spool", str(spool_dir), "--session", session, "--pane", "%1",
                           source, *argv], input=stdin, capture_output=True, timeout=20)


def ingest_all(store: Store, spool_dir: Path) -> None:
    """What one orchestrator cycle does with the spool (Orchestrator._cycle): every waiting
    file of every folder (`spool_dir` is a session's), in order, until none is left."""
    top = spool_dir.parent
    for _ in range(10):
        files = spool.pending(top)
        if not files:
            return
        for path in files:
            spool.ingest(store, path)
    raise AssertionError(f"the spool does not empty: {spool.pending(top)}")


def visible(spool_dir: Path) -> list[str]:
    """Files in the spool that are not hidden temp files."""
    return sorted(e.name for e in os.scandir(spool_dir) if e.is_file()
                  and not e.name.startswith("."))


def recorded(store: Store) -> int:
    return store.one("SELECT COUNT(*) FROM spool_files")[0]


def wait_gone(spool_dir: Path, timeout: float = 30) -> None:
    wait_until(lambda: not visible(spool_dir), timeout=timeout, what="the spool emptied")
