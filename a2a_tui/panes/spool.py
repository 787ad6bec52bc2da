"""Spool ingestion: each file `hooks/a2a-hook` renamed into `.a2a/spool/` becomes one `signal`
event and, through the pane state machine, the pane's new state, in one transaction.

- Idempotent: every file name is recorded (UNIQUE) in the transaction that ingests it; a crash
  between the commit and unlinking the file only leaves a file that is unlinked next time.
- Bad input never stops ingestion: malformed, oversized or unattributable files are moved to
  `quarantine/` with the reason recorded as a `signal_quarantined` event.
- Order: files are taken by (ts_ns, name); the hook names them `<ts_ns>-<session>-<pid>.json`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from a2a_tui.collab.user_input import record_user_input_in_tx
from a2a_tui.panes import machine
from a2a_tui.panes.records import ours, pane_of, save_pane, set_dispatch
from a2a_tui.panes.signals import MalformedSignal, Signal, parse

MAX_BYTES = 2 * 1024 * 1024
TRIM_CHARS = 4000
TRIM_DEPTH = 32
WAKE_SUFFIX = ".wake"


def pending(spool_dir: Path) -> list[Path]:
    """Files waiting in the spool, oldest first. Hidden names are temp files still being written."""
    try:
        names = [e.name for e in os.scandir(spool_dir)
                 if e.is_file() and not e.name.startswith(".")]
    except FileNotFoundError:
        return []
    return [spool_dir / n for n in sorted(names, key=_order)]


def _order(name: str) -> tuple[int, str]:
    head = name.split("-", 1)[0]
    # ASCII digits only: str.isdigit() is true of '²', which int() refuses.
    return (int(head) if head.isascii() and head.isdigit() else 0, name)


def ingest(store, path: Path) -> dict[str, Any] | None:
    """Ingest one spool file; returns what was recorded (None for a wake file or a vanished one)."""
    # A name that is not UTF-8 (never the hook's) is recorded with its bytes escaped.
    name = path.name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    if name.endswith(WAKE_SUFFIX):
        _unlink(path)
        return None
    done = store.one("SELECT outcome FROM spool_files WHERE name = ?", (name,))
    if done is not None:  # recorded before a crash: finish the file move only
        _finish(path, done["outcome"])
        return {"file": name, "outcome": done["outcome"], "again": True}
    if name != path.name:
        return _quarantine(store, path, "file name is not UTF-8", name)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            return _quarantine(store, path, f"oversized: {size} bytes (limit {MAX_BYTES})")
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:  # not ours to read (permissions, a folder renamed over it)
        return _quarantine(store, path, f"unreadable: {exc.strerror or exc}")
    try:
        sig = parse(raw)
    except MalformedSignal as exc:
        return _quarantine(store, path, f"malformed: {exc}")
    result = record(store, sig, name, size)
    _finish(path, result["outcome"])
    return result


def record(store, sig: Signal, name: str, size: int | None = None) -> dict[str, Any]:
    """Record one parsed signal under its spool file name, in one transaction."""
    with store.write() as tx:
        row = tx.one("SELECT * FROM sessions WHERE id = ?", (sig.session,))
        if row is None:
            reason = f"unknown session {sig.session!r}"
            _record_quarantine(tx, name, reason, size, sig.session, sig.ts_ns)
            return {"file": name, "outcome": "quarantined", "reason": reason}
        return _apply(tx, row, sig, name)


def _apply(tx, row, sig: Signal, name: str) -> dict[str, Any]:
    sid = row["id"]
    old = pane_of(row)
    if sig.ts_ns < row["created_ns"]:
        # Taken before this launch: the session's earlier life (it was restarted since), e.g.
        # the exit of the process a restart replaced, ingested late. It says nothing of this one.
        out = machine.Outcome(old, ignored="from before this launch of the session")
    else:
        out = machine.apply(old, sig, ours(tx, sid), prompts_signalled=_signals_prompts(tx, row))
    payload: dict[str, Any] = {
        "file": name, "source": sig.source, "event": sig.event, "kind": sig.kind,
        "ts_ns": sig.ts_ns, "pane": sig.pane, "from": old.state, "to": out.pane.state,
        "detail": sig.detail, "raw": _trim(sig.payload),
    }
    for key in ("ignored", "confirmed", "finished", "ended"):
        if getattr(out, key) is not None:
            payload[key] = getattr(out, key)
    if out.pane.hint and out.pane.hint != old.hint:
        payload["hint"] = out.pane.hint
    actor = f"session:{sid}"
    seq = tx.append("signal", actor=actor, attempt=row["attempt_id"], session=sid, payload=payload)
    save_pane(tx, sid, old, out.pane, last_signal_ns=sig.ts_ns)
    _dispatch_effects(tx, row, out, sig, actor)
    outcome = "ignored" if out.ignored else "ingested"
    tx.execute("INSERT INTO spool_files(name, outcome, session, ts_ns, seq) VALUES (?,?,?,?,?)",
               (name, outcome, sid, sig.ts_ns, seq))
    return {"file": name, "outcome": outcome, "seq": seq, "from": old.state,
            "to": out.pane.state, "event": sig.event}


def _signals_prompts(tx, row) -> bool:
    """The session's launch record says its CLI signals each submitted prompt."""
    if row["launch_seq"] is None:
        return False
    launch = tx.one("SELECT json_extract(payload, '$.prompt_signal') FROM events WHERE seq = ?",
                    (row["launch_seq"],))
    return launch is not None and launch[0] == 1


def _dispatch_effects(tx, row, out: machine.Outcome, sig: Signal, actor: str) -> None:
    sid, attempt = row["id"], row["attempt_id"]
    if out.confirmed is not None:
        d = tx.one("SELECT state FROM dispatches WHERE n = ?", (out.confirmed,))
        if d is not None and d["state"] in ("sending", "sent", "unknown", "released", "ended"):
            set_dispatch(tx, out.confirmed, "delivered", confirmed_ns=sig.ts_ns)
            tx.append("dispatch_confirmed", actor=actor, attempt=attempt, session=sid,
                      payload={"n": out.confirmed, "was": d["state"], "ts_ns": sig.ts_ns})
    for n, state in ((out.finished, "done"), (out.ended, "ended")):
        if n is None:
            continue
        d = tx.one("SELECT state FROM dispatches WHERE n = ?", (n,))
        # An unknown dispatch stays unknown: a Stop does not prove which prompt it ended.
        if d is not None and d["state"] in ("sent", "delivered"):
            set_dispatch(tx, n, state, ended_ns=sig.ts_ns)
            tx.append(f"dispatch_{state}", actor=actor, attempt=attempt, session=sid,
                      payload={"n": n, "ts_ns": sig.ts_ns})
    if out.user_input is not None:
        # A user input record like any other (U-<n>), so the controller can quote it.
        uid = record_user_input_in_tx(
            tx, "message", out.user_input, source="pane", to_session=sid, attempt=attempt,
            details={"via": "pane", "pane": row["pane_id"], "ts_ns": sig.ts_ns})
        tx.append("human_intervention", actor="user", task=_task_of(tx, attempt),
                  attempt=attempt, session=sid,
                  payload={"user_input": uid, "kind": "typed_in_pane", "ts_ns": sig.ts_ns})


def _task_of(tx, attempt: str | None) -> str | None:
    if attempt is None:
        return None
    r = tx.one("SELECT card_id FROM attempts WHERE id = ?", (attempt,))
    return r["card_id"] if r else None


def _quarantine(store, path: Path, reason: str, name: str | None = None) -> dict[str, Any]:
    name = name or path.name
    try:
        size = path.lstat().st_size
    except OSError:
        size = None
    with store.write() as tx:
        _record_quarantine(tx, name, reason, size, None, None)
    _finish(path, "quarantined")
    return {"file": name, "outcome": "quarantined", "reason": reason}


def _record_quarantine(tx, name: str, reason: str, size: int | None, session: str | None,
                       ts_ns: int | None) -> None:
    seq = tx.append("signal_quarantined", actor="orchestrator", session=session,
                    payload={"file": name, "reason": reason, "bytes": size,
                             "moved_to": f"quarantine/{name}"})
    tx.execute("INSERT INTO spool_files(name, outcome, session, ts_ns, seq) VALUES (?,?,?,?,?)",
               (name, "quarantined", session, ts_ns, seq))


def _finish(path: Path, outcome: str) -> None:
    if outcome == "quarantined":
        qdir = path.parent / "quarantine"
        qdir.mkdir(exist_ok=True)
        try:
            os.replace(path, qdir / path.name)
        except FileNotFoundError:
            pass  # already moved by an earlier run
    else:
        _unlink(path)


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def _trim(obj: Any, depth: int = 0) -> Any:
    """The raw payload as recorded: long strings (tool inputs, transcripts) cut to a head, and
    what is nested deeper than TRIM_DEPTH cut off (JSON can nest deeper than Python recurses)."""
    if isinstance(obj, str):
        return obj if len(obj) <= TRIM_CHARS else obj[:TRIM_CHARS] + f"… [{len(obj)} chars]"
    if isinstance(obj, dict | list) and depth >= TRIM_DEPTH:
        return f"… [nested deeper than {TRIM_DEPTH}]"
    if isinstance(obj, dict):
        return {k: _trim(v, depth + 1) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_trim(v, depth + 1) for v in obj]
    return obj

