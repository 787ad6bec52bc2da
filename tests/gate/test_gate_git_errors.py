"""Finding 3: git's own errors reach the user and the record, with their cause (the adapter's
side: test_gate_git_cas.py).

Before: with a stale `refs/heads/main.lock`, git said `cannot lock ref ... File exists`, and a2a
answered `cas_failed` ("main did not move: it changed under us") with no reason, sending the user
after a concurrent writer that did not exist.
"""

from __future__ import annotations

from tests.gate.gate_support import SCORES, attempt_state, events, head
from tests.support import a2a


def test_a_held_ref_lock_is_reported_as_such_and_left_alone(repo, verified):
    attempt, claim, sha = verified
    lock = repo / ".git/refs/heads/main.lock"
    lock.write_text("")  # a git process that crashed (or still runs) holds main
    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert r.code != 0 and r.json["error"]["code"] == "ref_locked", r.out
    msg = r.json["error"]["message"]
    assert str(lock) in msg and "File exists" in msg
    assert "changed under us" not in msg
    assert lock.exists(), "a2a must never remove a lock it does not hold"
    assert head(repo) == claim["start_commit"] and attempt_state(repo, attempt) == "verified"
    refused = events(repo, "integrate_refused")[-1]["payload"]
    assert refused["code"] == "ref_locked" and refused["lock"] == str(lock)
    assert "File exists" in refused["git"]
    assert "integration_intent" not in [e["kind"] for e in events(repo)]
    # The same answer every time until the lock goes; once the user removes it, it lands.
    again = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert again.json["error"]["code"] == "ref_locked"
    lock.unlink()
    ok = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert ok.code == 0, ok.out
    assert head(repo) == sha


def test_a_target_that_cannot_be_read_is_not_called_missing(repo, verified):
    """A broken ref file is git's error, quoted, not `no_target`."""
    attempt, claim, sha = verified
    (repo / ".git/refs/heads/main").write_text("not a sha\n")
    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert r.code != 0
    err = r.json["error"]
    assert err["code"] != "no_target", err
    assert "refs/heads/main" in err["message"]
