"""A full disk: every command that writes answers in one line with a stable code (`store_full`,
`store_io`) and a non-zero exit, and leaves nothing half-written; `a2a serve` keeps running,
shows why it cannot record (the tmux status line of a2a's session, its lock file, its log),
keeps what it could not record (a spool file stays until its event committed) and catches up by
itself once space returns; nothing acknowledged before is missing and `a2a store verify` is
intact. On a real small filesystem: a tmpfs filled to its last page (tests/store/conftest.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess

from a2a_tui.repo import Repo
from a2a_tui.tui import store_health
from tests.fuzz.spool import HOOK
from tests.store.store_support import chain
from tests.support import add_ready_card, holds_for, register_session, wait_until, write_card

CODES = ("store_full", "store_io")


def _writes(repo) -> list[tuple[str, ...]]:
    """Commands that write, each of another path into the store."""
    card = write_card(repo, "T-2")
    return [("card", "add", str(card)), ("card", "ready", "T-3"), ("claim", "T-1"),
            ("say", "hello"), ("inject", "w1", "hi"), ("pause", "w1"),
            ("board", "report", "--title", "x", "--body", "y")]


def _prepare(world, repo) -> None:
    add_ready_card(repo, "T-1")
    assert world.a2a("card", "add", str(write_card(repo, "T-3"))).code == 0
    register_session(repo, "w1", "worker")


def _chain(repo) -> list[tuple[int, str]]:
    return chain(repo / ".a2a/a2a.db")


def _one_line_with_code(r, args) -> str:
    assert r.code != 0, (args, r.out, r.err)
    assert "Traceback" not in r.err + r.out, (args, r.err)
    lines = r.err.strip().splitlines()
    assert len(lines) == 1, (args, r.err)
    code = lines[0].rsplit("[", 1)[-1].rstrip("]")
    assert code in CODES, (args, r.err)
    return code


def _all_refused(world, repo, writes) -> set[str]:
    seen = set()
    for args in writes:
        seen.add(_one_line_with_code(world.a2a(*args), args))
        j = world.a2a(*args, "--json")
        assert j.code != 0 and j.json["error"]["code"] in CODES, (args, j.out, j.err)
    return seen


def test_every_writing_command_answers_in_one_line_on_a_full_disk(world, small_disk):
    repo = world.init_repo(small_disk.path / "repo")
    _prepare(world, repo)
    writes = _writes(repo)
    before = _chain(repo)
    small_disk.fill()
    codes = _all_refused(world, repo, writes)
    # The reads answer, or say in one line why they cannot (opening needs room for its index).
    for args in (("status",), ("events",), ("store", "verify")):
        r = world.a2a(*args)
        assert "Traceback" not in r.err, (args, r.err)
        if r.code != 0:
            _one_line_with_code(r, args)
    small_disk.free()
    assert codes
    # Nothing half-written: no event, no worktree, no branch from a refused command.
    assert _chain(repo) == before
    assert not list((repo / ".a2a/worktrees").iterdir())
    assert world.git("branch", "--list", "a2a/*") == ""
    v = world.a2a("store", "verify", "--json")
    assert v.code == 0 and v.json["intact"], v.out + v.err
    for args in writes:   # and every one of them works once space is back
        r = world.a2a(*args)
        assert r.code == 0, (args, r.err)


def _staged_signal(repo, session: str) -> tuple[str, object]:
    """A well-formed signal written by the real hook script into a folder beside the spool: its
    name, and a function that lands it in the session's own spool folder (a rename: no space
    needed; the folder is made now, as a launch makes it)."""
    staging = repo / ".a2a/staging"
    staging.mkdir()
    payload = json.dumps({"hook_event_name": "PreToolUse", "session_id": "x", "tool_name": "Bash"})
    subprocess.run([HOOK, "--spool", str(staging), "--session", session, "claude"],
                   input=payload.encode(), check=True, timeout=20)
    (name,) = os.listdir(staging)
    folder = _spooled(repo, session)
    folder.mkdir(parents=True, exist_ok=True)
    return name, lambda: os.replace(staging / name, folder / name)


def _spooled(repo, session: str):
    """Where the session's signals wait to be ingested (its own spool folder)."""
    return Repo(repo).session_spool_dir(session)


def test_serve_survives_a_full_disk_shows_it_and_catches_up_when_space_returns(
        world, small_disk):
    repo = world.init_repo(small_disk.path / "repo")
    _prepare(world, repo)
    session = Repo(repo).config().tmux_session
    world.tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "20")
    served = world.serve()
    wait_until(lambda: "serving" in served.output(), timeout=20, what="serve to start")
    name, land = _staged_signal(repo, "w1")
    writes = _writes(repo)[3:5]
    before = _chain(repo)
    small_disk.fill()
    land()

    def shown() -> str:
        return world.tmux("show-options", "-v", "-t", session, "@a2a_store", check=False)

    wait_until(lambda: "full" in shown(), timeout=20, what="the status line to say the disk is"
               f" full (serve's log: {served.output()!r})")
    assert "#{@a2a_store}" in world.tmux("show-options", "-v", "-t", session, "status-right")
    lock = (repo / ".a2a/locks/orchestrator.lock").read_text()
    assert "store_full" in lock or "store_io" in lock, lock
    # What a workbench beside this serve shows in its status line (tui/store_health.py).
    seen = store_health.problem(None, None, Repo(repo))
    assert seen is not None and seen.startswith(("store_full since", "store_io since")), seen
    holds_for(lambda: served.proc.poll() is None and (_spooled(repo, "w1") / name).exists(),
              2.0, what="serve running, the signal kept in the spool")
    _all_refused(world, repo, writes)
    assert "store_" in served.output()   # said in its window, once
    small_disk.free()
    wait_until(lambda: not (_spooled(repo, "w1") / name).exists(), timeout=30,
               what="the kept signal ingested once space returned")
    wait_until(lambda: shown() == "", timeout=10, what="the status line cleared")
    assert served.proc.poll() is None
    assert "the broker ended" not in served.output()   # a state, not a restart loop
    after = _chain(repo)
    assert after[:len(before)] == before
    kinds = [e.kind for e in world.events()[len(before):]]
    assert "signal" in kinds and "store_trouble" in kinds, kinds
    (trouble,) = world.events("store_trouble")
    assert trouble.payload["code"] in CODES and trouble.payload["failures"] >= 1
    assert trouble.payload["until_ns"] > trouble.payload["since_ns"]
    assert [e.payload["file"] for e in world.events("signal")] == [f"w1/{name}"]
    v = world.a2a("store", "verify", "--json")
    assert v.code == 0 and v.json["intact"], v.out + v.err
    assert served.stop() == 0


def test_the_broker_lives_through_a_full_disk_and_its_end_is_recorded_once_space_returns(
        world, small_disk):
    """A full disk is the store guard's state, not a broker restart loop: the broker keeps
    serving with a log that takes no more lines, one started again meanwhile serves too, and
    the end of the one that died is recorded (once) when the store takes writes again."""
    from tests.broker.test_broker_life import broker_pid, listening
    from tests.support.broker import socket_of

    repo = world.init_repo(small_disk.path / "repo")
    _prepare(world, repo)
    served = world.serve()
    wait_until(lambda: listening(socket_of(repo, "w1")), timeout=20, what="w1's socket")
    name, land = _staged_signal(repo, "w1")
    first = broker_pid(repo)
    # The broker's log ends on a page boundary: its next line needs a page the disk lacks.
    log = repo / ".a2a/logs/broker.log"
    with open(log, "ab") as f:
        f.write(b"\n" * (-log.stat().st_size % 4096))
    small_disk.fill()
    land()   # a cycle meets the full disk: the orchestrator's guard waits it out
    wait_until(lambda: "store_full" in served.output() or "store_io" in served.output(),
               timeout=20, what="serve to say the store takes no writes")
    os.kill(first, signal.SIGKILL)
    second = wait_until(lambda: (pid := broker_pid(repo)) != first and pid, timeout=20,
                        what="a broker started again")
    holds_for(lambda: broker_pid(repo) == second, 3.0,
              what="the new broker serving on the full disk, not restarted in a loop")
    assert not world.events("broker_exited")   # nothing can be recorded yet
    small_disk.free()
    wait_until(lambda: world.events("broker_exited"), timeout=30,
               what="the broker's end recorded once space returned")
    (ended,) = world.events("broker_exited")
    assert ended.payload["code"] == -signal.SIGKILL and ended.payload["restarts"] == 1
    assert ended.payload["ended_ns"] < ended.ts_ns
    wait_until(lambda: not (_spooled(repo, "w1") / name).exists(), timeout=30,
               what="the kept signal ingested")
    assert broker_pid(repo) == second and served.proc.poll() is None
    assert "cannot record" not in served.output(), served.output()
    assert len(world.events("broker_exited")) == 1
    assert served.stop() == 0


def test_a_pane_exit_met_on_a_full_disk_is_reported_once_space_returns(small_disk):
    from a2a_tui.panes.exits import ExitWatcher

    spool = small_disk.path / "spool"
    spool.mkdir()
    proc = subprocess.Popen(["sleep", "60"])
    watcher = ExitWatcher(spool)
    watcher.start()
    try:
        from tests.support import proc_start

        watcher.watch([("w1", "%1", proc.pid, proc_start(proc.pid))])
        small_disk.fill()
        proc.kill()
        proc.wait()
        # The exit goes into the session's own spool folder (as the session's hooks write).
        def written() -> list[str]:
            folder = spool / "w1"
            return [n for n in os.listdir(folder) if not n.startswith(".")] \
                if folder.is_dir() else []

        holds_for(lambda: not written(), 1.0, what="nothing written on the full disk")
        small_disk.free()
        (name,) = wait_until(written, timeout=10, what="the exit reported once space returned")
        assert json.loads((spool / "w1" / name).read_text())["session"] == "w1"
    finally:
        watcher.stop()
