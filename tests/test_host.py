"""Process facts through psutil, the same on Linux and macOS, and the switch that turns Linux's
own facilities off (`A2A_PLATFORM=darwin`, `a2a_tui/host.py`) so CI runs the portable branches."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from a2a_tui import host
from a2a_tui.dirwatch import DirWatch
from a2a_tui.identity import proc_stat, process_alive, resolve_caller
from a2a_tui.store import Store
from tests.support import register_session, wait_until


@pytest.fixture
def sleeper():
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield proc
    proc.kill()
    proc.wait()


def test_the_switch_only_turns_linux_facilities_off(monkeypatch):
    monkeypatch.delenv(host.OVERRIDE, raising=False)
    assert host.linux() is sys.platform.startswith("linux")
    monkeypatch.setenv(host.OVERRIDE, "darwin")
    assert host.linux() is False
    monkeypatch.setenv(host.OVERRIDE, "linux")
    assert host.linux() is sys.platform.startswith("linux")


def test_a_start_time_is_the_kernels_tick_count_so_rows_recorded_from_proc_still_match(sleeper):
    # Before psutil the launch recorded field 22 of /proc/<pid>/stat; the unit is unchanged.
    raw = Path(f"/proc/{sleeper.pid}/stat").read_text()
    ticks = int(raw[raw.rindex(")") + 2:].split()[19])
    assert proc_stat(sleeper.pid).start == ticks
    assert proc_stat(sleeper.pid).ppid == __import__("os").getpid()
    assert process_alive(sleeper.pid, ticks)


@pytest.mark.parametrize("platform, same, other", [("linux", 0, 1), ("darwin", 50, 101)])
def test_a_start_time_matches_exactly_on_linux_and_within_a_second_elsewhere(
        monkeypatch, sleeper, platform, same, other):
    monkeypatch.setenv(host.OVERRIDE, platform)
    start = proc_stat(sleeper.pid).start
    assert process_alive(sleeper.pid, start + same)
    assert not process_alive(sleeper.pid, start + other)   # a reused pid is another process
    sleeper.kill()
    sleeper.wait()
    assert not process_alive(sleeper.pid, start)


def test_without_inotify_the_folder_watch_refuses_so_its_callers_use_watchfiles(
        monkeypatch, tmp_path):
    monkeypatch.setenv(host.OVERRIDE, "darwin")
    with pytest.raises(OSError, match="Linux-only"):
        DirWatch(tmp_path)


def test_an_orphan_without_a_terminal_is_known_by_its_session_leader(repo, tmp_path):
    """Rule 3 of identity.py, in-process: the pane process leads its own session (as tmux makes
    it); a command it started in the background is orphaned (its starting shell exits), so its
    parent chain no longer reaches the pane and it has no terminal — its session still does.
    Without it (or in a session of its own) nothing places the process: it is unidentified,
    never the user."""
    pidfile = tmp_path / "orphan.pid"
    pane = subprocess.Popen(["sh", "-c", f"(sleep 30 & echo $! > {pidfile}); exec sleep 30"],
                            start_new_session=True, stdin=subprocess.DEVNULL)
    own = subprocess.Popen(["sleep", "30"], start_new_session=True)   # its own session: gap
    try:
        orphan = int(wait_until(lambda: pidfile.exists() and pidfile.read_text().strip(),
                                what="the orphan's pid"))
        wait_until(lambda: proc_stat(orphan).ppid != pane.pid, what="the orphan re-parented")
        register_session(repo, "exec1", "executive", pane.pid)
        with Store(repo / ".a2a/a2a.db") as store:
            c = resolve_caller(store, orphan)
            assert (c.session, c.via) == ("exec1", "session")
            assert resolve_caller(store, own.pid).unidentified
            pane.kill()
            pane.wait()
            # Its leader gone, nothing ties the orphan to the pane any more.
            gone = resolve_caller(store, orphan)
            assert gone.unidentified and not gone.is_user
    finally:
        for p in (pane, own):
            p.kill()
            p.wait()
        if pidfile.exists():
            subprocess.run(["kill", pidfile.read_text().strip()], capture_output=True)
