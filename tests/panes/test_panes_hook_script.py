"""hooks/a2a-hook: silent, always exit 0, atomic, and the CLI's JSON wrapped untouched."""

from __future__ import annotations

import json
import os
import subprocess

from a2a_tui.panes.signals import parse
from a2a_tui.resources import hooks_dir
from tests.support import wait_until

HOOK = str(hooks_dir() / "a2a-hook")


def run(*args: str, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([HOOK, *args], input=stdin, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=10)


def files(d):
    return sorted(p for p in d.iterdir())


def test_claude_hook_wraps_stdin_json_and_prints_nothing(tmp_path):
    payload = '{"hook_event_name":"UserPromptSubmit","prompt":"héllo \\"q\\"\\n2"}'
    r = run("--spool", str(tmp_path), "--session", "w1", "claude", stdin=payload,
            env={"TMUX_PANE": "%7"})
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    (f,) = files(tmp_path)
    doc = json.loads(f.read_text())
    assert doc["session"] == "w1" and doc["pane"] == "%7" and doc["source"] == "claude"
    assert doc["payload"] == json.loads(payload)
    assert f.name.startswith(f"{doc['ts_ns']}-w1-") and f.name.endswith(".json")
    assert parse(f.read_bytes()).prompt == 'héllo "q"\n2'


def test_codex_notify_json_comes_from_the_last_argument_and_the_pane_from_argv(tmp_path):
    note = json.dumps({"type": "agent-turn-complete", "thread-id": "t1",
                       "input-messages": ["hi"]})
    r = run("--spool", str(tmp_path), "--session", "w2", "--pane", "%3", "codex", note,
            env={"TMUX_PANE": ""})
    assert (r.returncode, r.stdout) == (0, "")
    sig = parse(files(tmp_path)[0].read_bytes())
    assert (sig.kind, sig.pane, sig.thread_id, sig.inputs) == ("stop", "%3", "t1", ("hi",))


def test_tmux_pane_died_hook(tmp_path):
    run("--spool", str(tmp_path), "--session", "w3", "--pane", "%1", "tmux", "pane-died", "137")
    sig = parse(files(tmp_path)[0].read_bytes())
    assert (sig.kind, sig.detail["status"]) == ("exited", "137")


def test_always_exit_0_and_silent_even_when_everything_is_wrong(tmp_path):
    cases = [
        ("--spool", str(tmp_path / "missing"), "--session", "w1", "claude"),
        ("--spool", str(tmp_path), "--session", 'w1"; rm -rf /', "claude"),
        ("--spool", str(tmp_path), "--session", "w1", "nonsense-source"),
        ("--spool",),
        (),
    ]
    for args in cases:
        r = run(*args, stdin="{}")
        assert (r.returncode, r.stdout, r.stderr) == (0, "", ""), args
    assert files(tmp_path) == []


def test_a_file_appears_only_whole(tmp_path):
    proc = subprocess.Popen([HOOK, "--spool", str(tmp_path), "--session", "w1", "claude"],
                            stdin=subprocess.PIPE, text=True)
    proc.stdin.write('{"hook_event_name":"Stop",')
    proc.stdin.flush()
    # While the CLI is still writing, only a hidden temp file exists.
    wait_until(lambda: any(p.name.startswith(".") for p in tmp_path.iterdir()),
               what="the temp file")
    assert [p for p in tmp_path.iterdir() if not p.name.startswith(".")] == []
    proc.stdin.write('"last_assistant_message":"done"}')
    proc.stdin.close()
    assert proc.wait(timeout=10) == 0
    (f,) = files(tmp_path)
    assert not f.name.startswith(".")
    assert parse(f.read_bytes()).event == "Stop"


def test_a_signal_costs_three_programs_beside_the_shell_and_a_failed_one_leaves_nothing(
        tmp_path):
    """Each program the hook starts is a fork and an exec on every agent event: date (the
    clock), cat (stdin) and mv (the rename) are the ones a POSIX sh cannot do itself; the temp
    file is removed only when the write or the rename failed."""
    bin_dir, log = tmp_path / "bin", tmp_path / "programs.log"
    bin_dir.mkdir()
    for name in ("date", "cat", "mv", "rm"):
        real = subprocess.run(["sh", "-c", f"command -v {name}"], capture_output=True,
                              text=True).stdout.strip()
        if real.startswith("/"):
            (bin_dir / name).write_text(f'#!/bin/sh\necho {name} >> "{log}"\nexec {real} "$@"\n')
            (bin_dir / name).chmod(0o755)
    path = {"PATH": f"{bin_dir}:{os.environ['PATH']}"}
    spool = tmp_path / "spool"
    spool.mkdir()
    r = run("--spool", str(spool), "--session", "w1", "claude", stdin='{"a":1}', env=path)
    assert r.returncode == 0 and len(files(spool)) == 1
    assert log.read_text().split() == ["date", "cat", "mv"]
    # A rename that fails: the temp file is removed, nothing lands.
    log.unlink()
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    (bin_dir / "mv").write_text(f'#!/bin/sh\necho mv >> "{log}"\nexit 1\n')
    r = run("--spool", str(blocked), "--session", "w1", "claude", stdin='{"a":1}', env=path)
    assert r.returncode == 0 and files(blocked) == []
    assert log.read_text().split() == ["date", "cat", "mv", "rm"]
