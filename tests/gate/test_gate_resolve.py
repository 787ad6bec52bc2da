"""Finding 1: an `unknown` attempt has a way out, and it is the user's: `a2a resolve`.

The dead end reproduced: integrate dies between its intent and its outcome, main is moved by
hand, and recovery can only say `unknown`. Before `a2a resolve` existed, abandon, supersede,
recover and reclaim all refused and the card could never be worked again.
"""

from __future__ import annotations

from tests.gate.gate_support import SCORES, attempt_state, crash_then_move, events, head
from tests.support import a2a, a2a_as, commit_in


def _unknown_after_a_hand_move(repo, verified):
    """integrate killed after its intent, then main moved by hand to a commit of its own."""
    attempt, claim, sha = verified
    r = a2a("integrate", attempt, *SCORES, cwd=repo, env={"A2A_CRASH_AT": "integrate:after_intent"})
    assert r.code == -9
    other = commit_in(repo, {"README.md": "changed by hand\n"}, "hand edit")
    rec = a2a("recover", "--json", cwd=repo).json
    assert [u["id"] for u in rec["unknown"]] == [attempt]
    return attempt, claim, sha, other


def test_unknown_is_no_longer_a_dead_end(repo, verified):
    attempt, claim, sha, other = _unknown_after_a_hand_move(repo, verified)
    # What the user tried before still refuses, but each refusal names the way out.
    for args in (("abandon", attempt, *SCORES), ("claim", "T-1", "--supersede"),
                 ("reclaim", attempt)):
        r = a2a(*args, "--json", cwd=repo)
        assert r.code != 0, args
        assert f"a2a resolve {attempt}" in r.json["error"]["message"], r.json
    # The facts are checked: main does not contain the candidate, so "integrated" is refused.
    wrong = a2a("resolve", attempt, "--as", "integrated", "--reason", "I think it landed",
                "--json", cwd=repo)
    assert wrong.code != 0 and wrong.json["error"]["code"] == "target_lacks_sha"
    assert sha[:12] in wrong.json["error"]["message"]
    assert a2a("resolve", attempt, "--as", "not-applied", "--json", cwd=repo).code == 2  # reason
    assert attempt_state(repo, attempt) == "unknown"

    ok = a2a("resolve", attempt, "--as", "not-applied", "--reason",
             "main shows only my hand edit", "--json", cwd=repo)
    assert ok.code == 0, ok.out + ok.err
    assert ok.json["state"] == "verified"
    ev = events(repo, "attempt_resolved")[-1]
    assert ev["actor"] == "user" and ev["attempt"] == attempt
    p = ev["payload"]
    assert (p["as"], p["sha"], p["target"]) == ("not-applied", sha, "main")
    assert p["reason"] == "main shows only my hand edit" and p["observed"] == other
    inputs = a2a("input", "list", "--json", cwd=repo).json
    mine = [u for u in inputs if u["id"] == p["user_input"]]
    assert mine and mine[0]["kind"] == "action" and attempt in mine[0]["text"]
    # The attempt is open again: the card can be worked (here: abandoned, then claimed anew
    # once the user has decided about main's hand edit).
    assert a2a("abandon", attempt, *SCORES, cwd=repo).code == 0
    assert a2a("claim", "T-1", "--json", cwd=repo).json["error"]["code"] == "target_diverged"
    assert a2a("target", "adopt", "main", "--reason", "my edit stays", cwd=repo).code == 0
    again = a2a("claim", "T-1", "--json", cwd=repo)
    assert again.code == 0 and again.json["start_commit"] == other


def test_resolved_as_integrated_only_when_the_target_holds_it(repo, verified):
    attempt, claim, sha = verified
    # Dies after main moved (the worktree is brought along by hand); then someone commits on
    # top before anyone looks.
    crash_then_move(repo, attempt, "integrate:after_update_ref", sha)
    later = commit_in(repo, {"README.md": "on top\n"}, "on top")
    rec = a2a("recover", "--json", cwd=repo).json
    assert rec["unknown"][0]["id"] == attempt
    no = a2a("resolve", attempt, "--as", "not-applied", "--reason", "x", "--json", cwd=repo)
    assert no.json["error"]["code"] == "target_has_sha"
    ok = a2a("resolve", attempt, "--as", "integrated", "--reason", "main contains it",
             "--json", cwd=repo)
    assert ok.code == 0, ok.out + ok.err
    assert attempt_state(repo, attempt) == "integrated"
    assert head(repo) == later  # resolve records; it never moves anything
    # An ended attempt: its worktree can be reclaimed, and the card claimed again.
    assert a2a("reclaim", attempt, "--json", cwd=repo).json["reclaimed"][0][
        "worktree_state"] == "removed"
    # The gate's own record says main went to the candidate; `later` is news to it. (Claiming
    # an integrated card is said first: `--again` goes past that.)
    assert a2a("claim", "T-1", "--json", cwd=repo).json["error"]["code"] == "card_integrated"
    assert a2a("claim", "T-1", "--again", "--json", cwd=repo).json["error"]["code"] == \
        "target_diverged"


def test_resolve_as_abandoned_frees_the_card_and_is_the_users_alone(repo, verified):
    attempt, claim, sha, other = _unknown_after_a_hand_move(repo, verified)
    exe = a2a_as(repo, "e1", "executive", "resolve", attempt, "--as", "abandoned", "--reason",
                 "x", "--json")
    assert exe.code != 0 and exe.json["error"]["code"] == "role_forbidden"
    assert "the user" in exe.json["error"]["message"]
    assert attempt_state(repo, attempt) == "unknown"
    ok = a2a("resolve", attempt, "--as", "abandoned", "--reason", "not worth untangling",
             "--json", cwd=repo)
    assert ok.code == 0, ok.out + ok.err
    assert attempt_state(repo, attempt) == "abandoned"
    assert events(repo, "attempt_resolved")[-1]["payload"]["as"] == "abandoned"
    # Resolving twice is refused: only an unknown attempt is resolved.
    twice = a2a("resolve", attempt, "--as", "abandoned", "--reason", "x", "--json", cwd=repo)
    assert twice.json["error"]["code"] == "attempt_not_unknown"
    assert a2a("reclaim", attempt, cwd=repo).code == 0
