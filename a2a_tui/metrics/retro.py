"""Retrospectives: a prompt made of a period's views and its notable events, a session launched
with it (role card `rolecards/retro.md`), and what that session writes kept as a `retro_saved`
event. With `retro_every` in `.a2a/config.toml`, the orchestrator and the gate commands put one
question on the board per period proposing a retrospective; nothing runs on its own.
"""

# Imports inside functions: the board loads only when a retrospective is due (most gate
# commands return before).

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.kinds import EventKind
from a2a_tui.metrics import compute_json, history, parse_since, render
from a2a_tui.metrics.history import History
from a2a_tui.metrics.kinds import STALLS_AND_STOPS
from a2a_tui.metrics.tables import fmt_s
from a2a_tui.payloads.retro import RetroProposed, RetroSaved, RetroStarted

MAX_TEXT = 64 * 1024          # a retrospective is a document, not a log
LOG_SCAN = 256 * 1024         # how much of a check's log is searched for its first error
NOTABLE_MAX = 40              # lines per kind of notable event in a prompt
_FIRST_ERROR = re.compile(r"^(E\s|FAILED|ERROR|Error|error[:\[]|Traceback|.*\berror:)")


def _when(ts_ns: int | None) -> str:
    return "-" if ts_ns is None else datetime.fromtimestamp(ts_ns / 1e9).strftime(
        "%Y-%m-%d %H:%M")


# --- what the prompt says -----------------------------------------------------------------------

def notable(store, h: History) -> dict[str, list[str]]:
    """Rejections with their first errors, the user's interventions (with what was typed), stalls
    and stops, as lines for a prompt."""
    out: dict[str, list[str]] = {"rejections": [], "interventions": [], "stalls and stops": []}
    for a in sorted(h.attempts.values(), key=lambda a: a.seq):
        for r in a.rejections:
            out["rejections"].append(f"{a.id} ({a.task}) at {r.step} / {r.code}: "
                                     + _first_error(store, a.id, r.run, r.code))
    for i in h.attention:
        where = f"{h.task_of(i)} ({i.session or 'no session'})"
        if i.kind == "intervention":
            out["interventions"].append(f"{where}: {i.ref}" + _typed(store, i.seq))
        elif i.kind in STALLS_AND_STOPS:
            out["stalls and stops"].append(f"{where}: {i.kind} at {_when(i.asked_ns)}, waited"
                                           f" {fmt_s(i.waited_s)}, {i.state}")
    return {k: v[-NOTABLE_MAX:] for k, v in out.items()}


def _first_error(store, attempt: str, run: int | None, check: str) -> str:
    """The failing check's detail, and the first error line of its log when there is one."""
    row = store.one("SELECT payload FROM events WHERE attempt = ? AND kind = 'check_result'"
                    " AND json_extract(payload, '$.name') = ? AND json_extract(payload, '$.run')"
                    " IS ? ORDER BY seq DESC LIMIT 1", (attempt, check, run))
    if row is None:
        return "(no check result recorded)"
    p = json.loads(row[0])
    text = str(p.get("first_error") or p.get("detail") or "")
    log = p.get("log") or p.get("log_path")
    if log and not p.get("first_error"):
        try:
            with open(log, encoding="utf-8", errors="replace") as f:
                head = f.read(LOG_SCAN)
        except OSError:
            head = ""
        first = next((ln.strip() for ln in head.splitlines() if _FIRST_ERROR.match(ln)), "")
        if first:
            text += f" — {first[:200]}"
        text += f" (log {log})"
    return text


def _typed(store, seq: int) -> str:
    row = store.one("SELECT json_extract(u.payload, '$.text') FROM events i JOIN events u"
                    " ON u.kind = 'user_input' AND json_extract(u.payload, '$.id') ="
                    " json_extract(i.payload, '$.user_input') WHERE i.seq = ?", (seq,))
    return f": “{row[0][:160]}”" if row and row[0] else ""


def prompt(store, *, since_ns: int | None, retro_id: str) -> str:
    """The retrospective's prompt but its last section (`output_section`, which names where
    the session writes): the period's views as `a2a metrics` prints them, and its notable
    events."""
    views = compute_json(store, since_ns=since_ns)
    h = history(store, since_ns=since_ns)
    lines = [f"# Retrospective {retro_id}",
             f"Period: {_when(since_ns) if since_ns else 'from the start'} to"
             f" {_when(h.now_ns)} (events up to #{h.last_seq}).", "",
             "## The figures (`a2a metrics`, computed from the event log)", "", "```",
             render(views), "```", "", "## Notable events"]
    for title, items in notable(store, h).items():
        lines += ["", f"### {title.capitalize()}"] + ([f"- {x}" for x in items] or ["- none"])
    return "\n".join(lines) + "\n"


def output_section(out_file: Path) -> str:
    return ("\n## Your output\n"
            f"Write the retrospective in Markdown to {out_file}, then run:\n"
            f"    a2a retro save --file {out_file}\n")


# --- start and save -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Prepared:
    """A numbered retrospective and its figures, before its session is known."""

    retro: str
    since_ns: int | None
    figures: str


def prepare(g, *, since: str | None) -> Prepared:
    """Number a retrospective and compute its prompt's figures (the period's views and notable
    events, before its own session's launch is among them). Nothing is written to disk: the
    caller launches the session, then `place`s the prompt where that session can read it."""
    since_ns = None if since is None else parse_since(since)
    with g.store.write() as tx:
        retro_id = f"R-{tx.next_counter('R')}"
    return Prepared(retro_id, since_ns, prompt(g.store, since_ns=since_ns, retro_id=retro_id))


def place(prepared: Prepared, *, prompt_file: Path, out_file: Path) -> RetroStarted:
    """Write the prompt to `prompt_file`, telling the session to write to `out_file`: both in
    the retro session's own folders, the only ones under `.a2a/` its confinement shows it
    (a2a_tui/confine/policy.py). Returns what `record_started` records."""
    text = prepared.figures + output_section(out_file)
    prompt_file.parent.mkdir(parents=True, exist_ok=True)
    prompt_file.write_text(text, encoding="utf-8")
    return RetroStarted(id=prepared.retro, since_ns=prepared.since_ns, prompt=str(prompt_file),
                        output=str(out_file),
                        prompt_digest="sha256:" + hashlib.sha256(text.encode()).hexdigest())


def record_started(g, placed: RetroStarted, session: str) -> None:
    """`retro_started`: which session reads which prompt."""
    with g.store.write() as tx:
        tx.append(EventKind.RETRO_STARTED, actor=g.caller.actor, session=session, payload=placed)


def first_prompt(placed: RetroStarted) -> str:
    """What the retro session is told to do."""
    return (f"Retrospective {placed.id}: read {placed.prompt} and follow it (write"
            f" to {placed.output}, then `a2a retro save --file {placed.output}`).")


@dataclass(frozen=True)
class Saved:
    """A retrospective kept: its id, its event, its size and its first line."""

    retro: str
    seq: int
    bytes: int
    title: str

    def to_json(self) -> JsonObject:
        return {"retro": self.retro, "seq": self.seq, "bytes": self.bytes, "title": self.title}


def save(store, caller, path: str, retro_id: str | None = None) -> Saved:
    """Keep a retrospective's text as a `retro_saved` event (the user's, or a retro session's)."""
    if caller.session is not None and caller.role != "retro":
        raise A2AError("role_forbidden", f"{caller.describe()} may not save a retrospective:"
                       " the retro session or the user does", exit_code=1)
    file = Path(path)
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise A2AError("bad_file", f"--file {path}: {exc.strerror or exc}", exit_code=2) from None
    if len(raw) > MAX_TEXT:
        raise A2AError("bad_file", f"--file {path}: {len(raw)} bytes; a retrospective is at most"
                       f" {MAX_TEXT} bytes", exit_code=2)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise A2AError("bad_file", f"--file {path}: not UTF-8 text", exit_code=2) from None
    if not text.strip():
        raise A2AError("bad_file", f"--file {path} is empty", exit_code=2)
    with store.write() as tx:
        started = _started(tx, retro_id, caller.session)
        if retro_id is not None and started is None:
            raise A2AError("unknown_retro", f"no retrospective {retro_id!r} was started",
                           exit_code=2)
        rid = started.id if started else f"R-{tx.next_counter('R')}"
        seq = tx.append(EventKind.RETRO_SAVED, actor=caller.actor, session=caller.session,
                        payload=RetroSaved(
                            id=rid, text=text, file=str(file.resolve()),
                            since_ns=started.since_ns if started else None,
                            digest="sha256:" + hashlib.sha256(raw).hexdigest()))
    return Saved(rid, seq, len(raw), text.strip().splitlines()[0][:120])


def _started(tx, retro_id: str | None, session: str | None) -> RetroStarted | None:
    if retro_id is not None:
        row = tx.one("SELECT payload FROM events WHERE kind = ? AND json_extract(payload, '$.id')"
                     " = ?", (EventKind.RETRO_STARTED, retro_id))
    elif session is not None:
        row = tx.one("SELECT payload FROM events WHERE kind = ? AND session = ? ORDER BY seq DESC"
                     " LIMIT 1", (EventKind.RETRO_STARTED, session))
    else:
        row = None
    return RetroStarted.read(json.loads(row[0])) if row else None


# --- the weekly proposal -----------------------------------------------------------------------

def propose_if_due(repo, store, now_ns: int | None = None) -> str | None:
    """With `retro_every` set, ask the user on the board once per period whether to run a
    retrospective (recorded as `retro_proposed` in the same transaction). Returns the question's
    id, or None when none is due."""
    every = repo.config().retro_every
    if not every:
        return None
    now_ns = time.time_ns() if now_ns is None else now_ns
    period = now_ns - parse_since(every, now_ns)
    from a2a_tui.collab.board import post_question_in_tx

    with store.write() as tx:
        last = tx.one("SELECT MAX(ts_ns) FROM events WHERE kind IN (?, ?)",
                      (EventKind.RETRO_PROPOSED, EventKind.RETRO_SAVED))[0]
        since = last or tx.one("SELECT MIN(ts_ns) FROM events")[0] or now_ns
        if now_ns - since < period:
            return None
        qid = post_question_in_tx(
            tx, title=f"Run a retrospective of the last {every}?",
            body=f"retro_every = \"{every}\" in .a2a/config.toml. `a2a retro --since {every}`"
                 " launches a session that reads the period's figures and writes what they"
                 " teach; answering here runs nothing.",
            options=[{"key": "a", "text": f"Yes: I will run `a2a retro --since {every}`"},
                     {"key": "b", "text": "Not this period"}],
            recommend="a", why="the figures of a period are easiest to act on while it is fresh",
            actor="a2a")
        tx.append(EventKind.RETRO_PROPOSED, actor="a2a", ts_ns=now_ns,
                  payload=RetroProposed(question=qid, every=every, since_ns=since))
    return qid
