"""The attacks that need the broker (issue 27's other half: a socket per session, bound into
that session's sandbox alone; the agent's `a2a` a thin client; one spool folder per session).

Grouped here and skipped, with the reason, until `a2a_tui.broker` is on this branch: the
coordinator merges both halves and runs them then. Each passes only when refused.
"""

from __future__ import annotations

import importlib.util
import json
import time

import pytest

from tests.boundary.pane import Attacker
from tests.support import holds_for

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(importlib.util.find_spec("a2a_tui.broker") is None,
                       reason="needs the broker (a2a_tui.broker: the per-session socket and"
                              " thin client of issue 27), not on this branch yet"),
]


def test_whoami_through_the_broker_names_the_session_never_the_user(world, repo, serve):
    serve()
    a = Attacker(world, "confined")
    code, out = a.run("a2a whoami")
    assert code == 0 and a.sid in out and "the user" not in out, out
    # With its own environment forged, the client still speaks on this session's socket.
    code, out = a.run(f"A2A_SESSION=user A2A_BROKER={repo}/.a2a/broker/other/a2a.sock"
                      " a2a whoami")
    assert "the user" not in out, out


def test_a_forged_spool_file_moves_no_other_session(world, repo, serve):
    serve()
    victim = Attacker(world, "confined", role="ideation")
    a = Attacker(world, "confined")
    before = world.session(victim.sid)["state"]
    forged = json.dumps({"v": 1, "ts_ns": time.time_ns(), "session": victim.sid, "pane": "",
                         "source": "claude", "payload": {
                             "hook_event_name": "SessionEnd", "reason": "other",
                             "session_id": "x", "cwd": str(repo)}})
    for folder in (f"{repo}/.a2a/spool", f"{repo}/.a2a/spool/{victim.sid}",
                   f"{repo}/.a2a/spool/{a.sid}"):
        a.run(f"printf '%s\\n' {json.dumps(forged)} > {folder}/.f.tmp &&"
              f" mv {folder}/.f.tmp {folder}/{time.time_ns()}-{victim.sid}-1.json")
    holds_for(lambda: world.session(victim.sid)["state"] == before, 2.0,
              what="the victim's state to stay as it was")
    assert not world.signals(victim.sid, "SessionEnd")
