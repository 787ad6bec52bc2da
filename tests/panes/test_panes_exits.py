"""The exit watcher: a pane process's death is known exactly once — from its pidfd on Linux, by
looking every half second without Linux's facilities (as on macOS: `A2A_PLATFORM=darwin`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from a2a_tui.panes.exits import ExitWatcher
from tests.support import proc_start, wait_until


@pytest.fixture(params=["linux", "darwin"])
def platform(request, monkeypatch):
    monkeypatch.setenv("A2A_PLATFORM", request.param)
    return request.param


def _files(spool):
    """What the watcher wrote: into each session's own folder, never the spool's top."""
    assert not list(spool.glob("*.json"))
    return [json.loads(p.read_text()) for p in sorted(spool.glob("*/*.json"))
            if p.parent.name == json.loads(p.read_text())["session"]]


def test_a_killed_process_is_reported_once(tmp_path, platform):
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    w = ExitWatcher(tmp_path)
    assert w.pidfds is (platform == "linux")
    w.start()
    try:
        w.watch([("w1", "%3", proc.pid, proc_start(proc.pid))])
        w.watch([("w1", "%3", proc.pid, proc_start(proc.pid))])  # already watched: no-op
        assert _files(tmp_path) == []
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        docs = wait_until(lambda: _files(tmp_path), what="the exit to be reported")
        assert len(docs) == 1
        d = docs[0]
        assert (d["session"], d["pane"], d["source"]) == ("w1", "%3", "process")
        assert d["payload"] == {"hook_event_name": "process-exited", "pid": proc.pid}
    finally:
        w.stop()


def test_a_reused_pid_counts_as_gone(tmp_path, platform):
    w = ExitWatcher(tmp_path)
    w.start()
    try:
        me = os.getpid()
        # Same pid, another start time: a tick later on Linux, over a second later elsewhere.
        later = 1 if platform == "linux" else 101
        w.watch([("w2", "%4", me, proc_start(me) + later)])
        docs = wait_until(lambda: _files(tmp_path), what="the stale pid to be reported")
        assert docs[0]["session"] == "w2"
    finally:
        w.stop()
