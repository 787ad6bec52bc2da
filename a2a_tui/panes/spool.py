"""Spool ingestion: each file `hooks/a2a-hook` renamed into a session's own spool folder
(`.a2a/spool/<session>/`) becomes one `signal` event and, through the pane state machine, the
pane's new state, in one transaction.

- **The channel is the folder.** A session's hooks get its folder (`--spool`), and a sandbox
  binds that folder alone, so a file in it says only what that session may say: its signals
  are taken for the folder's session, never for the session the file names. A file naming
  another session is quarantined with the reason, and so is any file at the spool's top (a
  signal outside its session's folder): only the wake files that `a2a inject/pause/...` drop
  after committing live there, and they carry nothing but "look again".
- Files are opened without following a symbolic link and read only when they are regular
  files: a link in a session's folder would otherwise have a2a, unconfined, read for the agent
  what its sandbox hides, and a FIFO would block ingestion.
- Idempotent: every file is recorded under its folder-qualified name (`<session>/<file>`,
  UNIQUE) in the transaction that ingests it; a crash between the commit and unlinking the file
  only leaves a file that is unlinked next time. Qualified, so a file one session writes can
  never stand for another's.
- Bad input never stops ingestion: malformed, oversized or unattributable files are moved to
  `quarantine/` (`quarantine/<session>/<file>` for a session's) with the reason recorded as a
  `signal_quarantined` event.
- A rate: a session's folder is its agent's to fill. Past `FLOOD_LIMIT` quarantines of one
  session (or of the spool's top) within `FLOOD_WINDOW_S`, one `spool_flooded` is recorded and
  every further file of that window that would be quarantined is deleted unread and
  unrecorded: junk cannot flood the user's record, the quarantine folder or the disk. Counted
  from the record itself, so a restarted orchestrator keeps the count.
- Order: files are taken by (ts_ns, name) across every folder; the hook names them
  `<ts_ns>-<session>-<pid>.json`.
"""

from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from a2a_tui.collab.user_input import record_user_input_in_tx
from a2a_tui.panes import machine
from a2a_tui.panes.records import ours, pane_of, save_pane, set_dispatch
from a2a_tui.panes.signals import MalformedSignal, Signal, parse
from a2a_tui.payloads import sessions as ps
from a2a_tui.payloads.dispatch import DispatchConfirmed, DispatchDone, DispatchEnded
from a2a_tui.repo import A2A_DIR, QUARANTINE, SPOOL

MAX_BYTES = 2 * 1024 * 1024
TRIM_CHARS = 4000
TRIM_DEPTH = 32
WAKE_SUFFIX = ".wake"
OUTSIDE = "a signal outside its session's folder"
FLOOD_LIMIT = 20           # quarantines recorded per session and window; then one spool_flooded
FLOOD_WINDOW_S = 60
DROPPED = "dropped"        # a file deleted unrecorded (the window's limit was reached)
_OPEN = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
Then = Callable[[Any, str], Any]   # (tx, session) -> anything, in the signal's transaction
now_ns = time.time_ns   # the clock of the rate's window (a test moves it)
# A dispatch's end by what the signal said of it (a Stop: done; the process gone: ended).
_ENDS = {"done": DispatchDone, "ended": DispatchEnded}


@dataclass(frozen=True)
class Ingested:
    """What one spool file became: its folder-qualified name and outcome (`ingested`,
    `ignored`, `quarantined`, `dropped`); a signal's seq, the pane's move and the CLI's event;
    why a file was refused; `again`: recorded before a crash, only its move finished now;
    `then`: what the caller's work in the signal's transaction returned."""

    file: str
    outcome: str
    again: bool = False
    reason: str | None = None
    seq: int | None = None
    from_: str | None = None
    to: str | None = None
    event: str | None = None
    then: Any = None


def pending(spool_dir: Path, folders: set[Path] | None = None) -> list[Path]:
    """Files waiting in the spool, oldest first: every session folder's, and whatever sits at
    the top (wake files; anything else is quarantined). With `folders` (where the watch saw
    something land), only those: the top when it is among them, and the session folders among
    them. Hidden names are temp files still being written; folders inside a session's folder
    are not looked into."""
    if folders is not None:   # the top, or folders just below it (the watch's own)
        found = []
        for folder in folders:
            if folder == spool_dir or folder.name != QUARANTINE:
                found += _entries(folder)
        return sorted(found, key=lambda p: _order(p.name))
    try:
        top = list(os.scandir(spool_dir))
    except FileNotFoundError:
        return []
    found = []
    for e in top:
        if e.name.startswith("."):
            continue
        if e.is_dir(follow_symlinks=False):
            if e.name != QUARANTINE:
                found += _entries(spool_dir / e.name)
        else:
            found.append(spool_dir / e.name)
    return sorted(found, key=lambda p: _order(p.name))


def session_folders(spool_dir: Path) -> list[Path]:
    """The session folders in the spool (the orchestrator watches each)."""
    try:
        return [spool_dir / e.name for e in os.scandir(spool_dir) if not e.name.startswith(".")
                and e.name != QUARANTINE and e.is_dir(follow_symlinks=False)]
    except FileNotFoundError:
        return []


def _entries(folder: Path) -> list[Path]:
    """The visible files of a folder; none when it is no folder (a link put in a folder's place
    included: its files are not the session's)."""
    try:
        fd = os.open(folder, _FOLDER)
    except OSError:   # gone, or not a folder (ELOOP: a link; ENOTDIR)
        return []
    try:
        with os.scandir(fd) as it:
            return [folder / e.name for e in it
                    if not e.name.startswith(".") and not e.is_dir(follow_symlinks=False)]
    finally:
        os.close(fd)


def folder_of(path: Path) -> str | None:
    """The session whose spool folder holds `path` (`.a2a/spool/<session>/<file>`); None for a
    file at the spool's top."""
    folder, _file = os.path.split(path)   # strings: this runs for every signal
    spool, name = os.path.split(folder)
    a2a, spool_name = os.path.split(spool)
    if spool_name == SPOOL and os.path.basename(a2a) == A2A_DIR and name != QUARANTINE:
        return _text(name)
    return None


def _order(name: str) -> tuple[int, str]:
    head = name.split("-", 1)[0]
    # ASCII digits only: str.isdigit() is true of '²', which int() refuses.
    return (int(head) if head.isascii() and head.isdigit() else 0, name)


def _text(name: str) -> str:
    # A name that is not UTF-8 (never the hook's) is recorded with its bytes escaped.
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def ingest(store, path: Path, then: Then | None = None) -> Ingested | None:
    """Ingest one spool file; returns what was recorded (None for a wake file or a vanished one).
    `then(tx, session)` runs in the transaction that records the signal; what it returns is the
    result's `then`."""
    name = _text(path.name)
    if name.endswith(WAKE_SUFFIX):
        _unlink(path)
        return None
    folder = folder_of(path)
    raw_folder = os.path.basename(os.path.dirname(path))
    key = name if folder is None else f"{folder}/{name}"
    done = store.one("SELECT outcome FROM spool_files WHERE name = ?", (key,))
    if done is not None:  # recorded before a crash: finish the file move only
        _finish(path, done["outcome"], folder)
        return Ingested(key, done["outcome"], again=True)
    if folder is None:
        return _quarantine(store, path, OUTSIDE, key, folder)
    if name != path.name or folder != raw_folder:
        return _quarantine(store, path, "file name is not UTF-8", key, folder)
    raw = _read(path)
    if raw is None:
        return None
    if isinstance(raw, str):
        return _quarantine(store, path, raw, key, folder)
    try:
        sig = parse(raw)
    except MalformedSignal as exc:
        return _quarantine(store, path, f"malformed: {exc}", key, folder)
    if sig.session != folder:
        return _quarantine(store, path, f"the file names session {sig.session!r} but lies in"
                           f" the folder of session {folder!r}", key, folder)
    result = record(store, sig, key, len(raw), then)
    _finish(path, result.outcome, folder)
    return result


def _read(path: Path) -> bytes | str | None:
    """The file's bytes; or why it is refused (str); None when it is gone."""
    try:
        fd = os.open(path, _OPEN)
    except FileNotFoundError:
        return None
    except OSError as exc:  # ELOOP: a symbolic link; or not ours to read
        return "a symbolic link" if os.path.islink(path) else \
            f"unreadable: {exc.strerror or exc}"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return "not a regular file"
        if st.st_size > MAX_BYTES:
            return f"oversized: {st.st_size} bytes (limit {MAX_BYTES})"
        chunks, size = [], 0
        while size <= MAX_BYTES:   # sized by fstat: one read, unless it grew meanwhile
            chunk = os.read(fd, st.st_size + 1 if not chunks else 65536)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
        return f"oversized: more than {MAX_BYTES} bytes (limit {MAX_BYTES})"
    except OSError as exc:
        return f"unreadable: {exc.strerror or exc}"
    finally:
        os.close(fd)


def record(store, sig: Signal, name: str, size: int | None = None,
           then: Then | None = None) -> Ingested:
    """Record one parsed signal under its spool file name, in one transaction (with `then`'s
    work, when given)."""
    with store.write() as tx:
        row = tx.one("SELECT * FROM sessions WHERE id = ?", (sig.session,))
        if row is None:
            reason = f"unknown session {sig.session!r}"
            outcome = _record_quarantine(tx, name, reason, size, sig.session, sig.ts_ns)
            return Ingested(name, outcome, reason=reason)
        result = _apply(tx, row, sig, name)
        if then is not None and (more := then(tx, sig.session)) is not None:
            return replace(result, then=more)
        return result


def _apply(tx, row, sig: Signal, name: str) -> Ingested:
    sid = row["id"]
    old = pane_of(row)
    if sig.ts_ns < row["created_ns"]:
        # Taken before this launch: the session's earlier life (it was restarted since), e.g.
        # the exit of the process a restart replaced, ingested late. It says nothing of this one.
        out = machine.Outcome(old, ignored="from before this launch of the session")
    else:
        out = machine.apply(old, sig, ours(tx, sid), prompts_signalled=_signals_prompts(tx, row))
    payload = ps.Signal(
        file=name, source=sig.source, event=sig.event, kind=sig.kind, ts_ns=sig.ts_ns,
        pane=sig.pane, from_=old.state, to=out.pane.state, detail=sig.detail,
        raw=_trim(sig.payload), ignored=out.ignored, confirmed=out.confirmed,
        finished=out.finished, ended=out.ended,
        hint=out.pane.hint if out.pane.hint and out.pane.hint != old.hint else None)
    actor = f"session:{sid}"
    seq = tx.append("signal", actor=actor, attempt=row["attempt_id"], session=sid, payload=payload)
    save_pane(tx, sid, old, out.pane, last_signal_ns=sig.ts_ns)
    _dispatch_effects(tx, row, out, sig, actor)
    outcome = "ignored" if out.ignored else "ingested"
    tx.execute("INSERT INTO spool_files(name, outcome, session, ts_ns, seq) VALUES (?,?,?,?,?)",
               (name, outcome, sid, sig.ts_ns, seq))
    return Ingested(name, outcome, seq=seq, from_=old.state, to=out.pane.state,
                    event=sig.event)


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
                      payload=DispatchConfirmed(n=out.confirmed, was=d["state"],
                                                ts_ns=sig.ts_ns))
    for n, state in ((out.finished, "done"), (out.ended, "ended")):
        if n is None:
            continue
        d = tx.one("SELECT state FROM dispatches WHERE n = ?", (n,))
        # An unknown dispatch stays unknown: a Stop does not prove which prompt it ended.
        if d is not None and d["state"] in ("sent", "delivered"):
            set_dispatch(tx, n, state, ended_ns=sig.ts_ns)
            tx.append(f"dispatch_{state}", actor=actor, attempt=attempt, session=sid,
                      payload=_ENDS[state](n=n, ts_ns=sig.ts_ns))
    if out.user_input is not None:
        # A user input record like any other (U-<n>), so the controller can quote it.
        uid = record_user_input_in_tx(
            tx, "message", out.user_input, source="pane", to_session=sid, attempt=attempt,
            details={"via": "pane", "pane": row["pane_id"], "ts_ns": sig.ts_ns})
        tx.append("human_intervention", actor="user", task=_task_of(tx, attempt),
                  attempt=attempt, session=sid,
                  payload=ps.HumanIntervention(user_input=uid, kind="typed_in_pane",
                                            ts_ns=sig.ts_ns))


def _task_of(tx, attempt: str | None) -> str | None:
    if attempt is None:
        return None
    r = tx.one("SELECT card_id FROM attempts WHERE id = ?", (attempt,))
    return r["card_id"] if r else None


def _quarantine(store, path: Path, reason: str, name: str, folder: str | None
                ) -> Ingested:
    try:
        size = path.lstat().st_size
    except OSError:
        size = None
    with store.write() as tx:
        outcome = _record_quarantine(tx, name, reason, size, folder, None)
    _finish(path, outcome, folder)
    return Ingested(name, outcome, reason=reason)


def _record_quarantine(tx, name: str, reason: str, size: int | None, session: str | None,
                       ts_ns: int | None) -> str:
    """Record the file as quarantined ("quarantined"), or, past the window's limit for its
    session, only the window's one `spool_flooded` ("dropped": the file is then deleted)."""
    since = now_ns() - int(FLOOD_WINDOW_S * 1e9)
    seen = tx.one("SELECT COUNT(*) FROM events WHERE kind = 'signal_quarantined' AND session IS ?"
                  " AND ts_ns >= ?", (session, since))[0]
    if seen >= FLOOD_LIMIT:
        told = tx.one("SELECT 1 FROM events WHERE kind = 'spool_flooded' AND session IS ?"
                      " AND ts_ns >= ?", (session, since))
        if told is None:
            tx.append("spool_flooded", actor="orchestrator", session=session,
                      payload=ps.SpoolFlooded(limit=FLOOD_LIMIT, window_s=FLOOD_WINDOW_S,
                                           first_dropped=name, reason=reason))
        return DROPPED
    seq = tx.append("signal_quarantined", actor="orchestrator", session=session,
                    payload=ps.SignalQuarantined(file=name, reason=reason, bytes=size,
                                              moved_to=f"quarantine/{name}"))
    tx.execute("INSERT INTO spool_files(name, outcome, session, ts_ns, seq) VALUES (?,?,?,?,?)",
               (name, "quarantined", session, ts_ns, seq))
    return "quarantined"


def _finish(path: Path, outcome: str, folder: str | None) -> None:
    if outcome == "quarantined":
        # Out of the session's folder (which its sandbox may write), beside the others.
        qdir = (path.parent / QUARANTINE if folder is None
                else path.parent.parent / QUARANTINE / path.parent.name)
        qdir.mkdir(parents=True, exist_ok=True)
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

