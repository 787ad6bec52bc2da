"""`a2a session revive|fork` through the real CLI with demo agents, which keep no conversation:
a revive starts afresh and says so (the launch record says why and names the launch it
restarts; the kept queue follows); a fork is refused before anything is recorded. Reviving and
forking on the CLI's own conversation: tests/real_cli/test_real_session_revive.py."""

from __future__ import annotations

import pytest

from tests.fuzz.invariants import table_counts
from tests.support import (
    a2a,
    dispatch,
    events,
    inject,
    rows,
    session,
    store,
    wait_state,
    wait_until,
)

pytestmark = pytest.mark.tmux


def demo(repo, tmux_socket) -> str:
    r = a2a("session", "new", "worker", "--cli", "demo", "--tmux-socket", tmux_socket, "--json",
            "--", "--delay", "0.05", cwd=repo)
    assert r.code == 0, r.out + r.err
    wait_state(repo, r.json["session"], "idle")
    return r.json["session"]


def test_a_cli_that_cannot_resume_is_revived_afresh_and_says_so(repo, tmux_socket, serve):
    serve()
    sid = demo(repo, tmux_socket)
    first = session(repo, sid)["launch_seq"]
    r = a2a("session", "revive", sid, "--json", cwd=repo)
    assert r.code == 1 and r.json["error"]["code"] == "session_running"
    assert a2a("pause", sid, cwd=repo).code == 0
    kept = inject(repo, sid, "for the next life")
    assert a2a("session", "end", sid, cwd=repo).code == 0

    r = a2a("session", "revive", sid, cwd=repo)
    assert r.code == 0, r.err
    assert "started afresh: the demo agent cannot resume a conversation" in r.out
    old, new = [e for e in events(repo, "session_launching", session=sid)]
    assert old.seq == first and new.payload["restarts"] == first
    assert new.payload.get("revives") is None and new.payload.get("continues") is None
    assert "cannot resume" in new.payload["revive_refused"]
    [u] = rows(repo, "SELECT kind, text FROM user_inputs WHERE text LIKE 'revive%'")
    assert (u["kind"], u["text"]) == ("action", f"revive {sid}")
    wait_until(lambda: dispatch(repo, kept)["state"] == "done", timeout=30,
               what="the kept prompt delivered to the revived session")


def test_fork_is_refused_before_anything_is_recorded(repo, tmux_socket, serve):
    serve()
    sid = demo(repo, tmux_socket)
    with store(repo) as s:
        before = table_counts(s)
    for args, code in ((["fork", sid], "cannot_fork"), (["fork", "w9"], "unknown_session"),
                       (["fork", sid, "--as", "no good"], "bad_session_id"),
                       (["revive", "w9"], "unknown_session")):
        r = a2a("session", *args, "--json", cwd=repo)
        assert r.code != 0 and r.json["error"]["code"] == code, (args, r.out)
        plain = a2a("session", *args, cwd=repo)
        assert len(plain.err.strip().splitlines()) == 1 and plain.err.rstrip().endswith(
            f"[{code}]"), plain.err
    assert "the demo agent cannot fork" in a2a("session", "fork", sid, cwd=repo).err
    with store(repo) as s:
        assert table_counts(s) == before


def test_a_conversation_never_learnt_is_revived_afresh_and_says_so(repo, tmux_socket, serve):
    # Codex (here the demo agent speaking its protocol) tells its thread id only with its
    # first turn's notify: a session that exits before one has no conversation to resume.
    serve()
    r = a2a("spawn", "worker", "--cli", "demo", "--tmux-socket", tmux_socket, "--json", "--",
            "--protocol", "codex", cwd=repo)
    assert r.code == 0, r.out + r.err
    sid = r.json["session"]
    assert session(repo, sid)["thread_id"] is None
    assert a2a("session", "end", sid, "--yes", cwd=repo).code == 0
    r = a2a("session", "revive", sid, "--json", cwd=repo)
    assert r.code == 0, r.out + r.err
    assert r.json["fresh"] == f"no conversation id of {sid} is known (demo never reported one)"
    new = events(repo, "session_launching", session=sid)[-1].payload
    assert new["revive_refused"] == r.json["fresh"] and new.get("continues") is None
