"""The attacks on the broker (a socket per session, bound into that session's sandbox alone;
the agent's `a2a` a thin client; one spool folder per session). Each passes only when refused.
"""

from __future__ import annotations

import json
import time

import pytest

from a2a_tui.panes.spool import FLOOD_LIMIT
from tests.boundary.pane import Attacker, identity_of
from tests.support import holds_for, wait_until
from tests.support.broker import broker_pid, settled_children

pytestmark = pytest.mark.tmux


def test_whoami_through_the_broker_names_the_session_never_the_user(world, repo, serve):
    serve()
    other = Attacker(world, "confined", role="ideation")
    a = Attacker(world, "confined")
    code, out = a.run("a2a whoami --json")
    me = identity_of(out)
    assert code == 0 and (me["session"], me["is_user"], me["via"]) == (a.sid, False, "broker")
    # Its environment forged to name the user, it is still the session of its socket.
    code, out = a.run("A2A_SESSION= A2A_CALLER=user A2A_USER=1 a2a whoami --json")
    me = identity_of(out)
    assert code == 0 and (me["session"], me["is_user"]) == (a.sid, False), out
    # Another session's socket (it exists, outside) is not in its sandbox to connect to.
    theirs = repo / ".a2a" / "broker" / other.sid / "a2a.sock"
    wait_until(theirs.is_socket, timeout=10, what=f"session {other.sid}'s socket")
    code, out = a.run(f"A2A_BROKER={theirs} a2a whoami --json")
    assert code != 0 and identity_of(out)["error"]["code"] == "broker_unavailable", out


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


def test_one_session_flooding_the_broker_leaves_every_other_session_answered(world, repo, serve):
    # Issue 35, finding 4: ~70 `sleep 40 | a2a inject w1 -` from one session held every child
    # the broker had (a child lives while it reads its client's stdin), and nobody else was
    # answered until the sleeps ended.
    serve()
    victim = Attacker(world, "confined", role="worker")
    a = Attacker(world, "confined")
    code, _ = a.run(f"for i in $(seq 70); do (sleep 40 | a2a inject {victim.sid} -"
                    " >/dev/null 2>&1 &); done")
    assert code == 0
    broker = broker_pid(repo)
    settled_children(broker, least=2)   # the flood's requests: all taken that can be
    t0 = time.monotonic()
    code, out = victim.run("a2a whoami --json", timeout=20)
    assert code == 0 and identity_of(out)["session"] == victim.sid, out
    assert time.monotonic() - t0 < 15


def test_junk_in_ones_own_spool_folder_is_recorded_at_a_rate(world, repo, serve):
    # Issue 35, finding 6: 2,000 junk files in a session's own spool folder became 2,000
    # `signal_quarantined` events within seconds.
    serve()
    a = Attacker(world, "confined")
    folder = f"{repo}/.a2a/spool/{a.sid}"
    code, out = a.run(f"for i in $(seq 300); do echo junk > {folder}/.j$i;"
                      f" mv {folder}/.j$i {folder}/$i-junk.json; done")
    assert code == 0, out
    wait_until(lambda: not any(p.name.endswith("-junk.json") for p in
                               (repo / ".a2a" / "spool" / a.sid).iterdir()),
               timeout=60, what="the junk to be taken")
    assert len(world.events("signal_quarantined", session=a.sid)) == FLOOD_LIMIT
    assert len(world.events("spool_flooded", session=a.sid)) == 1
