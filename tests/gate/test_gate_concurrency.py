"""Concurrent claims from several processes: exactly one winner, a dense event sequence."""

from __future__ import annotations

import json
import os
import subprocess

from tests.support import A2A, a2a, commit_in
from tests.support.cli import at_terminal


def test_concurrent_claims_one_winner(repo, ready_card):
    procs = [
        at_terminal([*A2A, "claim", ready_card, "--json"], runner=subprocess.Popen,
                    cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                    env=dict(os.environ))
        for _ in range(6)
    ]
    results = [(p.wait(timeout=60), p.stdout.read()) for p in procs]
    for p in procs:
        p.close_terminal()
    winners = [json.loads(out) for code, out in results if code == 0]
    losers = [json.loads(out) for code, out in results if code != 0]
    assert len(winners) == 1, results
    assert winners[0]["attempt"] == "T-1-a1" and winners[0]["fence"] == 1
    assert len(losers) == 5
    assert {e["error"]["code"] for e in losers} <= {"already_claimed", "busy"}
    events = a2a("events", "--json", cwd=repo).json
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(1, len(seqs) + 1))
    assert [e["kind"] for e in events].count("claimed") == 1
    st = a2a("status", "--json", cwd=repo).json
    assert len(st["attempts"]) == 1


def test_second_claim_refused_and_supersede_fences_old_attempt(repo, ready_card):
    first = a2a("claim", ready_card, "--json", cwd=repo).json
    again = a2a("claim", ready_card, "--json", cwd=repo)
    assert again.code != 0 and again.json["error"]["code"] == "already_claimed"
    sha = commit_in(repo / ".a2a/worktrees/T-1-a1", {"src/app.py": "v = 9\n"})
    second = a2a("claim", ready_card, "--supersede", "--json", cwd=repo).json
    assert second["attempt"] == "T-1-a2" and second["fence"] == first["fence"] + 1
    assert second["superseded"] == ["T-1-a1"]
    # The old owner comes back with its old fence: refused, kept only as a diagnostic.
    old = a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence",
              str(first["fence"]), "--json", cwd=repo)
    assert old.code != 0 and old.json["error"]["code"] == "attempt_not_open"
    # The new attempt with the old fence number: stale.
    stale = a2a("submit", "T-1-a2", "--sha", sha, "--card-version", "1", "--fence",
                str(first["fence"]), "--json", cwd=repo)
    assert stale.json["error"]["code"] == "stale_fence"
    kinds = [e["kind"] for e in a2a("events", "--json", cwd=repo).json]
    assert kinds.count("submit_refused") == 2 and "submitted" not in kinds
