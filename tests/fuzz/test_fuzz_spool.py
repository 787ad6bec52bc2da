"""Bad input to the orchestrator, fuzzed: every spool file is ingested or quarantined, the
ingestion goes on with the next good file, and the store stays whole; the hook script stays
silent and never lets a CLI's JSON speak for another session."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import hypothesis.strategies as st
from hypothesis import example, given

from a2a_tui.panes import spool
from a2a_tui.repo import Repo
from tests.fuzz.budget import budget
from tests.fuzz.inputs import json_bytes, json_values, text
from tests.fuzz.invariants import assert_whole
from tests.fuzz.spool import (
    clear,
    good_signal,
    hook,
    ingest_all,
    land,
    recorded,
    spool_files,
    visible,
    wait_gone,
)
from tests.support import register_session, store, wait_until

# Files that once stopped the orchestrator (each raised out of the ingestion).
KNOWN = [
    ("1-huge-ts.json", b'{"v":1,"ts_ns":99999999999999999999999,"session":"w1","pane":"%1",'
                       b'"source":"claude","payload":{"hook_event_name":"Stop"}}'),
    ("2-nan.json", b'{"v":1,"ts_ns":5,"session":"w1","pane":"%1","source":"claude",'
                   b'"payload":{"hook_event_name":"Stop","x":NaN}}'),
    ("3-deep.json", b'{"v":1,"ts_ns":5,"session":"w1","pane":"%1","source":"claude",'
                    b'"payload":{"hook_event_name":"Stop","x":' + b"[" * 900 + b"]" * 900
                    + b"}}"),
    ("4-surrogate.json", b'{"v":1,"ts_ns":5,"session":"w1","pane":"%1","source":"claude",'
                         b'"payload":{"hook_event_name":"Stop","x":"\\ud800"}}'),
    ("\u00b2-5.json", b'{"v":1,"ts_ns":5,"session":"w1","pane":"%1","source":"claude",'
                      b'"payload":{"hook_event_name":"Stop"}}'),
    ("7-marker.json", b'{"v":1,"ts_ns":5,"session":"w1","pane":"%1","source":"claude",'
                      b'"payload":{"hook_event_name":"UserPromptSubmit","prompt":"\xe2\x9f\xa6'
                      b'\xe4\xb8\xbb\xe6\x8e\xa7 #' + b"9" * 5000 + b'\xe2\x9f\xa7"}}'),
    (os.fsdecode(b"6-\xff.json"), b'{"v":1,"ts_ns":5,"session":"w1","pane":"%1",'
                                  b'"source":"claude","payload":{"hook_event_name":"Stop"}}'),
]


def _sessions(root) -> Path:
    """Sessions w1 and w2; w1's spool folder, where every file of these tests lands (a hook,
    or an agent, writes only its own session's folder)."""
    register_session(root, "w1", state="idle", pane_id="%1")
    register_session(root, "w2", state="idle", pane_id="%2")
    folder = Repo(root).session_spool_dir("w1")
    folder.mkdir()
    return folder


def test_every_spool_file_is_ingested_or_quarantined_and_the_next_good_one_ingested(
        repo, monkeypatch):
    spool_dir = _sessions(repo)
    monkeypatch.setattr(spool, "FLOOD_LIMIT", 10**9)   # every file recorded: no rate here

    @budget(60)
    @given(st.lists(spool_files, min_size=1, max_size=4))
    def feed(files):
        clear(spool_dir)
        with store(repo) as s:
            before = recorded(s)
            for name, data in files:
                land(spool_dir, name, data)
            good = good_signal(spool_dir)
            ingest_all(s, spool_dir)
            assert visible(spool_dir) == []
            # One record per file (wake files are only unlinked), the good one not quarantined.
            assert recorded(s) - before == 1 + sum(not n.endswith(".wake") for n, _ in files)
            row = s.one("SELECT outcome FROM spool_files WHERE name = ?", (good,))
            assert row["outcome"] in ("ingested", "ignored"), row["outcome"]
            assert_whole(s)

    for name, data in KNOWN:
        feed = example([(name, data)])(feed)
    feed()


payloads = st.one_of(json_values.map(json_bytes), st.binary(max_size=200), text.map(str.encode),
                     st.builds(lambda a, b: json_bytes(a) + b, json_values,
                               st.sampled_from([b', "session": "w2"', b'}, "session":"w2", "x":{',
                                                b', "ts_ns": 1', b"\n{}"])))


def test_the_hook_is_silent_and_its_file_speaks_only_for_its_own_session(repo):
    """Whatever a CLI hands the hook (stdin, or Codex's notify argument), the hook exits 0 and
    prints nothing; what it spools is ingested for the session it was started for, or
    quarantined, never recorded as another session's signal."""
    spool_dir = _sessions(repo)

    @budget(40)
    @given(st.sampled_from(["claude", "gemini", "codex", "codex-stdin", "tmux"]), payloads,
           st.lists(text.filter(lambda a: "\x00" not in a), max_size=2))
    def feed(source, data, before_args):
        clear(spool_dir)
        with store(repo) as s:
            seq = s.last_seq()
            if source == "codex":  # notify: the JSON is the last argument
                arg = data.decode("utf-8", "replace").replace("\x00", "")
                r = hook(spool_dir, "codex", b"", [*before_args, arg])
            elif source == "tmux":  # pane-died: the event and the status come from tmux
                r = hook(spool_dir, "tmux", b"", before_args)
            else:
                r = hook(spool_dir, source.removesuffix("-stdin"), data, [])
            assert (r.returncode, r.stdout, r.stderr) == (0, b"", b"")
            ingest_all(s, spool_dir)
            assert visible(spool_dir) == []
            for e in s.events(after=seq, kinds=["signal"]):
                assert e.session == "w1", f"a signal recorded for {e.session}: {e.payload}"
            assert_whole(s)

    feed = example("claude", b'{"hook_event_name":"Stop"}, "session": "w2"', [])(feed)
    feed()


def test_a_running_orchestrator_quarantines_bad_files_and_still_ingests_a_good_one(repo, serve):
    """The real `a2a serve`, left running across every example: each batch of bad files is
    taken (ingested or quarantined), the good file after it is ingested, and the process is
    alive at the end."""
    spool_dir = _sessions(repo)
    served = serve()

    @budget(6)
    @given(st.lists(spool_files, min_size=1, max_size=6))
    def feed(files):
        for name, data in files:
            land(spool_dir, name, data)
        good = good_signal(spool_dir)
        wait_until(lambda: _outcome(repo, good), timeout=30, interval=0.02,
                   what=f"the good file {good} to be ingested\n{served.output()}")
        assert _outcome(repo, good) in ("ingested", "ignored")
        wait_gone(spool_dir)
        assert served.proc.poll() is None, served.output()
        with store(repo) as s:
            assert_whole(s)

    feed = example(KNOWN)(feed)
    feed()
    assert served.proc.poll() is None, served.output()


def _outcome(repo, name: str) -> str | None:
    with store(repo) as s:
        row = s.one("SELECT outcome FROM spool_files WHERE name = ?", (name,))
        return row["outcome"] if row else None


def test_a_file_that_cannot_be_read_is_quarantined(repo):
    """A spool entry that is not a regular file to read (here a link to /proc/self/mem, a file
    that answers every read with EIO, even to root) is quarantined unread, not raised."""
    spool_dir = _sessions(repo)
    (spool_dir / "1-unreadable.json").symlink_to("/proc/self/mem")
    with store(repo) as s:
        ingest_all(s, spool_dir)
        row = s.one("SELECT outcome, seq FROM spool_files WHERE name = 'w1/1-unreadable.json'")
        assert row["outcome"] == "quarantined"
        assert s.one("SELECT payload FROM events WHERE seq = ?", (row["seq"],))[0].find(
            "a symbolic link") > 0
        assert_whole(s)
    assert (spool_dir.parent / "quarantine" / "w1" / "1-unreadable.json").is_symlink()


def test_any_depth_of_nesting_is_ingested_or_quarantined(repo, monkeypatch):
    """JSON nests deeper than Python recurses: near the recursion limit a payload can be read
    and then not be recordable. Every depth up to past the limit is taken, one way or the
    other (the window where it is read but not recordable is a few levels wide: all are tried)."""
    spool_dir = _sessions(repo)
    monkeypatch.setattr(spool, "FLOOD_LIMIT", 10**9)   # every file recorded: no rate here
    limit = sys.getrecursionlimit()
    with store(repo) as s:
        for depth in range(limit - 300, limit + 20):
            land(spool_dir, f"{depth}-deep.json",
                 b'{"v":1,"ts_ns":5,"session":"w1","pane":"%1","source":"claude",'
                 b'"payload":{"hook_event_name":"Stop","x":' + b"[" * depth + b"]" * depth
                 + b"}}")
            ingest_all(s, spool_dir)
        assert recorded(s) == 320
        assert_whole(s)
