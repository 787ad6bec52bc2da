"""`a2a spawn`: the launch record, the pane tag, identity, the attempt's writer and trailers."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat

from a2a_tui.confine import probe
from a2a_tui.panes.orchestrator import lock_holder
from a2a_tui.repo import Repo
from a2a_tui.resources import rolecards_dir
from tests.support import (
    a2a,
    add_ready_card,
    events,
    git,
    session,
    spawn,
    tmux,
    wait_state,
    wait_until,
)


def claim(repo):
    return a2a("claim", add_ready_card(repo), "--json", cwd=repo).json


def run_in_pane(sock, pane, command):
    """The user types a bash-mode prompt in the demo agent: it runs inside the agent's tree."""
    tmux(sock, "send-keys", "-t", pane, "-l", "--", "!" + command)
    tmux(sock, "send-keys", "-t", pane, "Enter")


def test_spawn_records_the_launch_and_tags_the_pane(repo, tmux_socket, serve):
    serve()
    s = spawn(repo, tmux_socket, "--delay", "0.2", role="reviewer",
              args=("--model", "m-1", "--effort", "high"))
    sid, pane = s["session"], s["pane"]
    assert sid == "r1" and pane.startswith("%")
    assert tmux(tmux_socket, "show-options", "-p", "-v", "-t", pane, "@a2a_session").strip() == sid
    (launching,) = events(repo, "session_launching", session=sid)
    p = launching.payload
    card = rolecards_dir() / "reviewer.md"
    assert p["role_card_digest"] == "sha256:" + hashlib.sha256(card.read_bytes()).hexdigest()
    assert p["repo_commit"] == git(repo, "rev-parse", "HEAD")
    assert (p["role"], p["cli"], p["model"], p["effort"]) == ("reviewer", "demo", "m-1", "high")
    assert p["cli_version"].startswith("a2a-demo") and p["argv"][-2:] == ["--delay", "0.2"]
    (launched,) = events(repo, "session_launched", session=sid)
    row = session(repo, sid)
    assert launched.payload["pane"] == pane == row["pane_id"]
    assert row["pane_pid"] == s["pid"] and row["pane_tty"].startswith("/dev/pts/")
    with open(f"/proc/{s['pid']}/stat") as f:
        assert int(f.read().rsplit(")", 1)[1].split()[19]) == row["pane_pid_start"]
    assert row["launch_seq"] == launching.seq
    wait_state(repo, sid, "idle")

    # Its two channels are named (the socket it reaches a2a through, its spool folder).
    sock, spool = repo / ".a2a" / "broker" / sid / "a2a.sock", repo / ".a2a" / "spool" / sid
    assert (p["broker_socket"], p["spool"]) == (str(sock), str(spool))
    # The launch is confined and its record says exactly how (a2a_tui/confine), and both
    # channels are bound into its sandbox (its own, no other's). Who a command from inside
    # the pane is, is the broker's to say (tests/boundary/test_broker.py): the store is out
    # of the sandbox's sight. Where the machine cannot confine, the record says why.
    box = p["confinement"]
    if not probe().available:
        assert box["confined"] is False and probe().reason in box["reason"], box
        return
    assert box["confined"] is True and box["engine"] == "bwrap" and box["digest"]
    assert str(repo / ".a2a") in box["policy"]["hidden"]
    assert str(repo / ".a2a" / "run" / sid) in box["policy"]["reopen"]
    assert {str(sock.parent), str(spool)} <= set(box["policy"]["write"])


def test_spawn_for_an_attempt_binds_the_writer_and_its_commits_carry_trailers(
        repo, tmux_socket, serve):
    c = claim(repo)
    att = c["attempt"]
    # The repository's own hooks must keep running (confined with the session: the hook
    # writes where the session may, its own clone's git directory).
    hook = repo / ".git/hooks/post-commit"
    marker = repo / ".a2a/worktrees" / att / ".git" / "own-hook-ran"
    hook.write_text('#!/bin/sh\necho ran >> "$(git rev-parse --git-dir)/own-hook-ran"\n')
    hook.chmod(hook.stat().st_mode | stat.S_IEXEC)
    serve()
    s = spawn(repo, tmux_socket, "--delay", "0.1", args=("--attempt", att, "--model", "m-2"))
    sid, pane = s["session"], s["pane"]
    wt = repo / ".a2a/worktrees" / att
    assert s["cwd"] == str(wt)
    with sqlite3.connect(repo / ".a2a/a2a.db") as db:
        assert db.execute("SELECT writer FROM attempts WHERE id=?", (att,)).fetchone()[0] == \
            f"session:{sid}"
    wait_state(repo, sid, "idle")
    run_in_pane(tmux_socket, pane, "echo x > f.txt && git add f.txt &&"
                " git commit -q --no-verify -m 'work on it'")
    wait_until(lambda: git(wt, "log", "-1", "--format=%s") == "work on it", what="the commit")
    trailers = dict(line.split(": ", 1) for line in
                    git(wt, "log", "-1", "--format=%(trailers:only,unfold)").splitlines() if line)
    launch = session(repo, sid)["launch_seq"]
    assert trailers == {"A2A-Task": "T-1", "A2A-Attempt": att, "A2A-Session": sid,
                        "A2A-Role": "worker", "A2A-CLI": trailers["A2A-CLI"],
                        "A2A-Model": "m-2", "A2A-Launch": str(launch)}
    assert trailers["A2A-CLI"].startswith("demo a2a-demo")
    # post-commit runs after the commit is in: wait for it rather than race it
    wait_until(lambda: marker.exists() and marker.read_text() == "ran\n",
               what="the repository's own post-commit hook")
    # The same commit made outside the session has no trailers: nothing global was configured.
    # (The clone is a repository of its own: a commit made in it by hand runs its own hooks,
    # none, not the main repository's.)
    (wt / "g.txt").write_text("y\n")
    git(wt, "add", "g.txt")
    git(wt, "commit", "-q", "-m", "by hand")
    assert git(wt, "log", "-1", "--format=%(trailers)") == ""
    assert marker.read_text() == "ran\n"
    assert "GIT_CONFIG_COUNT" not in os.environ


def test_spawn_rejects_bad_input_in_one_line(repo, tmux_socket):
    cases = [
        (("spawn", "painter", "--cli", "demo"), "unknown_role"),
        (("spawn", "worker", "--cli", "demo", "--session", "Bad Id"), "bad_session_id"),
        (("spawn", "worker", "--cli", "demo", "--attempt", "T-9-a1"), "unknown_attempt"),
    ]
    for args, code in cases:
        r = a2a(*args, "--tmux-socket", tmux_socket, "--json", cwd=repo)
        assert r.code != 0 and r.json["error"]["code"] == code, r.out
    r = a2a("spawn", "worker", "--cli", "vim", "--tmux-socket", tmux_socket, cwd=repo)
    assert r.code == 2 and r.err.count("\n") == 1
    with sqlite3.connect(repo / ".a2a/a2a.db") as db:
        assert db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 0
    assert lock_holder(Repo(repo)) is None     # a refused spawn starts nothing


def test_spawn_with_no_orchestrator_starts_it(repo, tmux_socket):
    """A session spawned while nothing serves the repository would stay `unknown`, its
    prompts undelivered and its `a2a` unanswered (the broker is the orchestrator's): spawn
    starts the orchestrator, as `a2a up` does, and says so."""
    assert lock_holder(Repo(repo)) is None
    r = a2a("spawn", "worker", "--cli", "demo", "--tmux-socket", tmux_socket, "--json",
            cwd=repo)
    assert r.code == 0, r.err
    assert r.json["orchestrator_started"] == lock_holder(Repo(repo)) is not None
    wait_state(repo, r.json["session"], "idle")
    said = a2a("spawn", "worker", "--cli", "demo", "--tmux-socket", tmux_socket, cwd=repo)
    assert said.code == 0 and "orchestrator" not in said.out, said.out   # one runs now
    first = events(repo, "orchestrator_started")
    assert len(first) == 1
