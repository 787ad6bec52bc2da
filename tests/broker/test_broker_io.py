"""A command through the broker reads the client's stdin and writes its stdout and stderr (the
descriptors themselves), exits with the command's code, is interrupted when the client is, and
without an orchestrator the client says so in one line."""

from __future__ import annotations

import shlex
import signal
import subprocess
import time

from tests.gate.verify_support import PY, carrying, checks_may_write, claim, submit_verify
from tests.support import (
    AgentProcess,
    broker_as,
    commit_in,
    events,
    register_session,
    rows,
    wait_until,
)
from tests.support.broker import CLIENT, socket_of

CLIENT_WORDS = shlex.join(CLIENT)


def test_exit_codes_stdout_and_stderr_are_the_commands(repo, serve):
    serve()
    missing = broker_as(repo, "w1", "worker", "card", "show", "T-404")
    assert missing.code == 1 and missing.out == ""
    assert missing.err.strip().endswith("[unknown_card]")
    as_json = broker_as(repo, "w1", "worker", "card", "show", "T-404", "--json")
    assert as_json.code == 1 and as_json.json["error"]["code"] == "unknown_card"
    usage = broker_as(repo, "w1", "worker", "submit")
    assert usage.code == 2 and "[usage]" in usage.err
    ok = broker_as(repo, "w1", "worker", "status", "--json")
    assert ok.code == 0 and ok.err == "" and "cards" in ok.json


def test_output_redirected_to_a_file_lands_in_the_file(repo, serve, tmp_path):
    serve()
    out = tmp_path / "events.json"
    p = AgentProcess(repo, "w1", "worker",
                     argv=["sh", "-c", f"{CLIENT_WORDS} events --json > {out}"])
    r = p.go()
    assert r.code == 0 and r.out == "", r.err
    assert '"kind": "initialized"' in out.read_text()


def test_text_piped_into_the_client_reaches_the_command(repo, serve):
    serve()
    register_session(repo, "w2", "worker", state="idle")
    text = "from a pipe\nsecond line"
    p = AgentProcess(repo, "exec1", "executive",
                     argv=["sh", "-c", f"printf %s {shlex.quote(text)} | {CLIENT_WORDS}"
                                       " inject w2 - --json"])
    r = p.go()
    assert r.code == 0, r.err
    (d,) = rows(repo, "SELECT text, actor FROM dispatches WHERE n = ?", (r.json["dispatch"],))
    assert d["text"].endswith(text) and d["actor"] == "session:exec1"


def test_stdin_given_to_the_client_is_what_the_command_reads(repo, serve):
    serve()
    register_session(repo, "w2", "worker", state="idle")
    r = AgentProcess(repo, "exec1", "executive", "inject", "w2", "-", "--json").go("typed in")
    assert r.code == 0, r.err
    (d,) = rows(repo, "SELECT text FROM dispatches WHERE n = ?", (r.json["dispatch"],))
    assert d["text"].endswith("typed in")


def _hanging_verify(repo, tmp_path, world) -> tuple[AgentProcess, str]:
    """The executive's `a2a verify` through its broker, running a check that hangs (the attempt
    verified once before, passed): the client's process, and the word on the command line of
    the check's processes (their pids mean nothing outside the check's namespace)."""
    checks_may_write(world, tmp_path)      # the check and the test leave each other word there
    flag, pids, token = tmp_path / "hang", tmp_path / "pids", f"a2a-hang-{tmp_path.name}"
    check = (f"if [ -e {flag} ]; then {PY} -c 'import time; time.sleep(120)' {token} &"
             f" echo $! >> {pids}; sleep 120; fi")
    c, _ = claim(repo, check)
    assert submit_verify(repo, c).json["verdict"] == "passed"
    flag.touch()
    p = AgentProcess(repo, "exec1", "executive", "verify", c["attempt"])
    p.start()
    wait_until(lambda: pids.exists() and pids.read_text().split(), timeout=30,
               what="the check's process")
    return p, token


def test_interrupting_the_client_interrupts_a_long_verify(repo, serve, tmp_path, world):
    serve()
    p, token = _hanging_verify(repo, tmp_path, world)
    p.proc.send_signal(signal.SIGINT)        # Ctrl-C in the agent's shell reaches the client
    r = p.finish(timeout=30)
    assert r.code == 128 + signal.SIGINT, r.err
    (ev,) = wait_until(lambda: events(repo, "verify_interrupted"), what="verify_interrupted")
    assert ev.payload["why"] == "SIGINT"
    wait_until(lambda: not carrying(token), timeout=10, what="the check's processes to end")


def test_a_client_that_dies_hangs_the_command_up(repo, serve, tmp_path, world):
    serve()
    p, token = _hanging_verify(repo, tmp_path, world)
    p.proc.kill()
    p.proc.wait(timeout=10)
    (ev,) = wait_until(lambda: events(repo, "verify_interrupted"), timeout=30,
                       what="verify_interrupted")
    assert ev.payload["why"] == "SIGHUP"
    wait_until(lambda: not carrying(token), timeout=10, what="the check's processes to end")


def test_with_the_orchestrator_down_the_client_answers_one_line_at_once(repo, serve):
    served = serve()
    assert broker_as(repo, "w1", "worker", "whoami").code == 0
    served.stop()
    p = AgentProcess(repo, "w1", "worker", "whoami", wait=False)
    t0 = time.monotonic()
    r = p.go()
    took = time.monotonic() - t0
    assert r.code == 1 and r.out == "", r.err
    (line,) = r.err.strip().splitlines()
    assert line.startswith("a2a: error:") and line.endswith("[broker_unavailable]")
    assert took < 1.5, took   # refused at once: the socket is there, nobody listens
    j = AgentProcess(repo, "w1", "worker", "whoami", "--json", wait=False).go()
    assert j.code == 1 and j.json["error"]["code"] == "broker_unavailable"


def test_an_a2a_outside_any_session_with_no_broker_set_is_refused_by_the_client(repo):
    env_less = subprocess.run([*CLIENT, "whoami"], cwd=repo, capture_output=True, text=True,
                              env={"PATH": "/usr/bin:/bin"})
    assert env_less.returncode == 1 and "[broker_unavailable]" in env_less.stderr
    nowhere = subprocess.run([*CLIENT, "whoami"], cwd=repo, capture_output=True, text=True,
                             env={"A2A_BROKER": str(socket_of(repo, "nobody"))})
    assert nowhere.returncode == 1 and "[broker_unavailable]" in nowhere.stderr


def test_the_client_imports_nothing_of_a2a(repo, serve):
    serve()
    # `-X importtime` lists every module the client imports, as the shim runs it.
    p = AgentProcess(repo, "w1", "worker", argv=[*CLIENT[:3], "-X", "importtime", CLIENT[-1],
                                                 "whoami"])
    r = p.go()
    assert r.code == 0 and "session w1 (worker)" in r.out, r.err
    imported = {line.split("|")[-1].strip() for line in r.err.splitlines() if "|" in line}
    assert "json" in imported and not {m for m in imported if m.startswith("a2a_tui")}


def test_the_writer_submits_through_the_broker(repo, serve):
    serve()
    AgentProcess(repo, "w1", "worker", "status").go()
    c, worktree = claim(repo, "true", writer="w1")
    sha = commit_in(worktree, {"src/app.py": "x = 2\n"})
    r = broker_as(repo, "w1", "worker", "submit", c["attempt"], "--sha", sha, "--card-version",
                  "1", "--fence", str(c["fence"]), "--json")
    assert r.code == 0, r.err
    (ev,) = events(repo, "submitted")
    assert ev.actor == "session:w1" and ev.payload["sha"] == sha


def test_the_clients_output_ends_when_the_answer_is_sent(repo):
    """The child hands the client's descriptors back (closes them) before it answers: a caller
    reading the command's output to its end (`$(a2a …)`, a pipe) is not kept waiting while the
    child exits. Here the child lingers after answering until it is killed: the output has
    ended all the same.
    """
    import os
    import socket

    from a2a_tui import cli
    from a2a_tui.broker import client, commands, request
    from a2a_tui.repo import Repo

    register_session(repo, "w1", "worker", os.getpid())
    served = request.Served(Repo(repo), None, commands.command_paths(cli.build_parser()))
    ours, theirs = socket.socketpair()
    out_r, out_w = os.pipe()
    pid = os.fork()
    if pid == 0:   # the broker's child, as serve.py forks it (then it lingers)
        code = 1
        try:
            ours.close()
            os.close(out_r)
            os.close(out_w)   # it gets the client's through the socket, as the broker's does
            code = request.handle(theirs, "w1", served)
            signal.pause()   # lingers until the test kills it
        finally:
            os._exit(code)
    theirs.close()
    try:
        null = os.open(os.devnull, os.O_RDWR)
        client.send(ours, {"v": client.VERSION, "argv": ["whoami"], "cwd": "/", "env": {}},
                    [null, out_w, out_w])
        os.close(null)
        os.close(out_w)
        reader = client.Reader(ours)
        assert reader.recv() == {"started": True}
        answer = reader.recv()
        assert answer == {"exit": 0}
        os.set_blocking(out_r, False)
        chunks = []
        while True:
            try:
                chunk = os.read(out_r, 65536)
            except BlockingIOError:
                raise AssertionError("the answer came, and the child still holds the"
                                     f" client's stdout (read so far: {b''.join(chunks)!r})"
                                     ) from None
            if not chunk:
                break
            chunks.append(chunk)
        assert b"session w1 (worker)" in b"".join(chunks)
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(out_r)
        ours.close()
