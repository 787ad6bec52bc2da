"""`a2a session new|restart|end` through the real CLI, with real tmux and demo agents: each is
a user input; a restart is a new launch of the same session that names the launch it restarts
and takes the queue kept while it was down; an end closes the pane and records who ended it."""

from __future__ import annotations

import json

import pytest

from tests.support import (
    a2a,
    a2a_as,
    barrier,
    dispatch,
    events,
    inject,
    rows,
    session,
    tmux,
    wait_state,
    wait_until,
    write_user_config,
)

pytestmark = pytest.mark.tmux


def user_input(repo, uid: str) -> dict:
    [row] = rows(repo, "SELECT kind, text, source, to_session FROM user_inputs WHERE id = ?",
                 (uid,))
    return row


def launches(repo, sid: str) -> list[dict]:
    return [e.payload | {"seq": e.seq} for e in events(repo, "session_launching", session=sid)]


def panes(sock: str) -> set[str]:
    return set(tmux(sock, "list-panes", "-a", "-F", "#{pane_id}", check=False).split())


def test_new_end_restart_a_session_from_the_cli(world, repo, tmux_socket, serve):
    serve()
    write_user_config(world, '[roles.worker]\ncli = "demo"\noptions = ["--delay", "0.1"]\n')
    r = a2a("session", "new", "worker", "--tmux-socket", tmux_socket, "--json", cwd=repo)
    assert r.code == 0, r.out + r.err
    sid, first = r.json["session"], r.json["launch_seq"]
    # What was not given came from the config; the decision is the user's input.
    assert (r.json["cli"], r.json["options"]) == ("demo", ["--delay", "0.1"])
    assert user_input(repo, r.json["user_input"])["source"] == "cli"
    [launch] = launches(repo, sid)
    assert launch["extra"] == ["--delay", "0.1"] and launch["user_input"] == r.json["user_input"]
    wait_state(repo, sid, "idle")

    # A prompt held back (paused) is kept in the queue when the session ends.
    assert a2a("pause", sid, cwd=repo).code == 0
    kept = inject(repo, sid, "for the next life")
    pane, pid = session(repo, sid)["pane_id"], session(repo, sid)["pane_pid"]
    r = a2a("session", "end", sid, "--json", cwd=repo)
    assert r.code == 0, r.out + r.err
    assert r.json["pane_closed"] and r.json["process_gone"]
    assert pane not in panes(tmux_socket)
    assert session(repo, sid)["state"] == "exited"
    [ended] = events(repo, "session_ended", session=sid)
    assert ended.payload["ended_by"] == "user"
    assert ended.payload["user_input"] == r.json["user_input"]
    assert user_input(repo, r.json["user_input"]) == {
        "kind": "action", "text": f"end {sid}", "source": "cli", "to_session": sid}
    assert dispatch(repo, kept)["state"] == "queued"

    # Restart: the same session, a new launch naming the old one; the kept prompt goes in.
    r = a2a("session", "restart", sid, "--json", cwd=repo)
    assert r.code == 0, r.out + r.err
    assert r.json["session"] == sid and r.json["restarts"] == first
    assert r.json["options"] == ["--delay", "0.1"] and r.json["pid"] != pid
    assert r.json["pane"] in panes(tmux_socket)
    old, new = launches(repo, sid)
    assert new["restarts"] == old["seq"] == first and new["seq"] == r.json["launch_seq"]
    assert new["user_input"] == r.json["user_input"]
    assert session(repo, sid)["launch_seq"] == new["seq"]
    wait_until(lambda: dispatch(repo, kept)["state"] == "done", timeout=30,
               what="the kept prompt delivered to the restarted session")

    # The old process's exit, ingested late (its orchestrator was down), is the earlier life's:
    # it leaves the new one alone.
    stale = {"v": 1, "ts_ns": ended.ts_ns, "session": sid, "pane": pane, "source": "process",
             "payload": {"hook_event_name": "process-exited", "pid": pid}}
    (repo / ".a2a/spool" / sid / f"{ended.ts_ns}-{sid}-exit{pid}.json").write_text(
        json.dumps(stale))
    barrier(repo)
    [late] = [e for e in events(repo, "signal", session=sid)
              if e.payload["event"] == "process-exited" and e.payload["ts_ns"] == ended.ts_ns]
    assert late.payload["ignored"] == "from before this launch of the session"
    assert session(repo, sid)["state"] == "idle"


def test_restart_and_end_refuse_what_they_cannot_do(repo, tmux_socket, serve):
    serve()
    r = a2a("session", "new", "worker", "--tmux-socket", tmux_socket, "--json", cwd=repo)
    assert r.code == 2 and r.json["error"]["code"] == "no_cli"  # no --cli and no config
    r = a2a("session", "new", "worker", "--cli", "demo", "--tmux-socket", tmux_socket, "--json",
            "--", "--delay", "5", cwd=repo)
    sid = r.json["session"]
    wait_state(repo, sid, "idle")
    r = a2a("session", "restart", sid, "--json", cwd=repo)
    assert r.code == 1 and r.json["error"]["code"] == "session_running"
    inject(repo, sid, "a long turn")
    wait_state(repo, sid, "busy")
    before = rows(repo, "SELECT COUNT(*) AS n FROM user_inputs")
    r = a2a("session", "end", sid, "--json", cwd=repo)  # at work, no terminal to ask, no --yes
    assert r.code == 1 and r.json["error"]["code"] == "session_busy"
    assert session(repo, sid)["state"] == "busy"
    assert rows(repo, "SELECT COUNT(*) AS n FROM user_inputs") == before
    # An agent may start sessions (as `a2a spawn`), but only the user ends one.
    r = a2a_as(repo, "exec9", "executive", "session", "end", sid, "--yes", "--json")
    assert r.code == 1 and r.json["error"]["code"] == "user_only"
    assert a2a("session", "end", sid, "--yes", cwd=repo).code == 0
    assert session(repo, sid)["state"] == "exited"
