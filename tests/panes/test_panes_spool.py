"""Spool ingestion: bad files quarantined, order kept, nothing ingested twice."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from a2a_tui.panes import spool
from a2a_tui.repo import Repo
from a2a_tui.resources import hooks_dir
from tests.support import events, register_session, session, signals, spawn, wait_state, wait_until

HOOK = str(hooks_dir() / "a2a-hook")


def hook(spool_dir: Path, sid: str, payload: dict) -> None:
    """Run the real hook script the way Claude Code would."""
    subprocess.run([HOOK, "--spool", str(spool_dir), "--session", sid, "claude"],
                   input=json.dumps(payload), text=True, check=True)


def test_malformed_and_oversized_files_are_quarantined_while_ingestion_goes_on(
        repo, tmux_socket, serve):
    serve()
    sid = spawn(repo, tmux_socket, "--delay", "0.1")["session"]
    wait_state(repo, sid, "idle")
    top = repo / ".a2a/spool"
    sp = top / sid
    ghost = top / "ghost"
    ghost.mkdir()
    bad = {
        f"{sid}/1-bad-json.json": b"{not json",
        f"{sid}/2-no-session.json": b'{"v":1,"ts_ns":5,"source":"claude","payload":{}}',
        "ghost/3-stranger.json": b'{"v":1,"ts_ns":5,"session":"ghost","source":"claude",'
                                 b'"payload":{"hook_event_name":"Stop"}}',
        f"{sid}/4-huge.json": b"x" * (spool.MAX_BYTES + 1),
    }
    for name, data in bad.items():
        folder, file = name.split("/")
        (top / folder / f".{file}.tmp").write_bytes(data)
        (top / folder / f".{file}.tmp").rename(top / name)
    # A good signal after the bad ones is still ingested.
    hook(sp, sid, {"hook_event_name": "PreToolUse", "session_id": "x", "tool_name": "Bash"})
    wait_state(repo, sid, "busy")
    q = wait_until(lambda: len(events(repo, "signal_quarantined")) == 4
                   and events(repo, "signal_quarantined"), what="four quarantines")
    reasons = {e.payload["file"]: e.payload["reason"] for e in q}
    assert reasons[f"{sid}/1-bad-json.json"].startswith("malformed: not JSON")
    assert reasons[f"{sid}/2-no-session.json"] == "malformed: session missing"
    assert reasons["ghost/3-stranger.json"] == "unknown session 'ghost'"
    assert reasons[f"{sid}/4-huge.json"].startswith("oversized:")
    # A file leaves the spool after the transaction that records it commits: wait for it.
    wait_until(lambda: sorted(f"{p.parent.name}/{p.name}"
                              for p in (top / "quarantine").glob("*/*")) == sorted(bad),
               what="the four files moved to quarantine/")
    wait_until(lambda: not [p for p in sp.iterdir() if p.is_file()],
               what="the session's spool folder emptied")


def test_signals_written_while_no_orchestrator_runs_are_ingested_on_start_in_order(
        repo, tmux_socket, serve):
    register_session(repo, "w9", state="unknown")
    sp = repo / ".a2a/spool/w9"
    sp.mkdir()
    for ev in ("SessionStart", "UserPromptSubmit", "PreToolUse", "Stop"):
        hook(sp, "w9", {"hook_event_name": ev, "session_id": "x", "source": "startup",
                        "prompt": "typed"})
    serve()
    wait_until(lambda: len(signals(repo, "w9")) == 4, what="four signals")
    sigs = signals(repo, "w9")
    assert [s["event"] for s in sigs] == ["SessionStart", "UserPromptSubmit", "PreToolUse", "Stop"]
    assert [(s["from"], s["to"]) for s in sigs] == [
        ("unknown", "idle"), ("idle", "busy"), ("busy", "busy"), ("busy", "idle")]
    assert session(repo, "w9")["state"] == "idle"


def test_a_file_recorded_but_not_unlinked_before_a_crash_is_not_ingested_twice(repo):
    register_session(repo, "w9", state="unknown")
    sp = repo / ".a2a/spool/w9"
    sp.mkdir()
    hook(sp, "w9", {"hook_event_name": "SessionStart", "session_id": "x", "source": "startup"})
    (f,) = spool.pending(sp)
    keep = repo.parent / f.name
    shutil.copy(f, keep)
    st = Repo(repo).store()
    assert spool.ingest(st, f).outcome == "ingested"
    shutil.copy(keep, f)  # as if the process died between the commit and the unlink
    again = spool.ingest(st, f)
    assert again.again is True and not f.exists()
    assert len(st.events(kinds=["signal"], session="w9")) == 1


def test_ordering_is_by_timestamp_then_name_across_the_session_folders(tmp_path):
    (tmp_path / "w1").mkdir()
    (tmp_path / "w2").mkdir()
    (tmp_path / "quarantine").mkdir()
    for name in ("w2/20-b.json", "w1/3-a.json", "w1/20-a.json", "wake-1.wake", ".tmp-hidden",
                 "w1/.tmp-hidden", "quarantine/1-q.json"):
        (tmp_path / name).write_text("")
    assert [f"{p.parent.name}/{p.name}" for p in spool.pending(tmp_path)] == [
        f"{tmp_path.name}/wake-1.wake", "w1/3-a.json", "w1/20-a.json", "w2/20-b.json"]
