"""Codex protocol (demo agent in codex mode): notify only at turn end, title turns filtered."""

from __future__ import annotations

from itertools import pairwise

from tests.support import dispatch, events, inject, session, signals, spawn, tmux, wait_until


def test_codex_turns_are_serialized_on_notify_and_title_turns_are_ignored(
        repo, tmux_socket, serve):
    serve()
    s = spawn(repo, tmux_socket, "--protocol", "codex", "--delay", "0.3")
    sid = s["session"]
    # Codex sends nothing at start: the pane stays unknown until the user says otherwise.
    assert session(repo, sid)["state"] == "unknown"
    assert "--notify" in s["argv"]
    # Nothing signals readiness, so wait for the prompt on screen (a display check only).
    wait_until(lambda: "ctrl-d exit" in tmux(tmux_socket, "capture-pane", "-p", "-t", s["pane"]),
               what="the demo's prompt")
    tmux(tmux_socket, "send-keys", "-t", s["pane"], "-l", "--", "hello codex")
    tmux(tmux_socket, "send-keys", "-t", s["pane"], "Enter")
    wait_until(lambda: session(repo, sid)["state"] == "idle", what="the first turn's notify")
    assert events(repo, "user_input", session=sid)[0].payload["text"] == "hello codex"

    ns = [inject(repo, sid, f"task {i}") for i in range(3)]
    wait_until(lambda: dispatch(repo, ns[2])["state"] == "done", timeout=20, what="#3 done")
    stops = [p for p in signals(repo, sid, "agent-turn-complete")]
    genuine = [p for p in stops if p.get("ignored") is None]
    titles = [p for p in stops if p.get("ignored") is not None]
    assert len(genuine) == 4 and len(titles) == 1  # only the thread's first turn has a title
    assert all(p["raw"]["input-messages"][0].startswith("Generate a concise") for p in titles)
    assert {p["raw"]["thread-id"] for p in genuine} == {session(repo, sid)["thread_id"]}
    assert [p.get("confirmed") for p in genuine] == [None, *ns]
    sent = [e.payload["n"] for e in events(repo, "dispatch_sent", session=sid)]
    assert sent == ns
    # Every delivery waited for the genuine end of the turn before it.
    for prev, nxt in pairwise(ns):
        end = next(p for p in genuine if p.get("finished") == prev)
        assert dispatch(repo, nxt)["enter_ns"] > end["ts_ns"]

    # Codex signals no submitted prompt (only the turn's end): a long turn is no reason for the
    # unconfirmed-prompt hint (the demo's is due 3 s after Enter).
    slow = inject(repo, sid, "a long turn #delay=4")
    wait_until(lambda: dispatch(repo, slow)["state"] == "done", timeout=20, what="the long turn")
    assert events(repo, "pane_hint", session=sid) == []
